import { describe, expect, test } from 'vitest';
import { consoleSummary } from '../../lib/report/console-summary.ts';
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
