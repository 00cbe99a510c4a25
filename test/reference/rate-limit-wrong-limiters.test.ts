import { describe, expect, test } from 'vitest';
import {
  AllBackAfterLastSpendLimiter,
  BackAfterFirstRefusalLimiter,
  RollingWindowLimiter,
  SlidingWindowCounterLimiter,
  type PoolLimiter,
} from '../../lib/reference/rate-limiter.ts';

const LIMIT = 5;
const WINDOW = 10_000;

/** Spends `count` points at `at`, each served. */
function spend(limiter: PoolLimiter, at: number, count: number): void {
  for (let i = 0; i < count; i++) expect(limiter.consume('k', at).allowed).toBe(true);
}

/** How many requests at `at` are served before the first refusal. */
function servedAt(limiter: PoolLimiter, at: number): number {
  let n = 0;
  while (n <= LIMIT && limiter.consume('k', at).allowed) n += 1;
  return n;
}

/** Two points early, the other three two seconds later, then a refusal. */
function staged(limiter: PoolLimiter): void {
  spend(limiter, 0, 2);
  spend(limiter, 2_000, 3);
  expect(limiter.consume('k', 2_100).allowed).toBe(false);
}

describe('limiters a burst cannot tell from a rolling window', () => {
  test('the rolling window gives back exactly the early points at the first refill', () => {
    const rolling = new RollingWindowLimiter(LIMIT, WINDOW);
    staged(rolling);
    expect(servedAt(rolling, 10_500)).toBe(2);
  });

  test('all back after the last spend: nothing at the first refill, everything a window after the later points', () => {
    const limiter = new AllBackAfterLastSpendLimiter(LIMIT, WINDOW);
    staged(limiter);
    expect(servedAt(limiter, 10_500)).toBe(0);
    expect(servedAt(limiter, 12_000)).toBe(LIMIT);
  });

  test('all back after the first refusal: nothing at the first refill, everything a window after the 429', () => {
    const limiter = new BackAfterFirstRefusalLimiter(LIMIT, WINDOW);
    staged(limiter);
    expect(servedAt(limiter, 12_000)).toBe(0);
    expect(servedAt(limiter, 12_100)).toBe(LIMIT);
  });

  test('the sliding-window counter gives points back a little at a time through the next window, whenever they were spent', () => {
    const limiter = new SlidingWindowCounterLimiter(LIMIT, WINDOW);
    staged(limiter);
    expect(servedAt(limiter, 10_500)).toBe(0);
    // A fifth of the way into the next window a fifth of the previous count has aged out.
    expect(servedAt(limiter, 12_000)).toBe(1);
    const refusal = limiter.consume('k', 12_000);
    expect(refusal.retryAfterS).toBeGreaterThanOrEqual(1);
  });

  test('each says so in its headers: Remaining falls with every point, Retry-After names a later instant', () => {
    for (const limiter of [new AllBackAfterLastSpendLimiter(LIMIT, WINDOW), new BackAfterFirstRefusalLimiter(LIMIT, WINDOW), new SlidingWindowCounterLimiter(LIMIT, WINDOW)]) {
      expect(limiter.consume('k', 0).remaining).toBe(LIMIT - 1);
      spend(limiter, 100, LIMIT - 1);
      const refused = limiter.consume('k', 200);
      expect(refused.allowed).toBe(false);
      expect(refused.remaining).toBe(0);
      expect(refused.retryAfterS).toBeGreaterThan(0);
    }
  });
});
