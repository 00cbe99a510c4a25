import { describe, expect, test } from 'vitest';
import { noServiceWithoutTokenFinding, refusedThroughoutFinding, servedWithoutTokenProblem } from '../../lib/checks/token-refusal.ts';
import type { Exchange } from '../../lib/model/exchange.ts';

const BASE = 'http://127.0.0.1:1/v1';

function ex(method: string, path: string, status: number, authorization?: string, body = ''): Exchange {
  return {
    seq: 1,
    startedAt: new Date(0).toISOString(),
    request: { method, url: `${BASE}${path}`, headers: authorization === undefined ? {} : { authorization } },
    response: { status, headers: { 'x-request-id': 'r1', 'content-type': 'application/json' }, body, bodyBytes: body.length, truncated: false },
    timings: { totalMs: 1 },
  };
}

const INVALID = JSON.stringify({ error: { code: 'auth.token_invalid', category: 'permanent', message: 'no', request_id: 'r1' } });

describe('servedWithoutTokenProblem', () => {
  test.each([
    ['PUT', 204, undefined, 'HTTP 204 to PUT with no token'],
    ['DELETE', 200, 'Bearer asi_live_00ff', 'HTTP 200 to DELETE with a token that is unknown'],
    ['PUT', 405, undefined, undefined],
    ['OPTIONS', 204, undefined, undefined],
    ['GET', 200, 'Bearer $ASI_TOKEN', undefined],
  ])('%s answered %i with %s', (method, status, authorization, problem) => {
    expect(servedWithoutTokenProblem(ex(method, '/me', status, authorization))).toBe(problem);
  });
});

describe('noServiceWithoutTokenFinding', () => {
  test('the unauthenticated routes and OPTIONS are not bound; a 2xx elsewhere fails', () => {
    expect(noServiceWithoutTokenFinding('r', [ex('GET', '/health', 200), ex('OPTIONS', '/me', 204)], BASE).verdict).toBe('inconclusive');
    expect(noServiceWithoutTokenFinding('r', [ex('GET', '/health', 200), ex('PATCH', '/me', 405)], BASE).verdict).toBe('pass');
    expect(noServiceWithoutTokenFinding('r', [ex('PATCH', '/me', 204)], BASE).verdict).toBe('fail');
  });
});

describe('refusedThroughoutFinding', () => {
  test('every answer 401 auth.token_invalid passes; a 429 among them fails', () => {
    const ok = Array.from({ length: 3 }, () => ex('GET', '/me', 401, 'Bearer asi_live_00', INVALID));
    expect(refusedThroughoutFinding('r', ok).verdict).toBe('pass');
    const limited = ex('GET', '/me', 429, 'Bearer asi_live_00', JSON.stringify({ error: { code: 'rate_limit.exceeded', category: 'rate_limited', message: 'no', request_id: 'r1' } }));
    const f = refusedThroughoutFinding('r', [...ok, limited]);
    expect(f.verdict).toBe('fail');
    expect(f.actual).toMatch(/^1 of 4 answered otherwise/);
  });
});
