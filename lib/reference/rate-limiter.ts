/**
 * Limiters of the reference. The real one is a true rolling window (§8.1 rule 2: "Pools refill
 * on a 60-second rolling window and are scoped per API token"): each point comes back exactly one
 * window after it was spent. A fixed-window limiter exists only for the defect that shows the
 * harness can tell the two apart.
 */
export interface LimitDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Unix seconds at which the oldest spent point comes back (rounded up). */
  resetS: number;
  /** Unix seconds at which every point spent so far is back (rounded up): another reading of "refills". */
  refilledS: number;
  /** On refusal: whole seconds until a request will succeed (rounded up, so never too early). */
  retryAfterS?: number;
}

/** What pool-charge needs of a limiter, whichever kind it is. */
export interface PoolLimiter {
  readonly limit: number;
  readonly windowMs: number;
  consume(key: string, now: number, spend?: boolean): LimitDecision;
  charge(key: string, now: number): void;
}

function seconds(ms: number): number {
  return Math.ceil(ms / 1000);
}

function waitSeconds(fromMs: number, untilMs: number): number {
  return Math.max(1, Math.ceil((untilMs - fromMs) / 1000));
}

export class RollingWindowLimiter implements PoolLimiter {
  readonly #spent = new Map<string, number[]>();
  constructor(
    readonly limit: number,
    readonly windowMs: number,
  ) {}

  #live(key: string, now: number): number[] {
    const all = this.#spent.get(key) ?? [];
    const cutoff = now - this.windowMs;
    let first = 0;
    // A point spent at t is back at exactly t + window: `<=` lets it count as returned then.
    while (first < all.length && all[first]! <= cutoff) first++;
    const live = first === 0 ? all : all.slice(first);
    this.#spent.set(key, live);
    return live;
  }

  #decision(live: number[], now: number, allowed: boolean, comesBack: number): LimitDecision {
    const newest = live[live.length - 1] ?? now;
    const decision: LimitDecision = {
      allowed,
      limit: this.limit,
      remaining: Math.max(0, this.limit - live.length),
      resetS: seconds(comesBack),
      refilledS: seconds(newest + this.windowMs),
    };
    if (!allowed) decision.retryAfterS = waitSeconds(now, comesBack);
    return decision;
  }

  /** Spends one point when one is left; a refused request spends nothing (§8.1 rule 5). */
  consume(key: string, now: number, spend = true): LimitDecision {
    const live = this.#live(key, now);
    if (live.length >= this.limit) {
      // The next request succeeds once enough points aged out to leave one free.
      return this.#decision(live, now, false, live[live.length - this.limit]! + this.windowMs);
    }
    if (spend) live.push(now);
    return this.#decision(live, now, true, (live[0] ?? now) + this.windowMs);
  }

  /**
   * Like consume, but a refused request spends a point too (a legal reading: the spec does not say
   * whether a 429 consumes points). Retry-After then counts the refused points as well.
   */
  consumeChargingRefusals(key: string, now: number): LimitDecision {
    const live = this.#live(key, now);
    if (live.length < this.limit) return this.consume(key, now);
    live.push(now);
    return this.#decision(live, now, false, live[live.length - this.limit]! + this.windowMs);
  }

  /** Spends a point without asking (for defects that charge requests that should be free). */
  charge(key: string, now: number): void {
    this.#live(key, now).push(now);
  }
}

/**
 * A fixed-window counter: every point of a window comes back at the window's end, so a burst at
 * the end of one window and another at the start of the next pass twice the limit within one
 * window's length. Defect only. A key's boundaries fall half a window after its first request:
 * a boundary just after a run's first request would look like a rolling window to it (the
 * register), and a defect must show on every run, not by the phase of the clock.
 */
export class FixedWindowLimiter implements PoolLimiter {
  readonly #counts = new Map<string, { window: number; used: number }>();
  /** Per key, where its windows start within the clock's windows. */
  readonly #phase = new Map<string, number>();
  /**
   * `fromFirstSpend`: the first window opens at the key's first request instead, so every point of
   * it comes back at once, first spend + window (a burst spent at once cannot tell it from a
   * rolling window; points spent later in the window can).
   */
  constructor(
    readonly limit: number,
    readonly windowMs: number,
    readonly fromFirstSpend = false,
  ) {}

  #phaseOf(key: string, now: number): number {
    let phase = this.#phase.get(key);
    if (phase === undefined) {
      phase = (now + (this.fromFirstSpend ? 0 : this.windowMs / 2)) % this.windowMs;
      this.#phase.set(key, phase);
    }
    return phase;
  }

  #entry(key: string, now: number): { window: number; used: number } {
    const window = Math.floor((now - this.#phaseOf(key, now)) / this.windowMs);
    let entry = this.#counts.get(key);
    if (entry === undefined || entry.window !== window) {
      entry = { window, used: 0 };
      this.#counts.set(key, entry);
    }
    return entry;
  }

  consume(key: string, now: number, spend = true): LimitDecision {
    const entry = this.#entry(key, now);
    const end = (entry.window + 1) * this.windowMs + this.#phaseOf(key, now);
    const allowed = entry.used < this.limit;
    if (allowed && spend) entry.used += 1;
    const decision: LimitDecision = { allowed, limit: this.limit, remaining: Math.max(0, this.limit - entry.used), resetS: seconds(end), refilledS: seconds(end) };
    if (!allowed) decision.retryAfterS = waitSeconds(now, end);
    return decision;
  }

  charge(key: string, now: number): void {
    this.#entry(key, now).used += 1;
  }
}

/** A token bucket of the pool's size refilling continuously, limit per window. Defect only. */
export class TokenBucketLimiter implements PoolLimiter {
  readonly #keys = new Map<string, { tokens: number; at: number }>();
  constructor(
    readonly limit: number,
    readonly windowMs: number,
  ) {}

  #entry(key: string, now: number): { tokens: number; at: number } {
    let e = this.#keys.get(key);
    if (e === undefined) {
      e = { tokens: this.limit, at: now };
      this.#keys.set(key, e);
    }
    e.tokens = Math.min(this.limit, e.tokens + ((now - e.at) * this.limit) / this.windowMs);
    e.at = now;
    return e;
  }

  consume(key: string, now: number, spend = true): LimitDecision {
    const e = this.#entry(key, now);
    const allowed = e.tokens >= 1;
    if (allowed && spend) e.tokens -= 1;
    const perPointMs = this.windowMs / this.limit;
    const full = now + (this.limit - e.tokens) * perPointMs;
    const decision: LimitDecision = { allowed, limit: this.limit, remaining: Math.floor(e.tokens), resetS: seconds(full), refilledS: seconds(full) };
    if (!allowed) decision.retryAfterS = waitSeconds(now, now + (1 - e.tokens) * perPointMs);
    return decision;
  }

  charge(key: string, now: number): void {
    this.#entry(key, now).tokens -= 1;
  }
}
