import { describe, expect, test } from 'vitest';
import type { Exchange } from '../../lib/model/exchange.ts';
import { baselineGate, diffLines, diffReports, type ComparableReport } from '../../lib/report/baseline-diff.ts';
import { routeOf } from '../../lib/checks/route-of.ts';
import { Observer } from '../../lib/report/observed.ts';
import type { Observed, Report } from '../../lib/report/report-model.ts';

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

describe('the comparison as people read it', () => {
  test('a waived result reads waived: a failure the baseline did not have, waived now, is no regression', () => {
    const before = report({ a: 'pass' });
    const after = report({ a: 'fail' });
    after.results[0]!.waiver = { state: 'waived' };
    const d = diffReports(before, after);
    expect(d.otherChanges).toEqual([{ id: 'a', before: 'pass', after: 'waived' }]);
    expect(d.regressed).toBe(false);
  });

  test("what a partial run did not choose is counted per area on one line, not listed as changes", () => {
    const ids = Array.from({ length: 90 }, (_, i) => `${['auth', 'ledger', 'errors'][i % 3]}/1/r${i}`);
    const before = report(Object.fromEntries([...ids.map((id) => [id, 'pass']), ['auth/5.3/missing-header', 'pass']]));
    const after = report(Object.fromEntries([...ids.map((id) => [id, 'not-run']), ['auth/5.3/missing-header', 'pass']]));
    for (const r of after.results) if (r.requirement.id !== 'auth/5.3/missing-header') r.unchosen = true;
    const d = diffReports(before, after);
    expect(d.otherChanges).toEqual([]);
    expect(d.removed).toEqual([]);
    expect(d.notChosen).toHaveLength(90);
    const lines = diffLines(d);
    expect(lines).toContain('  not chosen in this partial run, not compared (90): auth 30, ledger 30, errors 30');
    expect(lines.at(-1)).toBe('  no regression');
  });

  test('a long list is grouped by change and area, a few ids a line; new failures are listed whole', () => {
    const ids = Array.from({ length: 12 }, (_, i) => `${i < 9 ? 'ledger' : 'auth'}/4/r${i}`);
    const d = diffReports(report(Object.fromEntries(ids.map((id) => [id, 'pass']))), report(Object.fromEntries(ids.map((id, i) => [id, i % 2 === 0 ? 'fail' : 'inconclusive']))));
    const lines = diffLines(d);
    expect(lines.slice(1, 6)).toEqual([
      '  new failures (6):',
      '    pass -> fail (6):',
      '      ledger (5):',
      '        ledger/4/r0, ledger/4/r2, ledger/4/r4, ledger/4/r6',
      '        ledger/4/r8',
    ]);
    expect(lines).toContain('      auth (1):');
    expect(lines).toContain('  other changes (6):');
    expect(lines).toContain('    pass -> inconclusive (6):');
    expect(lines).toContain('      ledger (4): ledger/4/r1, ledger/4/r3, ledger/4/r5, ledger/4/r7');
    expect(lines).toContain('      auth (2): auth/4/r9, auth/4/r11');
    for (const line of lines) expect(line.split(', ').length).toBeLessThanOrEqual(4);
    expect(lines.at(-1)).toBe('  REGRESSED: 6 new failures');
    // A short list stays on one line.
    expect(diffLines(diffReports(report({ a: 'pass' }), report({ a: 'fail' })))[1]).toBe('  new failures: a (pass -> fail)');
  });

  test('ten still failing, nine of one area, show a few ids and count the rest', () => {
    const ids = Array.from({ length: 10 }, (_, i) => `${i < 9 ? 'ledger' : 'auth'}/4/r${i}`);
    const failing = report(Object.fromEntries(ids.map((id) => [id, 'fail'])));
    expect(diffLines(diffReports(failing, failing)).slice(3, 6)).toEqual([
      '  still failing (10):',
      '    ledger (9): ledger/4/r0, ledger/4/r1, ledger/4/r2, ledger/4/r3, … and 5 more',
      '    auth (1): auth/4/r9',
    ]);
  });
});

describe('the baseline gate says what it decided and why, as the exit code has it', () => {
  const gate = (outcome: 'conformant' | 'not-conformant' | 'incomplete', before: Record<string, string>, after: Record<string, string>, expired: string[] = []) => {
    const now = report(after);
    for (const r of now.results) if (expired.includes(r.requirement.id)) r.waiver = { state: 'expired' };
    const results = now.results.map((r) => ({ ...r, requirement: { id: r.requirement.id } })) as unknown as Report['results'];
    return baselineGate({ outcome, results, baselineDiff: diffReports(report(before), now) });
  };

  test('known failures only: exit 0, and it says so', () => {
    expect(gate('not-conformant', { a: 'fail', b: 'pass' }, { a: 'fail', b: 'pass' })).toEqual({
      exitCode: 0,
      why: 'no regression against baseline run r: only known failures, 1 requirement failing as in the baseline',
    });
  });

  test('an expired waiver: exit 1, never "no regression" alone', () => {
    expect(gate('not-conformant', { a: 'fail' }, { a: 'fail' }, ['a'])).toEqual({
      exitCode: 1,
      why: 'no regression against baseline run r, but 1 waiver expired: a (renew the waiver or fix the failure)',
    });
  });

  test('a regression: exit 1, even when the run is conformant otherwise (a code gone)', () => {
    expect(gate('not-conformant', { a: 'pass' }, { a: 'fail' })).toEqual({ exitCode: 1, why: 'regressed against baseline run r: 1 new failure' });
    const before: Observed = { errorCodes: { 'GET /me 401': ['auth.token_missing'] }, fields: {} };
    const after: Observed = { errorCodes: { 'GET /me 401': ['auth.missing_token'] }, fields: {} };
    const d = diffReports(report({ a: 'pass' }, before), report({ a: 'pass' }, after));
    expect(baselineGate({ outcome: 'conformant', results: [], baselineDiff: d })).toEqual({ exitCode: 1, why: 'regressed against baseline run r: error codes gone in 1 situation' });
  });

  test('an incomplete run stays incomplete: exit 3', () => {
    expect(gate('incomplete', { a: 'pass' }, { a: 'fail' }).exitCode).toBe(3);
  });
});
