import { describe, expect, test } from 'vitest';
import { diffReports } from '../../lib/report/baseline-diff.ts';
import { consoleSummary } from '../../lib/report/console-summary.ts';
import { stateCounts, type AppliedWaiver } from '../../lib/report/report-model.ts';
import { requirementsOf, waivedReport } from './report-fixtures.ts';

/** The numbers of a headline's tally (`1 pass, 0 fail, ... of 2 requirements`), without the total. */
function tally(headline: string): number[] {
  const counts = /: (.*) of \d+ requirements/.exec(headline)?.[1] ?? '';
  return [...counts.matchAll(/(\d+) [a-z ]+/g)].map((m) => Number(m[1]));
}

describe('the console summary of a run with a waived result', () => {
  const text = consoleSummary(waivedReport(), 'reports: r/');
  const headline = text.split('\n').find((l) => l.startsWith('CONFORMANT'))!;

  test('the headline counts each requirement once: the waived one as waived, not also as a failure', () => {
    expect(headline).toMatch(/^CONFORMANT \(1 result is waived by expectations\.yaml\): 1 pass, 0 fail, 0 warn, 1 waived, 0 inconclusive, 0 not run, 0 uncovered of 2 requirements in /);
    expect(tally(headline).reduce((a, b) => a + b, 0)).toBe(2);
  });

  test('the closing list shows it as waived, and no failure block is printed for it', () => {
    expect(text).toMatch(new RegExp(`~ waived +${requirementsOf.fail.id} +MUST +waived: fail expected until 2030-01-01: known gateway bug`));
    expect(text).not.toContain(`× ${requirementsOf.fail.id}`);
  });

  test('a run without waivers keeps its tally as it was', () => {
    const report = waivedReport();
    report.results = [report.results[0]!];
    report.counts = { ...report.counts, waived: 0 };
    expect(consoleSummary(report, 'reports: r/')).toMatch(/: 1 pass, 0 fail, 0 warn, 0 inconclusive, 0 not run, 0 uncovered of 1 requirements in /);
  });
});

describe('the console summary of a run of the embedded reference', () => {
  test('says, just above where the reports are, that it was a demo and how to test one\'s own server', () => {
    const report = waivedReport();
    report.meta = { ...report.meta, target: { ...report.meta.target, embedded: true } };
    expect(consoleSummary(report, 'reports: r/').split('\n').slice(-2)).toEqual([
      "demo: this run tested the embedded reference implementation (the harness's own), not an implementation under test; to test yours, give run --base-url URL or --config FILE",
      'reports: r/',
    ]);
    report.meta = { ...report.meta, target: { ...report.meta.target, embedded: false } };
    expect(consoleSummary(report, 'reports: r/')).not.toContain('demo');
  });
});

describe('the console summary of a run with --baseline says what the gate decided and why', () => {
  const id = requirementsOf.fail.id;
  /** A not-conformant run whose one failure the baseline had too; the exit code as the gate sets it. */
  function gated(exitCode: 0 | 1, waiver?: AppliedWaiver) {
    const report = waivedReport();
    const { waiver: _waived, ...failing } = report.results[1]!;
    report.results[1] = waiver === undefined ? failing : { ...failing, waiver };
    report.counts = stateCounts(report.results);
    report.outcome = 'not-conformant';
    report.exitCode = exitCode;
    report.baselineDiff = diffReports(
      { schemaVersion: 2, meta: { runId: 'base-1', tool: { name: 'asi-conformance', version: '0.2.0' }, startedAt: '2026-01-01T00:00:00.000Z' }, results: report.results.map(({ waiver: _w, ...r }) => r) },
      report,
    );
    return consoleSummary(report, 'reports: r/');
  }

  test('known failures only: the headline says the gate passes, the gate line says why, both with exit 0', () => {
    const text = gated(0);
    expect(text).toMatch(/^NOT CONFORMANT \(baseline gate passes: exit 0\): 1 pass, 1 fail, /m);
    expect(text).toContain(`  still failing: ${id}`);
    expect(text).toContain('baseline gate: exit 0: no regression against baseline run base-1: only known failures, 1 requirement failing as in the baseline');
    expect(text).not.toMatch(/no regression \(exit 1\)/);
  });

  test('an expired waiver: the gate line says it failed the gate (exit 1), not "no regression" alone', () => {
    const text = gated(1, { status: 'fail', reason: 'old bug', expires: '2020-01-31', state: 'expired' });
    expect(text).toMatch(/^NOT CONFORMANT: /m);
    expect(text).toContain(`baseline gate: exit 1: no regression against baseline run base-1, but 1 waiver expired: ${id} (renew the waiver or fix the failure)`);
  });
});
