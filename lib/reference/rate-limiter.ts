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

/**
 * Every point comes back at once, one window after the last point spent: a window restarted by
 * each served request. Defect only. A burst spent at once cannot tell it from a rolling window
 * (its last point is its every point); a spend staged in two parts can, since the early points
 * stay out until a window after the later ones.
 */
export class AllBackAfterLastSpendLimiter implements PoolLimiter {
  readonly #keys = new Map<string, { used: number; lastMs: number }>();
  constructor(
    readonly limit: number,
    readonly windowMs: number,
  ) {}

  #entry(key: string, now: number): { used: number; lastMs: number } {
    let e = this.#keys.get(key);
    if (e === undefined) {
      e = { used: 0, lastMs: now };
      this.#keys.set(key, e);
    }
    if (e.used > 0 && now - e.lastMs >= this.windowMs) e.used = 0;
    return e;
  }

  consume(key: string, now: number, spend = true): LimitDecision {
    const e = this.#entry(key, now);
    const allowed = e.used < this.limit;
    if (allowed && spend) {
      e.used += 1;
      e.lastMs = now;
    }
    const back = e.lastMs + this.windowMs;
    const decision: LimitDecision = { allowed, limit: this.limit, remaining: Math.max(0, this.limit - e.used), resetS: seconds(back), refilledS: seconds(back) };
    if (!allowed) decision.retryAfterS = waitSeconds(now, back);
    return decision;
  }

  charge(key: string, now: number): void {
    const e = this.#entry(key, now);
    e.used += 1;
    e.lastMs = now;
  }
}

/**
 * The common sliding-window approximation: fixed windows (opening at the key's first request), the
 * previous window's count weighted by how much of it the rolling window still overlaps, plus the
 * current window's count. Defect only. After a burst spent at once the points trickle back through
 * the next window (later than a rolling window gives them); after a staged spend, points the
 * burst spent come back with the early ones, before a rolling window would give them.
 */
export class SlidingWindowCounterLimiter implements PoolLimiter {
  readonly #keys = new Map<string, { startMs: number; previous: number; current: number }>();
  constructor(
    readonly limit: number,
    readonly windowMs: number,
  ) {}

  #entry(key: string, now: number): { startMs: number; previous: number; current: number } {
    let e = this.#keys.get(key);
    if (e === undefined) {
      e = { startMs: now, previous: 0, current: 0 };
      this.#keys.set(key, e);
    }
    const passed = Math.floor((now - e.startMs) / this.windowMs);
    if (passed > 0) {
      e.previous = passed === 1 ? e.current : 0;
      e.current = 0;
      e.startMs += passed * this.windowMs;
    }
    return e;
  }

  /** The estimate of points in use at `now`: the previous window's count by its overlap, and the current one's. */
  #estimate(e: { startMs: number; previous: number; current: number }, now: number): number {
    return e.previous * (1 - (now - e.startMs) / this.windowMs) + e.current;
  }

  consume(key: string, now: number, spend = true): LimitDecision {
    const e = this.#entry(key, now);
    const allowed = this.#estimate(e, now) + 1 <= this.limit;
    if (allowed && spend) e.current += 1;
    const estimate = this.#estimate(e, now);
    const end = e.startMs + this.windowMs;
    const decision: LimitDecision = { allowed, limit: this.limit, remaining: Math.max(0, Math.floor(this.limit - estimate)), resetS: seconds(end), refilledS: seconds(end) };
    if (!allowed) {
      // One point free once the previous window's weight has fallen by what is over; at the
      // window's end at the latest (the current count alone is then the previous one).
      const over = estimate + 1 - this.limit;
      const freeAt = e.previous > 0 && over <= e.previous * (1 - (now - e.startMs) / this.windowMs) ? now + (over / e.previous) * this.windowMs : end;
      decision.retryAfterS = waitSeconds(now, freeAt);
    }
    return decision;
  }

  charge(key: string, now: number): void {
    this.#entry(key, now).current += 1;
  }
}

/**
 * Every point comes back at once, one window after the first refusal: the window opened at the
 * key's first spend is stretched to a window after the first 429. Defect only. A burst spent at
 * once is refused a moment after its first point, so the two ends are close; a spend staged in
 * two parts keeps the early points out until well after a rolling window gives them back.
 */
export class BackAfterFirstRefusalLimiter implements PoolLimiter {
  readonly #keys = new Map<string, { used: number; endMs?: number; stretched: boolean }>();
  constructor(
    readonly limit: number,
    readonly windowMs: number,
  ) {}

  #entry(key: string, now: number): { used: number; endMs?: number; stretched: boolean } {
    let e = this.#keys.get(key);
    if (e === undefined) {
      e = { used: 0, stretched: false };
      this.#keys.set(key, e);
    }
    if (e.endMs !== undefined && now >= e.endMs) {
      e.used = 0;
      delete e.endMs;
      e.stretched = false;
    }
    return e;
  }

  consume(key: string, now: number, spend = true): LimitDecision {
    const e = this.#entry(key, now);
    const allowed = e.used < this.limit;
    if (allowed && spend) {
      e.used += 1;
      e.endMs ??= now + this.windowMs;
    }
    if (!allowed && !e.stretched) {
      e.endMs = now + this.windowMs;
      e.stretched = true;
    }
    const end = e.endMs ?? now + this.windowMs;
    const decision: LimitDecision = { allowed, limit: this.limit, remaining: Math.max(0, this.limit - e.used), resetS: seconds(end), refilledS: seconds(end) };
    if (!allowed) decision.retryAfterS = waitSeconds(now, end);
    return decision;
  }

  charge(key: string, now: number): void {
    const e = this.#entry(key, now);
    e.used += 1;
    e.endMs ??= now + this.windowMs;
  }
}
