import { describe, expect, test } from 'vitest';
import { limitEnforcedFinding, perTokenFinding, remainingCountsDownFinding, rollingWindowFinding, separatePoolsFinding } from '../../lib/checks/rate-limit-counting.ts';
import { exchange, poolHeaders, RESET, refused, served } from './rate-limit-fixtures.ts';

const ID = 'ratelimit/8.1/remaining-counts-down';

describe('remainingCountsDownFinding', () => {
  test('599, 598, 597: pass', () => {
    expect(remainingCountsDownFinding(ID, [served(599, 0), served(598, 10), served(597, 20)], 600, 60_000).verdict).toBe('pass');
  });

  test('stuck on a fresh pool: fail', () => {
    const f = remainingCountsDownFinding(ID, [served(599, 0), served(599, 10)], 600, 60_000);
    expect(f.verdict).toBe('fail');
    expect(f.actual).toMatch(/fresh/);
  });

  test('stuck on a pool that was not fresh: points may have come back, inconclusive', () => {
    expect(remainingCountsDownFinding(ID, [served(300, 0), served(300, 10)], 600, 60_000).verdict).toBe('inconclusive');
  });

  test('Remaining equal to the Limit on a served request: fail, not a pool that was not fresh', () => {
    const f = remainingCountsDownFinding(ID, [served(600, 0), served(600, 10)], 600, 60_000);
    expect(f.verdict).toBe('fail');
    expect(f.actual).toMatch(/^600 on /);
  });

  test('a drop of two is always wrong', () => {
    expect(remainingCountsDownFinding(ID, [served(300, 0), served(298, 10)], 600, 60_000).verdict).toBe('fail');
  });

  test('a Remaining that is not an integer fails', () => {
    const f = remainingCountsDownFinding(ID, [served(599, 0), served(598, 10, { headers: { 'x-ratelimit-remaining': '597.5' } })], 600, 60_000);
    expect(f).toMatchObject({ verdict: 'fail', expected: 'X-RateLimit-Remaining an integer' });
  });
});

describe('limitEnforcedFinding', () => {
  const LIMIT = 5;
  const fresh = (n: number): ReturnType<typeof served>[] => Array.from({ length: n }, (_v, i) => served(LIMIT - 1 - i, i * 10, { headers: { 'x-ratelimit-limit': String(LIMIT) } }));

  test('exactly the limit served, then 429: pass', () => {
    expect(limitEnforcedFinding('ratelimit/8.1/limit-enforced', [...fresh(5), refused(60)], LIMIT, 60_000, 'read').verdict).toBe('pass');
  });

  test('one more served than the limit within a window: fail', () => {
    const f = limitEnforcedFinding('ratelimit/8.1/limit-enforced', [...fresh(5), served(0, 55), refused(60)], LIMIT, 60_000, 'read');
    expect(f.verdict).toBe('fail');
    expect(f.actual).toMatch(/^6 requests served/);
  });

  // A job or agent that does not exist may be looked up before the limiter (no point) or after it (one).
  const missingJob = (at: number): ReturnType<typeof exchange> => exchange(404, { at, path: '/message-jobs/job_never_issued', body: { error: { code: 'not_found' } } });

  test('a 404 of an id that does not exist beside the limit: it may have spent nothing, pass', () => {
    const f = limitEnforcedFinding('ratelimit/8.1/limit-enforced', [...fresh(5), missingJob(55), refused(60)], LIMIT, 60_000, 'read');
    expect(f.verdict).toBe('pass');
    expect(rollingWindowFinding('ratelimit/8.1/rolling-window', [...fresh(5), missingJob(55)], LIMIT, 60_000, 'read').verdict).toBe('pass');
  });

  test('a 404 that may have spent the last point before a 429: pass; without it, refused early', () => {
    expect(limitEnforcedFinding('ratelimit/8.1/limit-enforced', [...fresh(4), missingJob(45), refused(60)], LIMIT, 60_000, 'read').verdict).toBe('pass');
    expect(limitEnforcedFinding('ratelimit/8.1/limit-enforced', [...fresh(4), refused(60)], LIMIT, 60_000, 'read').verdict).toBe('fail');
  });

  test('refused early: fail', () => {
    expect(limitEnforcedFinding('ratelimit/8.1/limit-enforced', [...fresh(3), refused(40)], LIMIT, 60_000, 'read').verdict).toBe('fail');
  });

  // A spend longer than a window (a far target, a big pool): the first points are back before the pool runs out.
  const slow = (at: readonly number[]): ReturnType<typeof served>[] => at.map((t, i) => served(Math.max(0, LIMIT - 1 - i), t, { headers: { 'x-ratelimit-limit': String(LIMIT) } }));

  test('more served over more than a window, never more than the limit within one: pass, judged window by window', () => {
    const f = limitEnforcedFinding('ratelimit/8.1/limit-enforced', [...slow([0, 20_000, 40_000, 50_000, 55_000, 61_000]), refused(62_000)], LIMIT, 60_000, 'read');
    expect(f.verdict).toBe('pass');
    expect(f.note).toMatch(/^6 served over 62005 ms, more than a window: 5 before the first 429/);
  });

  test('one more than the limit within the window before the 429 of a long spend: fail', () => {
    const f = limitEnforcedFinding('ratelimit/8.1/limit-enforced', [...slow([0, 20_000, 40_000, 50_000, 55_000, 61_000, 61_500]), refused(62_000)], LIMIT, 60_000, 'read');
    expect(f.verdict).toBe('fail');
    expect(f.actual).toMatch(/^6 requests served within 41505 ms \(7 over 62005 ms in all\) before the first 429/);
  });

  test('refused with fewer than the limit served within its window, after a pool at rest: fail', () => {
    const f = limitEnforcedFinding('ratelimit/8.1/limit-enforced', [...fresh(5), served(0, 70_000), refused(70_010)], LIMIT, 60_000, 'read');
    expect(f.verdict).toBe('fail');
    expect(f.actual).toBe('429 after only 1 served requests within the window before it (6 in all)');
  });

  test('never refused, the points coming back as fast as they were spent: inconclusive, saying how many were in flight', () => {
    const f = limitEnforcedFinding('ratelimit/8.1/limit-enforced', slow([0, 1_000, 2_000, 3_000, 4_000, 5_000, 6_000]), LIMIT, 5_000, 'read', { inFlight: 4 });
    expect(f.verdict).toBe('inconclusive');
    expect(f.note).toBe('the pool was not exhausted: 7 served over 6005 ms (about 1.2 a second, against 1.0 a second given back, 4 requests in flight)');
  });

  test('a pool that was not fresh: inconclusive', () => {
    expect(limitEnforcedFinding('ratelimit/8.1/limit-enforced', [served(2), refused(10)], LIMIT, 60_000, 'read').verdict).toBe('inconclusive');
  });

  test('a first served answer with Remaining equal to the Limit: fail, its own point was not counted', () => {
    const full = served(LIMIT, 0, { headers: { 'x-ratelimit-limit': String(LIMIT) } });
    const f = limitEnforcedFinding('ratelimit/8.1/limit-enforced', [full, refused(10)], LIMIT, 60_000, 'read');
    expect(f.verdict).toBe('fail');
    expect(f.actual).toMatch(/spent no point/);
  });

  test('a pool that did not heal while the harness waited: inconclusive, saying how long it waited', () => {
    const f = limitEnforcedFinding('ratelimit/8.1/limit-enforced', [served(2), refused(10)], LIMIT, 60_000, 'read', { healWaitedMs: 130_400 });
    expect(f.note).toMatch(/not fresh .* it did not heal over 130 s of waiting/);
  });
});

