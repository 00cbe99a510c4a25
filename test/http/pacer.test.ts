import { describe, expect, test } from 'vitest';
import { PER_IP_ROLE, Pacer, pacingPoolOf, windowPacing, type PacerOptions } from '../../lib/http/pacer.ts';
import type { Exchange } from '../../lib/model/exchange.ts';

let seq = 0;

function answer(status: number, headers: Record<string, string>): Exchange {
  return {
    seq: ++seq,
    startedAt: new Date(0).toISOString(),
    request: { method: 'GET', url: 'http://t.invalid/v1/me', headers: {}, tokenRole: 'primary' },
    response: { status, headers, body: '', bodyBytes: 0, truncated: false },
    timings: { totalMs: 1 },
  };
}

function pool(limit: number, remaining: number, resetS: number): Record<string, string> {
  return { 'x-ratelimit-pool': 'read', 'x-ratelimit-limit': String(limit), 'x-ratelimit-remaining': String(remaining), 'x-ratelimit-reset': String(resetS) };
}

/** A pacer on a hand-moved clock whose sleeps only move the clock. */
function fakePacer(options: Partial<PacerOptions> = {}): { pacer: Pacer; clock: { now: number }; sleeps: number[] } {
  const clock = { now: 1_800_000_000_000 };
  const sleeps: number[] = [];
  const pacer = new Pacer({
    ...options,
    now: () => clock.now,
    sleep: async (ms) => {
      sleeps.push(ms);
      clock.now += ms;
    },
  });
  return { pacer, clock, sleeps };
}

const RESET_IN_10S = (clock: { now: number }): number => (clock.now + 10_000) / 1000;

describe('Pacer: slowing down as §8.1 recommends', () => {
  test('knowing nothing yet, it lets requests go at once', async () => {
    const { pacer, sleeps } = fakePacer();
    await pacer.before('primary', 'read');
    expect(sleeps).toEqual([]);
  });

  test('with 10% or more left it does not wait', async () => {
    const { pacer, clock, sleeps } = fakePacer();
    pacer.before('primary', 'read');
    pacer.after('primary', 'read', answer(200, pool(600, 61, RESET_IN_10S(clock))));
    await pacer.before('primary', 'read');
    expect(sleeps).toEqual([]);
  });

  test('under 10% it spreads what is left until the reset', async () => {
    const { pacer, clock, sleeps } = fakePacer();
    await pacer.before('primary', 'read');
    pacer.after('primary', 'read', answer(200, pool(600, 9, RESET_IN_10S(clock))));
    await pacer.before('primary', 'read');
    expect(sleeps).toEqual([1000]);
    expect(pacer.stats().byReason['slow-down']).toBe(1000);
  });

  test('requests in flight count as spent, so a concurrent burst slows down at the threshold', async () => {
    const { pacer, clock, sleeps } = fakePacer();
    await pacer.before('primary', 'read');
    pacer.after('primary', 'read', answer(200, pool(100, 11, RESET_IN_10S(clock))));
    await Promise.all([pacer.before('primary', 'read'), pacer.before('primary', 'read')]);
    // 11 left: the first goes at once, the second finds 11 − 1 in flight = 10, still 10%.
    expect(sleeps).toEqual([]);
    await pacer.before('primary', 'read');
    // 11 − 2 in flight = 9 < 10: wait (reset − now) / 10.
    expect(sleeps).toEqual([1000]);
  });

  test('with nothing left it waits for the reset, then lets one request learn the new numbers', async () => {
    const { pacer, clock, sleeps } = fakePacer();
    await pacer.before('primary', 'read');
    pacer.after('primary', 'read', answer(200, pool(10, 0, RESET_IN_10S(clock))));
    await pacer.before('primary', 'read');
    expect(sleeps).toEqual([10_050]);
    let second = false;
    const next = pacer.before('primary', 'read').then(() => {
      second = true;
    });
    await new Promise((r) => setTimeout(r, 20));
    expect(second).toBe(false);
    pacer.after('primary', 'read', answer(200, pool(10, 9, RESET_IN_10S(clock))));
    await next;
    expect(second).toBe(true);
  });

  test('admission is first come, first served', async () => {
    const { pacer, clock } = fakePacer();
    await pacer.before('primary', 'read');
    pacer.after('primary', 'read', answer(200, pool(100, 5, RESET_IN_10S(clock))));
    const order: number[] = [];
    await Promise.all([1, 2, 3].map((n) => pacer.before('primary', 'read').then(() => order.push(n))));
    expect(order).toEqual([1, 2, 3]);
  });

  test('pools are kept per role and pool', async () => {
    const { pacer, clock, sleeps } = fakePacer();
    await pacer.before('secondary', 'read');
    pacer.after('secondary', 'read', answer(200, pool(10, 0, RESET_IN_10S(clock))));
    await pacer.before('primary', 'read');
    await pacer.before('secondary', 'write');
    expect(sleeps).toEqual([]);
  });
});

