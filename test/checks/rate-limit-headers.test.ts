import { describe, expect, test } from 'vitest';
import { poolHeaderAspects, poolHeaderProblems } from '../../lib/checks/pool-headers.ts';
import { isMeteredResponse, poolHeaderAspectFinding } from '../../lib/checks/rate-limit-headers.ts';
import { exchange, poolHeaders, RESET, refused, served, T0 } from './rate-limit-fixtures.ts';

const LIMITS = { read: 600, write: 60, windowS: 60 };

describe('poolHeaderAspects', () => {
  test('a correct read response has no problem of any aspect', () => {
    const a = poolHeaderAspects(served(599), { pool: 'read', limit: 600, windowS: 60 });
    expect(Object.values(a).flat()).toEqual([]);
  });

  test('an absent header is a presence problem only', () => {
    const ex = exchange(200, { headers: { 'x-ratelimit-pool': 'read', 'x-ratelimit-limit': '600' } });
    const a = poolHeaderAspects(ex, { pool: 'read', limit: 600, windowS: 60 });
    expect(a.presence).toEqual(['X-RateLimit-Remaining is absent', 'X-RateLimit-Reset is absent']);
    expect([...a.pool, ...a.limit, ...a.remaining, ...a.reset]).toEqual([]);
  });

  test.each([
    ['milliseconds', String(T0 + 60_000), /milliseconds/],
    ['a delta', '60', /delta/],
    ['a date', 'Thu, 15 Jan 2027 08:00:00 GMT', /Unix timestamp in seconds/],
    ['a time an hour away', String(RESET + 3600), /within the coming 60s window/],
  ])('Reset as %s is a reset problem', (_what, value, why) => {
    const ex = served(599, 0, { headers: { 'x-ratelimit-reset': value } });
    expect(poolHeaderAspects(ex, { pool: 'read', limit: 600, windowS: 60 }).reset.join()).toMatch(why);
  });

  test('a stream that runs on for 30 s after its headers is judged by when its headers came: its Date and Reset were stated then', () => {
    const dated = { 'date': new Date(T0).toUTCString(), 'x-ratelimit-reset': String(Math.floor(T0 / 1000) + 1) };
    const ex = served(599, 0, { headers: dated });
    ex.timings = { totalMs: 30_000, headersMs: 100 };
    expect(poolHeaderAspects(ex, { pool: 'read', limit: 600, windowS: 60 }).reset).toEqual([]);
  });

  test('poolHeaderProblems keeps listing every problem', () => {
    const ex = exchange(200, { headers: poolHeaders('READ', 1000, 5, RESET) });
    expect(poolHeaderProblems(ex, { pool: 'read', limit: 600, windowS: 60 })).toEqual([
      'X-RateLimit-Pool is "READ", expected "read"',
      'X-RateLimit-Limit is 1000, expected 600 for the read pool',
    ]);
  });
});

describe('poolHeaderAspectFinding', () => {
  test('the pool expected follows the method: HEAD is read, POST is write', () => {
    const head = exchange(200, { method: 'HEAD', headers: poolHeaders('write', 600, 5, RESET) });
    const post = exchange(200, { method: 'POST', headers: poolHeaders('write', 60, 5, RESET) });
    const f = poolHeaderAspectFinding('ratelimit/8.1/pool-by-method', 'pool', [head, post], LIMITS);
    expect(f.verdict).toBe('fail');
    expect(f.actual).toMatch(/^1 of 2 responses: HEAD \/v1\/me → 200: X-RateLimit-Pool is "write"/);
    expect(f.exchanges).toEqual([head]);
  });

  test('a 400 without headers fails presence; a 2xx with them passes', () => {
    const bad = exchange(400, { path: '/credits/operations?from=b&to=a' });
    const f = poolHeaderAspectFinding('ratelimit/4/headers-on-authenticated-responses', 'presence', [served(1), bad], LIMITS);
    expect(f.verdict).toBe('fail');
    expect(f.actual).toContain('GET /v1/credits/operations?from=b&to=a → 400: X-RateLimit-Pool is absent');
  });

  test('the limit expected is the profile\'s', () => {
    const spec = exchange(200, { headers: poolHeaders('read', 600, 5, RESET) });
    expect(poolHeaderAspectFinding('ratelimit/8.1/limit-value', 'limit', [spec], LIMITS).verdict).toBe('pass');
    const f = poolHeaderAspectFinding('ratelimit/8.1/limit-value', 'limit', [spec], { read: 30, write: 10, windowS: 4 });
    expect(f.verdict).toBe('fail');
    expect(f.actual).toContain('X-RateLimit-Limit is 600, expected 30 for the read pool');
  });

  test('passing names how many responses were checked', () => {
    const f = poolHeaderAspectFinding('ratelimit/8.1/reset-unix-seconds', 'reset', [served(5), refused()], LIMITS);
    expect(f).toMatchObject({ verdict: 'pass', note: '2 authenticated responses checked' });
  });
});

describe('isMeteredResponse', () => {
  test.each([
    ['a 2xx with a token', served(5), true],
    ['a 429', refused(), true],
    ['a 400', exchange(400, {}), true],
    ['a 401', exchange(401, {}), false],
    ['a 404', exchange(404, {}), false],
    ['a public route with a token sent along', exchange(200, { path: '/health' }), false],
    ['a limiter-down 503', exchange(503, { body: { error: { code: 'system.rate_limit_unavailable', category: 'transient', message: 'm', request_id: 'r' } } }), false],
  ])('%s', (_what, ex, metered) => {
    expect(isMeteredResponse(ex)).toBe(metered);
  });

  test('a request without a token role is not metered', () => {
    const ex = served(5);
    delete ex.request.tokenRole;
    expect(isMeteredResponse(ex)).toBe(false);
  });
});
