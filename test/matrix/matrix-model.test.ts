import { describe, expect, test } from 'vitest';
import { catalogue } from '../../lib/catalogue/index.ts';
import { buildMatrix, matrixExitCode, type ColumnInput, type MatrixColumn } from '../../lib/matrix/matrix-model.ts';
import type { Report, RequirementResult, RequirementVerdict } from '../../lib/report/report-model.ts';

const MISSING = 'auth/5.3/missing-header';
const BEARER = 'auth/5.1/bearer-accepted';
const LEDGER = catalogue.find((r) => r.area === 'ledger')!.id;

/** A report with the given verdicts; every other requirement not chosen (a partial run). */
function report(verdicts: Record<string, RequirementVerdict | { verdict: RequirementVerdict; waived: true }>): Report {
  const results = catalogue.map((requirement): RequirementResult => {
    const v = verdicts[requirement.id];
    if (v === undefined) return { requirement, verdict: 'not-run', findings: [], tests: [], unchosen: true };
    if (typeof v === 'string') return { requirement, verdict: v, findings: [], tests: [] };
    return { requirement, verdict: v.verdict, findings: [], tests: [], waiver: { status: 'fail', reason: 'known', state: 'waived' } };
  });
  // The matrix reads only the results of a report: the rest of it is the run's, checked by verify.
  return { results } as unknown as Report;
}

function column(id: string, extra: Partial<MatrixColumn> = {}): MatrixColumn {
  return { id, name: id, state: 'verified', outcome: 'partial', report: `${id}/run/report.html`, ...extra };
}

const meta = { source: 'runs' as const, tool: { name: 'asi-conformance', version: '0.0.0' }, generatedAt: new Date('2026-11-25T00:00:00Z') };

describe('the matrix', () => {
  const inputs: ColumnInput[] = [
    { column: column('a', { label: 'Acme', version: '1' }), report: report({ [MISSING]: 'pass', [BEARER]: 'pass' }) },
    { column: column('b', { outcome: 'not-conformant' }), report: report({ [MISSING]: 'fail', [BEARER]: 'pass', [LEDGER]: 'pass' }) },
    { column: column('c', { label: 'Acme', version: '1' }), report: report({ [MISSING]: { verdict: 'fail', waived: true } }) },
    { column: { id: 'd', name: 'd', state: 'no-report', reason: 'tokens.primary: environment variable D_TOKEN is not set' } },
  ];
  const m = buildMatrix(inputs, meta);

  test('has a row per requirement in catalogue order, a cell per column with verdicts, linking to its report row', () => {
    expect(m.requirements.map((r) => r.id)).toEqual(catalogue.map((r) => r.id));
    const row = m.requirements.find((r) => r.id === MISSING)!;
    expect(row.cells).toEqual({
      a: { verdict: 'pass', href: 'a/run/report.html#r-auth/5.3/missing-header' },
      b: { verdict: 'fail', href: 'b/run/report.html#r-auth/5.3/missing-header' },
      c: { verdict: 'fail', waiver: 'waived', href: 'c/run/report.html#r-auth/5.3/missing-header' },
    });
  });

  test('disagreement: judged verdicts that differ; a requirement a run did not choose, or could not judge, is no side of one', () => {
    expect(m.disagreements).toEqual([MISSING]);
    const lacking = buildMatrix(
      [
        { column: column('a'), report: report({ [BEARER]: 'pass', [MISSING]: 'pass' }) },
        { column: column('b'), report: report({ [BEARER]: 'not-run', [MISSING]: 'inconclusive' }) },
      ],
      meta,
    );
    expect(lacking.disagreements).toEqual([]);
    const ledger = m.requirements.find((r) => r.id === LEDGER)!;
    expect(ledger.cells['b']).toMatchObject({ verdict: 'pass' });
    expect(ledger.cells['a']).toMatchObject({ verdict: 'not-run', unchosen: true });
    expect(ledger.disagree).toBe(false);
  });

  test('a summary per area counts each column\'s chosen verdicts', () => {
    const auth = m.areas.find((a) => a.area === 'auth')!;
    expect(auth.requirements).toBe(catalogue.filter((r) => r.area === 'auth').length);
    expect(auth.disagreements).toBe(1);
    expect(auth.counts['a']).toMatchObject({ pass: 2, fail: 0, 'not-run': 0 });
    expect(auth.counts['b']).toMatchObject({ pass: 1, fail: 1 });
    // A waived result counts as waived, as in the run's own counts.
    expect(auth.counts['c']).toMatchObject({ fail: 0, waived: 1 });
    expect(Object.keys(auth.counts)).toEqual(['a', 'b', 'c']);
    expect(m.areas.map((a) => a.area)).toEqual([...new Set(catalogue.map((r) => r.area))]);
  });

  test('columns of one implementation (same label and version) are marked, each naming the other', () => {
    expect(m.columns.find((c) => c.id === 'a')!.duplicateOf).toEqual(['c']);
    expect(m.columns.find((c) => c.id === 'c')!.duplicateOf).toEqual(['a']);
    expect(m.columns.find((c) => c.id === 'b')!.duplicateOf).toBeUndefined();
  });

  test('a column without verdicts has no cells and does not take part in the comparison', () => {
    expect(m.requirements.every((r) => !('d' in r.cells))).toBe(true);
    expect(m.exitCode).toBe(1);
  });
});

describe('the exit code of a matrix', () => {
  test.each([
    [[column('a', { outcome: 'conformant' }), column('b', { outcome: 'partial' })], undefined, 0],
    [[column('a', { outcome: 'conformant' }), column('b', { outcome: 'not-conformant' })], undefined, 1],
    [[column('a', { outcome: 'conformant' }), { id: 'b', name: 'b', state: 'does-not-verify' as const }], undefined, 1],
    [[column('a', { outcome: 'incomplete' }), column('b', { outcome: 'conformant' })], undefined, 3],
    [[column('a', { outcome: 'conformant' }), { id: 'b', name: 'b', state: 'no-report' as const }], undefined, 3],
    [[column('a', { outcome: 'not-conformant' }), { id: 'b', name: 'b', state: 'no-report' as const }], undefined, 1],
    [[column('a', { outcome: 'conformant' }), { id: 'b', name: 'b', state: 'not-started' as const }], 'SIGINT', 3],
    [[column('a', { outcome: 'not-conformant' })], 'SIGTERM', 3],
    [[column('a', { outcome: 'conformant' }), column('b', { outcome: 'refused' })], undefined, 3],
    [[column('a', { outcome: 'partial' }), column('b', { outcome: 'unreachable' })], undefined, 3],
  ] as Array<[MatrixColumn[], string | undefined, number]>)('%#: %j interrupted by %s exits %i', (columns, interrupted, code) => {
    expect(matrixExitCode(columns, interrupted)).toBe(code);
  });
});