describe('Pacer: 429s it did not provoke', () => {
  test('it waits Retry-After, records the 429, and adds a backoff multiplier when they repeat', () => {
    const { pacer } = fakePacer();
    const refused = answer(429, { 'retry-after': '3' });
    expect(pacer.after('primary', 'read', refused)).toBe(3000);
    expect(pacer.after('primary', 'read', refused)).toBe(6000);
    expect(pacer.after('primary', 'read', refused)).toBe(12_000);
    expect(pacer.unplanned.map((u) => u.retryAfterS)).toEqual([3, 3, 3]);
    expect(pacer.unplanned[0]?.exchange).toEqual(refused);
    expect(pacer.stats()).toMatchObject({ unplanned: 3, byReason: { 'retry-after': 21_000 } });
  });

  test('a served request ends the run of 429s', () => {
    const { pacer } = fakePacer();
    const refused = answer(429, { 'retry-after': '2' });
    pacer.after('primary', 'read', refused);
    pacer.after('primary', 'read', answer(200, {}));
    expect(pacer.after('primary', 'read', refused)).toBe(2000);
  });

  test('after too many in a row it hands the 429 to the caller', () => {
    const { pacer } = fakePacer();
    const refused = answer(429, { 'retry-after': '1' });
    const waits = Array.from({ length: 6 }, () => pacer.after('primary', 'read', refused));
    expect(waits.slice(0, 5).every((w) => typeof w === 'number')).toBe(true);
    expect(waits[5]).toBeUndefined();
  });

  test('refused twice while its own headers show points left, the 429 goes to the caller: waiting on that pool cannot help', () => {
    const { pacer, clock } = fakePacer();
    const refused = answer(429, { ...pool(60, 12, RESET_IN_10S(clock)), 'retry-after': '1' });
    expect(pacer.after('primary', 'write', refused)).toBe(1000);
    expect(pacer.after('primary', 'write', refused)).toBeUndefined();
    expect(pacer.disbelieved).toMatchObject([{ role: 'primary', pool: 'write', header: 'x-ratelimit-remaining', value: '12' }]);
  });

  test('without a usable Retry-After it waits a second', () => {
    const { pacer } = fakePacer();
    expect(pacer.after('primary', 'read', answer(429, { 'retry-after': 'Wed, 21 Oct 2015 07:28:00 GMT' }))).toBe(1000);
  });

  test('a provoked 429 (unpaced) teaches the pool state without being recorded', async () => {
    const { pacer, clock, sleeps } = fakePacer();
    const seen: number[] = [];
    pacer.watch((_r, _p, e) => seen.push(e.response?.status ?? 0));
    pacer.observe('secondary', 'read', answer(429, { ...pool(10, 0, RESET_IN_10S(clock)), 'retry-after': '10' }));
    expect(pacer.unplanned).toEqual([]);
    expect(seen).toEqual([429]);
    await pacer.before('secondary', 'read');
    expect(sleeps).toEqual([10_050]);
  });

  test('a Reset that is not Unix seconds is ignored, and the spec window is assumed once', async () => {
    const { pacer, clock, sleeps } = fakePacer();
    pacer.observe('primary', 'read', answer(200, pool(10, 0, clock.now + 10_000)));
    await pacer.before('primary', 'read');
    expect(sleeps).toEqual([60_050]);
  });

  test('noteWait adds a suite\'s waiting to the total, and says so when no request follows it', () => {
    const said: number[] = [];
    const pacer: Pacer = new Pacer({ onWaited: () => said.push(pacer.stats().waitedMs) });
    pacer.noteWait('recovery', 1234);
    expect(pacer.stats()).toMatchObject({ waitedMs: 1234, byReason: { recovery: 1234 } });
    expect(said).toEqual([1234]);
  });
});

