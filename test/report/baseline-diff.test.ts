import { describe, expect, test } from 'vitest';
import type { Exchange } from '../../lib/model/exchange.ts';
import { diffReports, type ComparableReport } from '../../lib/report/baseline-diff.ts';
import { routeOf } from '../../lib/checks/route-of.ts';
import { Observer } from '../../lib/report/observed.ts';
import type { Observed } from '../../lib/report/report-model.ts';

const profile = {
  baseUrl: 'http://h/api/v1',
  messages: { routes: [{ path: '/deal-agents/da_1/messages', template: '/deal-agents/{agent_id}/messages', body: {} }], async: { body: {}, jobIdPointer: '/job_id', poll: '/message-jobs/{job_id}' } },
};

function exchange(method: string, path: string, status: number, body: unknown): Exchange {
  return {
    seq: 1,
    startedAt: '2026-01-01T00:00:00.000Z',
    request: { method, url: `http://h/api/v1${path}`, headers: {} },
    response: { status, headers: {}, body: JSON.stringify(body), bodyBytes: 1, truncated: false },
    timings: { totalMs: 1 },
  };
}

function report(verdicts: Record<string, string>, observed?: Observed): ComparableReport {
  return {
    schemaVersion: 2,
    meta: { runId: 'r', tool: { name: 'asi-conformance', version: '0.2.0' }, startedAt: '2026-01-01T00:00:00.000Z' },
    results: Object.entries(verdicts).map(([id, verdict]) => ({ requirement: { id }, verdict: verdict as 'pass' })),
    ...(observed === undefined ? {} : { observed }),
  };
}

describe('routeOf', () => {
  test.each([
    ['/me', '/me'],
    ['/credits/operations', '/credits/operations'],
    ['/deal-agents/da_1/messages', '/deal-agents/{agent_id}/messages'],
    ['/message-jobs/job_42', '/message-jobs/{job_id}'],
    ['/no-such-route', 'other'],
  ])('%s is %s', (path, route) => {
    expect(routeOf(exchange('GET', path, 200, {}), profile)).toBe(route);
  });
});

describe('Observer', () => {
  test('collects error codes per situation and field counts per kind of body', () => {
    const o = new Observer(profile);
    o.add(exchange('GET', '/me', 401, { error: { code: 'auth.token_missing', category: 'permanent', message: 'm', request_id: 'r' } }));
    o.add(exchange('GET', '/me', 401, { error: { code: 'auth.token_invalid', category: 'permanent', message: 'm', request_id: 'r', details: {} } }));
    o.add(exchange('GET', '/credits/operations', 200, { operations: [{ a: 1, b: 2 }, { a: 1 }], next_cursor: null }));
    expect(o.result()).toEqual({
      errorCodes: { 'GET /me 401': ['auth.token_invalid', 'auth.token_missing'] },
      fields: {
        error: { bodies: 2, counts: { category: 2, code: 2, details: 1, message: 2, request_id: 2 } },
        'ledger page': { bodies: 1, counts: { next_cursor: 1, operations: 1 } },
        'ledger row': { bodies: 2, counts: { a: 2, b: 1 } },
      },
    });
  });
});

describe('diffReports', () => {
  test('sorts changes of verdict into new failures, fixed, still failing and the rest; only new failures regress', () => {
    const d = diffReports(report({ a: 'pass', b: 'fail', c: 'fail', e: 'pass', gone: 'pass' }), report({ a: 'fail', b: 'fail', c: 'pass', e: 'inconclusive', new: 'pass' }));
    expect(d.newFailures.map((c) => c.id)).toEqual(['a']);
    expect(d.stillFailing.map((c) => c.id)).toEqual(['b']);
    expect(d.fixed.map((c) => c.id)).toEqual(['c']);
    expect(d.otherChanges).toEqual([{ id: 'e', before: 'pass', after: 'inconclusive' }]);
    expect(d.added).toEqual(['new']);
    expect(d.removed).toEqual(['gone']);
    expect(d.regressed).toBe(true);
    expect(diffReports(report({ b: 'fail' }), report({ b: 'fail' })).regressed).toBe(false);
  });

  test('a code renamed in a situation both runs saw regresses (§9.2); a situation this run did not provoke does not', () => {
    const before: Observed = { errorCodes: { 'GET /me 401': ['auth.token_missing'], 'GET /credits/operations 400': ['ledger.bad_window'] }, fields: {} };
    const renamed: Observed = { errorCodes: { 'GET /me 401': ['auth.missing_token'] }, fields: {} };
    const d = diffReports(report({}, before), report({}, renamed));
    expect(d.codesGone).toEqual([{ situation: 'GET /me 401', before: ['auth.token_missing'], after: ['auth.missing_token'] }]);
    expect(d.regressed).toBe(true);
    const fewer: Observed = { errorCodes: { 'GET /me 401': ['auth.token_missing'] }, fields: {} };
    expect(diffReports(report({}, before), report({}, fewer)).regressed).toBe(false);
  });

  test('a field every body of a kind carried before, missing from some body now, regresses; an optional one does not', () => {
    const before: Observed = { errorCodes: {}, fields: { error: { bodies: 4, counts: { code: 4, request_id: 4, details: 1 } } } };
    const after: Observed = { errorCodes: {}, fields: { error: { bodies: 3, counts: { code: 3, request_id: 2 } } } };
    const d = diffReports(report({}, before), report({}, after));
    expect(d.fieldsGone).toEqual([{ kind: 'error', fields: ['request_id'] }]);
    expect(d.regressed).toBe(true);
  });
});
