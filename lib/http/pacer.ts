import type { Exchange } from '../model/exchange.ts';
import { HEADERS_AND_ENVELOPE_BUDGET, trimExchange } from '../model/evidence-trim.ts';
import { SLOW_DOWN_FRACTION, UNAUTHENTICATED_PATHS, WINDOW_SECONDS, type Pool } from '../spec-constants.ts';

/**
 * The pacing pool of the unauthenticated routes. §4.2: they use "a separate per-IP limiter" whose
 * limit is not shown (§8.1), so they are paced apart from every token, whatever token is sent
 * along, and learn that limiter from their own headers or 429s.
 */
export const PER_IP_ROLE = 'per-ip';

/** Where a request is paced: its token's pool, or the per-IP pool for the unauthenticated routes. */
export function pacingPoolOf(path: string, role: string | undefined, pool: Pool | undefined): { role: string; pool: Pool } | undefined {
  if ((UNAUTHENTICATED_PATHS as readonly string[]).includes(path)) return { role: PER_IP_ROLE, pool: 'read' };
  return role === undefined || pool === undefined ? undefined : { role, pool };
}

/** What the pacer knows of one token's pool, read from the latest response's headers (§8.1). */
interface PoolState {
  /** The pool in words, for what a wait is for. */
  name: string;
  limit?: number;
  remaining?: number;
  /** Unix ms at which the server says the bucket refills. */
  resetAtMs?: number;
  /** Paced requests admitted and not yet answered: they spend points the headers do not show yet. */
  inFlight: number;
  /** Admissions go one after another (first come, first served), so no caller jumps the queue. */
  turnstile: Promise<void>;
  /** Unplanned 429s in a row on this pool, for the backoff multiplier. */
  refusedInARow: number;
  /** Resolves the callers waiting for fresh headers once a response arrives. */
  fresh: Array<() => void>;
  /**
   * Since the pool was last seen at 10% or more: the time paced requests waited on its word, and
   * the requests sent to it (paced or not). A rolling window gives back, within one window, every
   * point not spent since; numbers still low after a window of waiting must be explained by them.
   */
  lowWaitedMs: number;
  lowSent: number;
  /** The pool's numbers proved false: it is no longer slowed down on their word. */
  distrusted: boolean;
  /** Waiting proved useless (retries spent, or refused again after a capped wait): 429s go to the caller at once. */
  stormy: boolean;
}

/**
 * A rate-limit header the pacer did not act on as it asked, because it could not be true: a Reset
 * or Retry-After beyond the window (plus a margin), or a Remaining still exhausted after a whole
 * window of waiting. Each is reported (ratelimit/8.1/unplanned-429) and the run moves on.
 */
export interface DisbelievedClaim {
  role: string;
  pool: Pool;
  header: 'x-ratelimit-reset' | 'retry-after' | 'x-ratelimit-remaining';
  value: string;
  /** What the pacer did instead. */
  instead: string;
  /** The first response that made the claim (a light copy). */
  exchange: Exchange;
  /** Responses that made it on this pool, the first included. */
  times: number;
}

/** An unplanned 429 the pacer absorbed: recorded as INFO, never a failure of another requirement. */
export interface UnplannedRateLimit {
  role: string;
  pool: Pool;
  retryAfterS: number | undefined;
  at: string;
  seq: number;
  exchange: Exchange;
}

/** Why the run waited: pacing under 10%, Retry-After of unplanned 429s, or a suite letting a window heal. */
export type WaitReason = 'slow-down' | 'retry-after' | 'recovery';

export interface PacerStats {
  /** All waiting that held a request or a suite back. */
  waitedMs: number;
  byReason: Record<WaitReason, number>;
  unplanned: number;
  /** Rate-limit headers not acted on as they asked (DisbelievedClaim). */
  disbelieved: number;
}

/** Every response the pacer sees: paced requests and the unpaced ones the rate-limit suites send. */
export type ExchangeWatcher = (role: string, pool: Pool, exchange: Exchange) => void;

export interface PacerOptions {
  /**
   * Longest single wait the pacer takes on the target's word (a Retry-After or a Reset): the
   * window plus a margin. A claim beyond it is disbelieved and reported.
   */
  maxWaitMs: number;
  /** Unplanned 429s in a row on one pool after which the pacer hands the 429 to the caller. */
  maxRetries: number;
  /** Used when a pool's Reset header is unusable: the spec's window. */
  fallbackWindowMs: number;
  now?: () => number;
  /** Every wait of the budget service, with what it waits for (a long one is shown as progress). */
  sleep?: (ms: number, why: string) => Promise<void>;
  /** Called whenever the time waited grows, a suite's own noted waits included. */
  onWaited?: () => void;
}