describe('Pacer: the per-IP limiter of the unauthenticated routes (§4.2)', () => {
  test('the unauthenticated routes are paced on the per-IP pool, whatever token comes along', () => {
    expect(pacingPoolOf('/health', 'primary', 'read')).toEqual({ role: PER_IP_ROLE, pool: 'read' });
    expect(pacingPoolOf('/openapi.yaml', undefined, 'read')).toEqual({ role: PER_IP_ROLE, pool: 'read' });
    expect(pacingPoolOf('/me', 'primary', 'read')).toEqual({ role: 'primary', pool: 'read' });
    expect(pacingPoolOf('/me', undefined, 'read')).toBeUndefined();
  });

  test('its 429 is absorbed apart: not an unplanned 429 of a token, and no token pool learns from it', () => {
    const { pacer } = fakePacer();
    expect(pacer.after(PER_IP_ROLE, 'read', answer(429, { 'retry-after': '57' }))).toBe(57_000);
    expect(pacer.unplanned).toEqual([]);
    expect(pacer.perIpRefusals.map((r) => r.retryAfterS)).toEqual([57]);
    expect(pacer.snapshot('primary', 'read')).toEqual({ inFlight: 0 });
  });

  test('known only from a 429 without headers, it holds the next request until that 429 said, then lets one go', async () => {
    const { pacer, sleeps } = fakePacer();
    await pacer.before(PER_IP_ROLE, 'read');
    pacer.after(PER_IP_ROLE, 'read', answer(429, { 'retry-after': '5' }));
    await pacer.before(PER_IP_ROLE, 'read');
    expect(sleeps).toEqual([5_050]);
    pacer.after(PER_IP_ROLE, 'read', answer(200, {}));
    await pacer.before(PER_IP_ROLE, 'read');
    expect(sleeps).toEqual([5_050]);
  });
});

