/**
 * A true rolling-window limiter (§8.1 rule 2: "Pools refill on a 60-second rolling window and are
 * scoped per API token"): each point comes back exactly one window after it was spent.
 */
export interface LimitDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Unix seconds at which the oldest spent point comes back (rounded up). */
  resetS: number;
  /** On refusal: whole seconds until a request will succeed (rounded up, so never too early). */
  retryAfterS?: number;
}

export class RollingWindowLimiter {
  readonly #spent = new Map<string, number[]>();
  constructor(
    readonly limit: number,
    readonly windowMs: number,
  ) {}

  #live(key: string, now: number): number[] {
    const all = this.#spent.get(key) ?? [];
    const cutoff = now - this.windowMs;
    let first = 0;
    while (first < all.length && all[first]! <= cutoff) first++;
    const live = first === 0 ? all : all.slice(first);
    this.#spent.set(key, live);
    return live;
  }

  /** Spends one point when one is left; a refused request spends nothing (§8.1 rule 5). */
  consume(key: string, now: number, spend = true): LimitDecision {
    const live = this.#live(key, now);
    if (live.length >= this.limit) {
      const comesBack = live[0]! + this.windowMs;
      return {
        allowed: false,
        limit: this.limit,
        remaining: 0,
        resetS: Math.ceil(comesBack / 1000),
        retryAfterS: Math.max(1, Math.ceil((comesBack - now) / 1000)),
      };
    }
    if (spend) live.push(now);
    const oldest = live[0] ?? now;
    return {
      allowed: true,
      limit: this.limit,
      remaining: this.limit - live.length,
      resetS: Math.ceil((oldest + this.windowMs) / 1000),
    };
  }

  /** Spends a point without asking (for defects that charge refused requests). */
  charge(key: string, now: number): void {
    this.#live(key, now).push(now);
  }
}
