import { describe, expect, test } from 'vitest';
import { envelopeFindings, expectError, expectOneOfErrors, parseEnvelope } from '../../lib/checks/error-envelope.ts';
import type { Exchange } from '../../lib/model/exchange.ts';

function response(status: number, body: unknown, headers: Record<string, string> = {}): Exchange {
  return {
    seq: 1,
    startedAt: new Date().toISOString(),
    request: { method: 'GET', url: 'http://h/v1/me', headers: {} },
    response: { status, headers, body: typeof body === 'string' ? body : JSON.stringify(body), bodyBytes: 1, truncated: false },
    timings: { totalMs: 1 },
  };
}

const good = { error: { code: 'auth.token_missing', category: 'permanent', message: 'x', request_id: 'r1' } };

describe('the §7 envelope', () => {
  test('a well-formed 401 passes every envelope requirement, extra fields inside error allowed', () => {
    const ex = response(401, { error: { ...good.error, hint: 'extra', details: { a: 1 } } }, { 'x-request-id': 'r1' });
    expect(envelopeFindings(ex).map((f) => [f.requirement, f.verdict])).toEqual([
      ['errors/7/envelope', 'pass'],
      ['errors/7/category-value', 'pass'],
      ['errors/7/request-id-header', 'pass'],
      ['errors/7/known-code-status', 'pass'],
    ]);
  });

  test.each([
    ['a flat object', { code: 'x', category: 'permanent', message: 'm', request_id: 'r' }, 'top-level keys'],
    ['a second top-level key', { ...good, status: 401 }, 'expected exactly [error]'],
    ['a missing request_id', { error: { code: 'x', category: 'permanent', message: 'm' } }, 'error.request_id is missing'],
    ['details that is not an object', { error: { ...good.error, details: [1] } }, 'error.details'],
    ['an empty message', { error: { ...good.error, message: '' } }, 'error.message is "", expected text'],
    ['an all-blank message', { error: { ...good.error, message: '  ' } }, 'error.message is "  ", expected text'],
    ['an empty code', { error: { ...good.error, code: '' } }, 'error.code is "", expected a code'],
    ['an all-blank code', { error: { ...good.error, code: ' ' } }, 'error.code is " ", expected a code'],
    ['plain text', 'Unauthorized', 'not JSON'],
  ])('%s is not the envelope', (_what, body, problem) => {
    const parsed = parseEnvelope(response(401, body));
    expect(parsed.ok).toBe(false);
    expect(parsed.ok ? '' : parsed.problems.join()).toContain(problem);
  });

  test('request_id must equal X-Request-Id; known codes keep their status and category', () => {
    const f = envelopeFindings(response(403, good, { 'x-request-id': 'other' }));
    expect(f.find((x) => x.requirement === 'errors/7/request-id-header')?.verdict).toBe('fail');
    expect(f.find((x) => x.requirement === 'errors/7/known-code-status')?.verdict).toBe('fail');
  });

  test('expectError accepts any of several codes and names what it wanted', () => {
    const ex = response(401, good, { 'x-request-id': 'r1' });
    expect(expectError('auth/5.4/malformed-header', ex, { status: 401, code: ['auth.token_missing', 'auth.token_invalid'] }).verdict).toBe('pass');
    const f = expectError('auth/5.4/unknown-token', ex, { status: 401, code: 'auth.token_invalid', category: 'permanent' });
    expect(f).toMatchObject({ verdict: 'fail', expected: 'HTTP 401, code auth.token_invalid, category permanent' });
  });

  test('expectOneOfErrors holds when any expectation does, and a failure names them all and the nearest miss', () => {
    const missing = { status: 401, code: 'auth.token_missing', category: 'permanent' } as const;
    const refusedBody = { status: 400, category: 'permanent' } as const;
    const validation = response(400, { error: { code: 'request.validation_failed', category: 'permanent', message: 'm', request_id: 'r1' } }, { 'x-request-id': 'r1' });
    expect(expectOneOfErrors('auth/5.3/token-outside-header', validation, [missing, refusedBody]).verdict).toBe('pass');
    expect(expectOneOfErrors('auth/5.3/token-outside-header', validation, [missing]).verdict).toBe('fail');
    const transient = response(400, { error: { code: 'x', category: 'transient', message: 'm', request_id: 'r1' } }, { 'x-request-id': 'r1' });
    expect(expectOneOfErrors('auth/5.3/token-outside-header', transient, [missing, refusedBody])).toMatchObject({
      verdict: 'fail',
      expected: 'HTTP 401, code auth.token_missing, category permanent; or HTTP 400, category permanent',
      actual: 'HTTP 400, code x, category transient',
    });
    expect(expectOneOfErrors('auth/5.3/token-outside-header', response(200, {}), [missing, refusedBody]).verdict).toBe('fail');
  });
});

describe('status helpers', () => {
  test('envelopeFindingsIfError judges only errors; expectSuccess wants a 2xx', async () => {
    const { envelopeFindingsIfError } = await import('../../lib/checks/error-envelope.ts');
    const { expectSuccess } = await import('../../lib/checks/success-status.ts');
    expect(envelopeFindingsIfError(response(200, { ok: true }))).toEqual([]);
    expect(envelopeFindingsIfError(response(404, 'nope'))[0]?.verdict).toBe('fail');
    expect(expectSuccess('auth/5.1/bearer-accepted', response(204, ''), '2xx').verdict).toBe('pass');
    expect(expectSuccess('auth/5.1/bearer-accepted', response(401, good), '2xx').verdict).toBe('fail');
  });
});