describe('Pacer: a target whose word cannot be true (issue 9: bounded waits)', () => {
  const window = windowPacing(60);

  test('a Reset beyond the window and its margin is disbelieved: the window is assumed instead', async () => {
    const { pacer, sleeps } = fakePacer(window);
    pacer.observe('primary', 'read', answer(200, pool(600, 0, 99_999_999_999)));
    await pacer.before('primary', 'read');
    expect(sleeps).toEqual([60_050]);
    expect(pacer.disbelieved).toMatchObject([{ role: 'primary', pool: 'read', header: 'x-ratelimit-reset', value: '99999999999', times: 1 }]);
  });

  test('a Reset a minute ahead of a clock that runs ahead of ours is believed (the Date header places it)', async () => {
    const { pacer, clock, sleeps } = fakePacer(window);
    const skew = 30_000;
    const reset = (clock.now + skew + 60_000) / 1000;
    pacer.observe('primary', 'read', answer(200, { ...pool(600, 0, reset), date: new Date(clock.now + skew).toUTCString() }));
    await pacer.before('primary', 'read');
    expect(pacer.disbelieved).toEqual([]);
    expect(sleeps).toEqual([60_050]);
  });

  test('Remaining 0 on every answer with an absurd Reset costs one window, not one per request', async () => {
    const { pacer, sleeps } = fakePacer(window);
    const stuck = answer(200, pool(600, 0, 99_999_999_999));
    for (let i = 0; i < 5; i += 1) {
      await pacer.before('primary', 'read');
      pacer.after('primary', 'read', stuck);
    }
    expect(sleeps).toEqual([60_050]);
    expect(pacer.disbelieved.map((c) => [c.header, c.times])).toEqual([
      ['x-ratelimit-reset', 5],
      ['x-ratelimit-remaining', 1],
    ]);
  });

  test('Remaining 0 with a believable Reset always a window away costs one window, not one per request', async () => {
    const { pacer, clock, sleeps } = fakePacer(window);
    for (let i = 0; i < 20; i += 1) {
      await pacer.before('primary', 'read');
      pacer.after('primary', 'read', answer(200, pool(600, 0, Math.ceil((clock.now + 60_000) / 1000))));
    }
    const waited = sleeps.reduce((a, b) => a + b, 0);
    expect(waited).toBeGreaterThanOrEqual(60_000);
    expect(waited).toBeLessThan(2 * 60_000);
    expect(pacer.disbelieved.map((c) => c.header)).toEqual(['x-ratelimit-remaining']);
  });

  test('Remaining stuck at 1 with a Reset a window away costs about one window too', async () => {
    const { pacer, clock, sleeps } = fakePacer(window);
    for (let i = 0; i < 20; i += 1) {
      await pacer.before('primary', 'read');
      pacer.after('primary', 'read', answer(200, pool(600, 1, Math.ceil((clock.now + 60_000) / 1000))));
    }
    expect(sleeps.reduce((a, b) => a + b, 0)).toBeLessThan(2 * 60_000);
  });

  test('a pool kept low by the harness\'s own requests is believed, however long it is paced', async () => {
    // A rolling window of 30 points that the requests themselves keep spending as fast as they are
    // let go: each answer shows the points spent within the last window, under 10% again and again.
    const { pacer, clock, sleeps } = fakePacer(windowPacing(4));
    const sent: number[] = [];
    for (let i = 0; i < 200; i += 1) {
      await pacer.before('primary', 'read');
      sent.push(clock.now);
      const spent = sent.filter((t) => t > clock.now - 4_000).length;
      const oldest = sent.find((t) => t > clock.now - 4_000)!;
      pacer.after('primary', 'read', answer(200, pool(30, Math.max(0, 30 - spent), Math.ceil((oldest + 4_000) / 1000))));
    }
    expect(sleeps.reduce((a, b) => a + b, 0)).toBeGreaterThan(4 * 4_000);
    expect(pacer.disbelieved).toEqual([]);
  });

  test('a Retry-After of an hour is waited at most the window and its margin, once', () => {
    const { pacer } = fakePacer(window);
    const refused = answer(429, { 'retry-after': '3600' });
    expect(pacer.after('primary', 'read', refused)).toBe(65_000);
    // Refused again after a whole window: waiting does not help, the caller gets the 429.
    expect(pacer.after('primary', 'read', refused)).toBeUndefined();
    expect(pacer.after('primary', 'read', refused)).toBeUndefined();
    expect(pacer.disbelieved).toMatchObject([{ header: 'retry-after', value: '3600', times: 3 }]);
    expect(pacer.stats().byReason['retry-after']).toBe(65_000);
    // A served answer ends the storm: the next 429 is honoured again.
    pacer.after('primary', 'read', answer(200, {}));
    expect(pacer.after('primary', 'read', answer(429, { 'retry-after': '2' }))).toBe(2000);
  });

  test('once its retries are spent on a pool, later 429s there go to the caller without waiting', async () => {
    const { pacer, clock, sleeps } = fakePacer(window);
    const refused = answer(429, { ...pool(600, 0, (clock.now + 30_000) / 1000), 'retry-after': '1' });
    for (let i = 0; i < 5; i += 1) expect(pacer.after('primary', 'read', refused)).toBeTypeOf('number');
    expect(pacer.after('primary', 'read', refused)).toBeUndefined();
    expect(pacer.after('primary', 'read', refused)).toBeUndefined();
    await pacer.before('primary', 'read');
    expect(sleeps).toEqual([]);
  });

  test('windowPacing: the longest wait is the window plus the margin', () => {
    expect(windowPacing(2)).toEqual({ maxWaitMs: 7_000, fallbackWindowMs: 2_000 });
  });
});