describe('rollingWindowFinding', () => {
  test('the limit within a window, more only once the first requests aged out: pass', () => {
    const burst = [served(1, 0), served(0, 10), refused(20)];
    const later = [served(0, 60_020), served(0, 60_030)];
    expect(rollingWindowFinding('ratelimit/8.1/rolling-window', [...burst, ...later], 2, 60_000, 'read').verdict).toBe('pass');
  });

  test('points back at a clock boundary before the window has passed: fail', () => {
    const f = rollingWindowFinding('ratelimit/8.1/rolling-window', [served(1, 0), served(0, 10), refused(20), served(1, 30_000)], 2, 60_000, 'read');
    expect(f.verdict).toBe('fail');
    expect(f.actual).toMatch(/^3 served within/);
  });

  test('a request whose timing straddles the window edge is not counted against it', () => {
    // Sent 59.999 s after the first was sent, answered 10 ms later: its handling may lie past the window.
    const ex = [served(1, 0, { ms: 20 }), served(0, 15, { ms: 5 }), served(0, 59_999, { ms: 10 })];
    expect(rollingWindowFinding('ratelimit/8.1/rolling-window', ex, 2, 60_000, 'read').verdict).toBe('pass');
  });
});

describe('perTokenFinding and separatePoolsFinding', () => {
  const primary = (remaining: number, at: number) => served(remaining, at, { role: 'primary' });

  test('the primary keeps its budget: pass', () => {
    expect(perTokenFinding('ratelimit/5.5/per-token', primary(599, 0), refused(500), primary(598, 600)).verdict).toBe('pass');
  });

  test('the primary refused once the secondary is exhausted: fail', () => {
    const after = refused(600, '60', { role: 'primary' });
    expect(perTokenFinding('ratelimit/5.5/per-token', primary(599, 0), refused(500), after).verdict).toBe('fail');
  });

  test('the primary lost points to the secondary: fail', () => {
    expect(perTokenFinding('ratelimit/5.5/per-token', primary(599, 0), refused(500), primary(3, 600)).verdict).toBe('fail');
  });

  test('a POST refused right after the read pool ran out: fail', () => {
    const post = exchange(429, { method: 'POST', headers: poolHeaders('write', 60, 0, RESET) });
    expect(separatePoolsFinding('ratelimit/8.1/separate-pools', refused(), post).verdict).toBe('fail');
    const ok = exchange(200, { method: 'POST', headers: poolHeaders('write', 60, 59, RESET) });
    expect(separatePoolsFinding('ratelimit/8.1/separate-pools', refused(), ok).verdict).toBe('pass');
  });

  test('a refused POST says what the write pool said of itself just before it: no point left a point early, or points left', () => {
    const post = exchange(429, { method: 'POST', headers: poolHeaders('write', 60, 0, RESET) });
    const lastPoint = exchange(200, { method: 'POST', headers: poolHeaders('write', 60, 0, RESET) });
    const early = separatePoolsFinding('ratelimit/8.1/separate-pools', refused(), post, [lastPoint]);
    expect(early.verdict).toBe('fail');
    expect(early.actual).toMatch(/; the write pool had said Remaining 0 before it, a point early by this token's writes: it counted other requests too/);
    const pointLeft = exchange(200, { method: 'POST', headers: poolHeaders('write', 60, 1, RESET) });
    const failed = separatePoolsFinding('ratelimit/8.1/separate-pools', refused(), post, [pointLeft]);
    expect(failed.verdict).toBe('fail');
    expect(failed.actual).toBe(`the POST was refused (429, X-RateLimit-Pool "write") right after the read pool ran out, though the write pool's answers just before it said Remaining 1 at the lowest`);
  });
});
