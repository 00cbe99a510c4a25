import { describe, expect, test } from 'vitest';
import {
  refusalCodeFinding,
  refusalRemainingZeroFinding,
  refusalRequestIdFinding,
  retryAfterIntegerFinding,
  retryAfterSeconds,
} from '../../lib/checks/rate-limit-refusal.ts';
import { refused, served } from './rate-limit-fixtures.ts';

describe('the 429 envelope', () => {
  test('rate_limit.exceeded, rate_limited, a message: pass', () => {
    expect(refusalCodeFinding('ratelimit/7/429-code-category', refused()).verdict).toBe('pass');
  });

  test('category transient fails and says so', () => {
    const ex = refused(0, '5', { body: { error: { code: 'rate_limit.exceeded', category: 'transient', message: 'm', request_id: 'req_1' } } });
    const f = refusalCodeFinding('ratelimit/7/429-code-category', ex);
    expect(f).toMatchObject({ verdict: 'fail', actual: 'category "transient"' });
  });

  test('a body that is not the envelope fails', () => {
    expect(refusalCodeFinding('ratelimit/7/429-code-category', refused(0, '5', { body: 'slow down' })).verdict).toBe('fail');
  });

  test('anything but a 429 is inconclusive', () => {
    expect(refusalCodeFinding('ratelimit/7/429-code-category', served(3)).verdict).toBe('inconclusive');
  });
});

describe('the request_id of a 429', () => {
  test('equal to X-Request-Id: pass', () => {
    expect(refusalRequestIdFinding('ratelimit/7/429-request-id', refused()).verdict).toBe('pass');
  });

  test('missing, as in the published example: fail naming the discrepancy', () => {
    const ex = refused(0, '5', { body: { error: { code: 'rate_limit.exceeded', category: 'rate_limited', message: 'm' } } });
    const f = refusalRequestIdFinding('ratelimit/7/429-request-id', ex);
    expect(f.verdict).toBe('fail');
    expect(f.actual).toMatch(/published 429 example/);
    expect(f.expected).toMatch(/envelope schema/);
  });

  test('different from the header: fail', () => {
    expect(refusalRequestIdFinding('ratelimit/7/429-request-id', refused(0, '5', { headers: { 'x-request-id': 'other' } })).verdict).toBe('fail');
  });
});

describe('Remaining and Retry-After on a 429', () => {
  test('Remaining 0: pass; anything else: fail', () => {
    expect(refusalRemainingZeroFinding('ratelimit/8.1/429-remaining-zero', refused(), 'read').verdict).toBe('pass');
    const stuck = refused(0, '5', { headers: { 'x-ratelimit-remaining': '599' } });
    expect(refusalRemainingZeroFinding('ratelimit/8.1/429-remaining-zero', stuck, 'read')).toMatchObject({ verdict: 'fail', actual: 'X-RateLimit-Remaining "599"' });
  });

  test.each([
    ['5', 'pass'],
    ['0', 'pass'],
    ['Wed, 21 Oct 2026 07:28:00 GMT', 'fail'],
    ['1.5', 'fail'],
    ['-1', 'fail'],
  ])('Retry-After %j: %s', (value, verdict) => {
    expect(retryAfterIntegerFinding('ratelimit/8.1/retry-after-integer', refused(0, value)).verdict).toBe(verdict);
  });

  test('a missing Retry-After fails; an HTTP date is named as one', () => {
    const missing = refused();
    delete missing.response!.headers['retry-after'];
    expect(retryAfterIntegerFinding('ratelimit/8.1/retry-after-integer', missing).actual).toBe('Retry-After is absent');
    expect(retryAfterIntegerFinding('ratelimit/8.1/retry-after-integer', refused(0, 'Wed, 21 Oct 2026 07:28:00 GMT')).actual).toMatch(/HTTP date/);
    expect(retryAfterSeconds(refused(0, '17'))).toBe(17);
  });
});