const BACKOFF_CAP = 8;
/** Added to the window for the longest wait the pacer takes on the target's word: clocks differ. */
export const WAIT_MARGIN_MS = 5_000;

/** The pacer's waits for a target whose pools refill over `windowS` seconds (the profile's window). */
export function windowPacing(windowS: number): Partial<PacerOptions> {
  return { maxWaitMs: windowS * 1000 + WAIT_MARGIN_MS, fallbackWindowMs: windowS * 1000 };
}
const FRESH_HEADERS_TIMEOUT_MS = 1_000;

/**
 * The budget service every paced request passes through, behaving as §8.1 recommends a client
 * behave: it tracks each token's pools from the X-RateLimit-* headers (counting requests still in
 * flight), slows down when Remaining falls below 10% of the limit by spreading what is left until
 * the reset, and on a 429 it did not provoke sleeps Retry-After seconds (times a backoff multiplier
 * when they repeat) before the client sends the same request again. Admission is first come, first
 * served per pool, so a burst from one suite cannot overtake the requests of another.
 */
export class Pacer {
  readonly #state = new Map<string, PoolState>();
  readonly #options: Required<PacerOptions>;
  readonly #watchers = new Set<ExchangeWatcher>();
  readonly #waited: Record<WaitReason, number> = { 'slow-down': 0, 'retry-after': 0, recovery: 0 };
  readonly unplanned: UnplannedRateLimit[] = [];
  /** 429s of the per-IP limiter, absorbed the same way: legal whatever their number, so kept apart. */
  readonly perIpRefusals: UnplannedRateLimit[] = [];
  readonly disbelieved: DisbelievedClaim[] = [];
  waitedMs = 0;

