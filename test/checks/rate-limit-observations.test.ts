import { describe, expect, test } from 'vitest';
import { failClosedFinding, limiterDownFinding, limiterRecoversFinding } from '../../lib/checks/rate-limit-limiter-down.ts';
import { refusedChargeFinding, unplannedRefusalsFinding } from '../../lib/checks/rate-limit-observations.ts';
import { exchange, refused, served } from './rate-limit-fixtures.ts';

const storeDown = () => exchange(503, { role: 'primary', body: { error: { code: 'system.rate_limit_unavailable', category: 'transient', message: 'm', request_id: 'r' } } });

describe('the limiter-down drill', () => {
  test('503 system.rate_limit_unavailable transient on every request: pass', () => {
    expect(limiterDownFinding('ratelimit/7/limiter-down-503', [storeDown(), storeDown()]).verdict).toBe('pass');
  });

  test('a 500 instead: fail', () => {
    const internal = exchange(500, { body: { error: { code: 'system.internal', category: 'transient', message: 'm', request_id: 'r' } } });
    expect(limiterDownFinding('ratelimit/7/limiter-down-503', [storeDown(), internal]).verdict).toBe('fail');
  });

  test('every request that was not the store-down 503 is named and kept as evidence', () => {
    const internal = exchange(500, { body: { error: { code: 'system.internal', category: 'transient', message: 'm', request_id: 'r' } } });
    const f = limiterDownFinding('ratelimit/7/limiter-down-503', [storeDown(), internal, served(5), storeDown()]);
    expect(f.verdict).toBe('fail');
    expect(f.exchanges).toEqual([internal, expect.objectContaining({ response: expect.objectContaining({ status: 200 }) })]);
    expect(f.actual).toMatch(/→ 500: .*\(and 1 more: .*→ 200\)$/);
  });

  test('a request served during the fault: the limiter failed open', () => {
    const f = failClosedFinding('ratelimit/7/limiter-down-fail-closed', [storeDown(), served(5)]);
    expect(f.verdict).toBe('fail');
    expect(f.actual).toMatch(/failed open/);
  });

  const count = (rows: number, atMs: number) => ({ ok: true as const, rows, pages: [], startedMs: atMs, endedMs: atMs + 50 });

  test('a ledger row from the POST sent during the fault on a quiet ledger: fail', () => {
    const rows = { before: count(3, 0), after: count(4, 600) };
    expect(failClosedFinding('ratelimit/7/limiter-down-fail-closed', [storeDown()], rows).verdict).toBe('fail');
  });

  test('rows within what other clients add meanwhile: pass; far beyond: fail', () => {
    const background = { rows: 20, spanMs: 2_000 };
    const within = failClosedFinding('ratelimit/7/limiter-down-fail-closed', [storeDown()], { before: count(3, 0), after: count(10, 600), background });
    expect(within).toMatchObject({ verdict: 'pass' });
    expect(within.note).toMatch(/grew by 7 rows, within the 21 /);
    const beyond = failClosedFinding('ratelimit/7/limiter-down-fail-closed', [storeDown()], { before: count(3, 0), after: count(40, 600), background });
    expect(beyond.verdict).toBe('fail');
  });

  test('still 503 once the store is back: fail', () => {
    expect(limiterRecoversFinding('ratelimit/7/limiter-down-recovers', [storeDown()]).verdict).toBe('fail');
    expect(limiterRecoversFinding('ratelimit/7/limiter-down-recovers', [served(5)]).verdict).toBe('pass');
  });
});

describe('INFO observations', () => {
  test('no unplanned 429: pass, saying so', () => {
    expect(unplannedRefusalsFinding('ratelimit/8.1/unplanned-429', [])).toMatchObject({ verdict: 'pass', note: '0 unplanned 429s' });
    expect(unplannedRefusalsFinding('ratelimit/8.1/unplanned-429', [], undefined, 2)).toMatchObject({
      verdict: 'pass',
      note: '0 unplanned 429s; 2 429s of the per-IP limiter of the unauthenticated routes, waited out (legal)',
    });
  });

  test('unplanned 429s are listed by role and pool', () => {
    const f = unplannedRefusalsFinding('ratelimit/8.1/unplanned-429', [{ role: 'primary', pool: 'read', retryAfterS: 3, exchange: refused() }]);
    expect(f).toMatchObject({ verdict: 'fail', note: '1 unplanned 429s' });
    expect(f.actual).toMatch(/1 on primary\/read/);
  });

  test('whether refused requests consume points, read from Remaining after the window', () => {
    // Burst long ago, then a refusal 5 s before the last request and one served probe.
    const history = [served(0, 0), refused(100), refused(55_000, '5'), served(8, 60_200)];
    const free = served(598, 70_000);
    expect(refusedChargeFinding('ratelimit/8.1/refused-consumes-points', history, free, 600, 60_000).note).toMatch(/^refused requests consume no points/);
    const charged = served(597, 70_000);
    expect(refusedChargeFinding('ratelimit/8.1/refused-consumes-points', history, charged, 600, 60_000).note).toMatch(/^refused requests consume a point each/);
  });

  test('a request on the window\'s edge leaves it undetermined', () => {
    const history = [served(0, 10_000, { ms: 50 }), refused(55_000)];
    expect(refusedChargeFinding('ratelimit/8.1/refused-consumes-points', history, served(598, 70_020), 600, 60_000).note).toMatch(/^undetermined/);
  });
});
