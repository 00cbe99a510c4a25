import type { Exchange } from '../model/exchange.ts';
import { SLOW_DOWN_FRACTION, type Pool } from '../spec-constants.ts';

/** What the pacer knows of one token's pool, read from the last response's headers (§8.1). */
interface PoolState {
  limit?: number;
  remaining?: number;
  /** Unix ms at which the server says the bucket refills. */
  resetAtMs?: number;
}

/** An unplanned 429 the pacer absorbed: recorded as INFO, never a failure of another requirement. */
export interface UnplannedRateLimit {
  role: string;
  pool: Pool;
  retryAfterS: number | undefined;
  at: string;
  seq: number;
}

export interface PacerOptions {
  /** Longest single wait the pacer accepts from a Retry-After header before it gives up. */
  maxWaitMs: number;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

/**
 * The budget service every paced request passes through: it behaves as the spec recommends a
 * client behave. It tracks each token's pools from the X-RateLimit-* headers, slows down when
 * Remaining falls under 10% of the limit, and on a 429 it did not provoke sleeps Retry-After
 * seconds and lets the client send the same request again.
 */
export class Pacer {
  readonly #state = new Map<string, PoolState>();
  readonly #options: Required<PacerOptions>;
  readonly unplanned: UnplannedRateLimit[] = [];
  waitedMs = 0;

  constructor(options: Partial<PacerOptions> = {}) {
    this.#options = {
      maxWaitMs: options.maxWaitMs ?? 65_000,
      now: options.now ?? Date.now,
      sleep: options.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms))),
    };
  }

  /** Waits, when the pool is nearly spent, long enough to spread what is left until the reset. */
  async before(role: string, pool: Pool): Promise<void> {
    const s = this.#state.get(key(role, pool));
    if (s?.limit === undefined || s.remaining === undefined || s.resetAtMs === undefined) return;
    const untilReset = s.resetAtMs - this.#options.now();
    if (untilReset <= 0) return;
    if (s.remaining > Math.floor(s.limit * SLOW_DOWN_FRACTION)) return;
    const wait = Math.min(this.#options.maxWaitMs, s.remaining <= 0 ? untilReset : untilReset / (s.remaining + 1));
    if (wait <= 0) return;
    this.waitedMs += wait;
    await this.#options.sleep(wait);
    // The next response brings fresh numbers; until then, assume one point came back.
    s.remaining = Math.max(s.remaining, 1);
  }

  /**
   * Learns from a response. Returns the milliseconds to wait before sending the same request
   * again when it was refused with 429, otherwise undefined.
   */
  after(role: string, pool: Pool, exchange: Exchange): number | undefined {
    const res = exchange.response;
    if (res === undefined) return undefined;
    const s = this.#state.get(key(role, pool)) ?? {};
    const limit = intHeader(res.headers['x-ratelimit-limit']);
    const remaining = intHeader(res.headers['x-ratelimit-remaining']);
    const reset = intHeader(res.headers['x-ratelimit-reset']);
    if (limit !== undefined) s.limit = limit;
    if (remaining !== undefined) s.remaining = remaining;
    // A reset in milliseconds or as a delta is a defect the rate-limit suite reports; here the
    // pacer only needs a plausible instant, so it reads seconds and ignores the rest.
    if (reset !== undefined && reset > 1e9 && reset < 1e11) s.resetAtMs = reset * 1000;
    this.#state.set(key(role, pool), s);
    if (res.status !== 429) return undefined;
    const retryAfterS = intHeader(res.headers['retry-after']);
    this.unplanned.push({ role, pool, retryAfterS, at: new Date(this.#options.now()).toISOString(), seq: exchange.seq });
    const wait = Math.min(this.#options.maxWaitMs, Math.max(1, retryAfterS ?? 1) * 1000);
    if (this.unplanned.filter((u) => u.role === role && u.pool === pool).length > 5) return undefined;
    this.waitedMs += wait;
    return wait;
  }
}

function key(role: string, pool: Pool): string {
  return `${role}:${pool}`;
}

function intHeader(value: string | undefined): number | undefined {
  if (value === undefined || !/^\s*\d+\s*$/.test(value)) return undefined;
  return Number(value.trim());
}