  constructor(options: Partial<PacerOptions> = {}) {
    this.#options = {
      maxWaitMs: options.maxWaitMs ?? WINDOW_SECONDS * 1000 + WAIT_MARGIN_MS,
      maxRetries: options.maxRetries ?? 5,
      fallbackWindowMs: options.fallbackWindowMs ?? WINDOW_SECONDS * 1000,
      now: options.now ?? Date.now,
      sleep: options.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms))),
      onWaited: options.onWaited ?? (() => {}),
    };
  }

  #pool(role: string, pool: Pool): PoolState {
    const k = `${role}:${pool}`;
    let s = this.#state.get(k);
    if (s === undefined) {
      s = { name: `the ${role} token's ${pool} pool`, inFlight: 0, turnstile: Promise.resolve(), refusedInARow: 0, fresh: [], lowWaitedMs: 0, lowSent: 0, distrusted: false, stormy: false };
      this.#state.set(k, s);
    }
    return s;
  }

  #count(reason: WaitReason, ms: number): void {
    this.#waited[reason] += ms;
    this.waitedMs += ms;
    this.#options.onWaited();
  }

  /** Waits until the request may go: at once while the pool has 10% or more left. */
  async before(role: string, pool: Pool): Promise<void> {
    const s = this.#pool(role, pool);
    const admitted = s.turnstile.then(async () => {
      await this.#admit(s);
      s.inFlight += 1;
    });
    s.turnstile = admitted.catch(() => undefined);
    await admitted;
  }

  async #admit(s: PoolState): Promise<void> {
    for (;;) {
      if (s.remaining === undefined || s.distrusted || s.stormy) return;
      const available = s.remaining - s.inFlight;
      // > slow down when X-RateLimit-Remaining falls below 10% of the limit
      // A pool known only from a 429 (no headers: the per-IP limiter may send none) waits for the
      // reset that 429 gave, then sends one request to learn again.
      if (available >= (s.limit ?? 1) * SLOW_DOWN_FRACTION) return;
      const now = this.#options.now();
      // Without a usable Reset header, assume the spec's window from now (once, so it can pass).
      s.resetAtMs ??= now + this.#options.fallbackWindowMs;
      const untilReset = s.resetAtMs - now;
      if (untilReset <= 0) {
        // The refill moment has passed: send one request and learn the new numbers from it.
        if (s.inFlight === 0) return this.#countLowSend(s);
        await this.#freshHeaders(s);
        continue;
      }
      // Spread what is left evenly until the reset; with nothing left, wait for the reset itself.
      const wait = Math.min(this.#options.maxWaitMs, available <= 0 ? untilReset + 50 : untilReset / (available + 1));
      this.#count('slow-down', wait);
      s.lowWaitedMs += wait;
      await this.#options.sleep(wait, `${s.name} to refill (paced: under 10% left)`);
      // With points left, this request has waited its share; with none, the loop now finds the
      // reset passed and lets one request through to learn the new numbers.
      if (available > 0) return this.#countLowSend(s);
    }
  }

  /** A request admitted while the pool is under 10%: it may be what keeps the pool low. */
  #countLowSend(s: PoolState): void {
    s.lowSent += 1;
  }

  #freshHeaders(s: PoolState): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, FRESH_HEADERS_TIMEOUT_MS);
      s.fresh.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  #disbelieve(role: string, pool: Pool, header: DisbelievedClaim['header'], exchange: Exchange, instead: string): void {
    const seen = this.disbelieved.find((c) => c.role === role && c.pool === pool && c.header === header);
    if (seen !== undefined) seen.times += 1;
    else this.disbelieved.push({ role, pool, header, value: exchange.response?.headers[header] ?? '', instead, exchange: trimExchange(exchange, HEADERS_AND_ENVELOPE_BUDGET), times: 1 });
  }

  #learn(role: string, pool: Pool, s: PoolState, exchange: Exchange): void {
    const res = exchange.response;
    if (res !== undefined) {
      const limit = intHeader(res.headers['x-ratelimit-limit']);
      const remaining = intHeader(res.headers['x-ratelimit-remaining']);
      const reset = intHeader(res.headers['x-ratelimit-reset']);
      if (limit !== undefined) s.limit = limit;
      if (remaining !== undefined) s.remaining = remaining;
      if (remaining !== undefined && s.limit !== undefined && remaining >= s.limit * SLOW_DOWN_FRACTION) {
        s.lowWaitedMs = 0;
        s.lowSent = 0;
      }
      // A reset in milliseconds or as a delta is a defect the rate-limit suites report; here the
      // pacer only needs a plausible instant, so it reads seconds and ignores the rest.
      if (reset !== undefined && reset > 1e9 && reset < 1e11) {
        // How far ahead the target says, on its own clock (its Date header) when it gives one.
        const targetNow = Date.parse(res.headers['date'] ?? '');
        const ahead = reset * 1000 - (Number.isNaN(targetNow) ? this.#options.now() : targetNow);
        // On a clock that runs ahead of ours, the instant comes sooner than it reads.
        if (ahead <= this.#options.maxWaitMs) s.resetAtMs = Math.min(reset * 1000, this.#options.now() + ahead);
        else {
          // > Pools refill on a 60-second rolling window: a refill further away cannot be true.
          this.#disbelieve(role, pool, 'x-ratelimit-reset', exchange, `assumed the ${this.#options.fallbackWindowMs / 1000} s window instead`);
          s.resetAtMs = undefined;
        }
      }
    }
    for (const wake of s.fresh.splice(0)) wake();
    for (const watch of this.#watchers) watch(role, pool, exchange);
  }

  /**
   * A rolling window gives back within one window every point not spent since: once paced requests
   * have waited a whole window in all on a pool's word, a pool still under 10% must owe it to the
   * requests sent meanwhile. When they cannot account for it (fewer than 90% of the limit), the
   * numbers are false and the pool is no longer slowed down: a false header costs the run about
   * one window per pool, however it is dressed (no Reset, a Reset always a window away, Remaining
   * stuck at 0 or 1).
   */
  #judgeLongSlowdown(role: string, pool: Pool, s: PoolState, exchange: Exchange): void {
    const remaining = intHeader(exchange.response?.headers['x-ratelimit-remaining']);
    if (s.distrusted || s.limit === undefined || remaining === undefined || exchange.response?.status === 429) return;
    if (remaining >= s.limit * SLOW_DOWN_FRACTION || s.lowWaitedMs < this.#options.fallbackWindowMs) return;
    if (s.lowSent >= s.limit * (1 - SLOW_DOWN_FRACTION)) return;
    s.distrusted = true;
    this.#disbelieve(role, pool, 'x-ratelimit-remaining', exchange, `still under 10% after a whole window of waiting: no longer slowed down by it`);
  }

  /**
   * Learns from the response to a paced request. Returns the milliseconds to wait before sending
   * the same request again when it was refused with 429, otherwise undefined.
   */
  after(role: string, pool: Pool, exchange: Exchange): number | undefined {
    const s = this.#pool(role, pool);
    s.inFlight = Math.max(0, s.inFlight - 1);
    this.#learn(role, pool, s, exchange);
    this.#judgeLongSlowdown(role, pool, s, exchange);
    if (exchange.response?.status !== 429) {
      s.refusedInARow = 0;
      s.stormy = false;
      return undefined;
    }
    const retryAfterS = intHeader(exchange.response.headers['retry-after']);
    const refusal = { role, pool, retryAfterS, at: new Date(this.#options.now()).toISOString(), seq: exchange.seq, exchange: trimExchange(exchange, HEADERS_AND_ENVELOPE_BUDGET) };
    (role === PER_IP_ROLE ? this.perIpRefusals : this.unplanned).push(refusal);
    const absurd = retryAfterS !== undefined && retryAfterS * 1000 > this.#options.maxWaitMs;
    // Refused again although the last wait already covered a whole window: waiting does not help.
    if (absurd && s.refusedInARow > 0) s.stormy = true;
    // Refused twice while the pool's own headers say points are left: a limiter they do not
    // describe, which waiting on the pool cannot satisfy. The caller gets the 429 (the run-wide
    // rules judge it) instead of a minute of backoff.
    const pointsLeft = (intHeader(exchange.response.headers['x-ratelimit-remaining']) ?? 0) > 0;
    if (pointsLeft && s.refusedInARow > 0) {
      s.stormy = true;
      this.#disbelieve(role, pool, 'x-ratelimit-remaining', exchange, 'refused with points left: 429s handed to the caller without waiting');
    }
    s.refusedInARow += 1;
    if (s.refusedInARow > this.#options.maxRetries) s.stormy = true;
    if (s.stormy) {
      s.refusedInARow = 0;
      if (absurd) this.#disbelieve(role, pool, 'retry-after', exchange, 'handed to the caller without waiting');
      return undefined;
    }
    if (absurd) this.#disbelieve(role, pool, 'retry-after', exchange, `waited at most ${this.#options.maxWaitMs / 1000} s instead; 429s handed to the caller once waiting proved useless`);
    // > on 429, sleep for Retry-After seconds and retry the same request; on repeated 429s add a
    // > backoff multiplier on top of Retry-After
    const multiplier = Math.min(BACKOFF_CAP, 2 ** (s.refusedInARow - 1));
    const wait = Math.min(this.#options.maxWaitMs, Math.max(1, retryAfterS ?? 1) * 1000 * multiplier);
    // A pool its headers say is spent waits for its Reset too; one they say has points left is
    // refused by something else, and only Retry-After speaks for that.
    if (!pointsLeft) {
      s.remaining = 0;
      s.resetAtMs = Math.max(s.resetAtMs ?? 0, this.#options.now() + wait);
    }
    this.#count('retry-after', wait);
    return wait;
  }

  /**
   * Learns from the response to an unpaced request (one the rate-limit suites send to provoke a
   * 429): the pool's state is real and later paced requests must respect it, but the 429 was
   * planned and is not recorded.
   */
  observe(role: string, pool: Pool, exchange: Exchange): void {
    const s = this.#pool(role, pool);
    // Spent points all the same: they may be why the pool stays low.
    if (s.remaining !== undefined && s.limit !== undefined && s.remaining < s.limit * SLOW_DOWN_FRACTION) this.#countLowSend(s);
    this.#learn(role, pool, s, exchange);
  }

  /** Calls `watcher` with every response the pacer sees; returns the function that stops it. */
  watch(watcher: ExchangeWatcher): () => void {
    this.#watchers.add(watcher);
    return () => this.#watchers.delete(watcher);
  }

  /** Waits the `ms` that after() asked for before the refused request goes again. */
  retryAfter(role: string, pool: Pool, ms: number): Promise<void> {
    return this.#options.sleep(ms, `the Retry-After of a 429 on ${this.#pool(role, pool).name}`);
  }

  /** Records time a suite spent waiting for a window to heal, so the report can show it. */
  noteWait(reason: WaitReason, ms: number): void {
    if (ms > 0) this.#count(reason, ms);
  }

  /** What the pacer believes of a pool now. */
  snapshot(role: string, pool: Pool): { limit?: number; remaining?: number; resetAtMs?: number; inFlight: number } {
    const { limit, remaining, resetAtMs, inFlight } = this.#pool(role, pool);
    return { ...(limit === undefined ? {} : { limit }), ...(remaining === undefined ? {} : { remaining }), ...(resetAtMs === undefined ? {} : { resetAtMs }), inFlight };
  }

  stats(): PacerStats {
    return { waitedMs: this.waitedMs, byReason: { ...this.#waited }, unplanned: this.unplanned.length, disbelieved: this.disbelieved.length };
  }
}

function intHeader(value: string | undefined): number | undefined {
  if (value === undefined || !/^\s*\d+\s*$/.test(value)) return undefined;
  return Number(value.trim());
}
