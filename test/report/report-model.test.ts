import { describe, expect, test } from 'vitest';
import { buildReport } from '../../lib/report/build-report.ts';
import { combineVerdicts, levelAdjusted, type RunMetadata } from '../../lib/report/report-model.ts';
import { fail, inconclusive, notRun, pass } from '../../lib/model/finding.ts';
import type { CollectedTest } from '../../lib/runner/findings-collector.ts';

const meta = { failOn: 'must' } as RunMetadata;

function collected(findings: CollectedTest['findings'], requirements: string[] = []): CollectedTest {
  return { suite: 's', title: 't', state: 'passed', requirements, findings, requests: 0 };
}

describe('verdicts', () => {
  test('one failure fails a requirement; inconclusive beats pass; not-run counts only alone', () => {
    expect(combineVerdicts(['pass', 'fail', 'inconclusive'])).toBe('fail');
    expect(combineVerdicts(['pass', 'inconclusive'])).toBe('inconclusive');
    expect(combineVerdicts(['not-run', 'pass'])).toBe('pass');
    expect(combineVerdicts(['not-run'])).toBe('not-run');
    expect(combineVerdicts([])).toBeUndefined();
  });

  test('SHOULD fails only with --fail-on should; INFO never fails', () => {
    expect(levelAdjusted('fail', 'SHOULD', 'must')).toBe('warn');
    expect(levelAdjusted('fail', 'SHOULD', 'should')).toBe('fail');
    expect(levelAdjusted('fail', 'INFO', 'should')).toBe('warn');
  });

  test('the report lists every requirement and derives outcome and exit code', () => {
    const ok = buildReport(meta, [collected([pass('auth/5.3/missing-header')])], []);
    expect(ok.results.find((r) => r.requirement.id === 'auth/5.3/missing-header')?.verdict).toBe('pass');
    expect(ok.results.find((r) => r.requirement.id === 'auth/5.4/revoked-token')?.verdict).toBe('uncovered');
    expect(ok.exitCode).toBe(0);

    const bad = buildReport(meta, [collected([pass('auth/5.3/missing-header'), fail('auth/5.3/missing-header', 'a', 'b', [])])], []);
    expect(bad.outcome).toBe('not-conformant');
    expect(bad.exitCode).toBe(1);

    const unsure = buildReport(meta, [collected([inconclusive('auth/5.3/missing-header', 'timeout')])], []);
    expect(unsure.exitCode).toBe(3);
    expect(unsure.results.find((r) => r.requirement.id === 'auth/5.3/missing-header')?.reason).toBe('timeout');

    const skipped = buildReport(meta, [collected([notRun('auth/5.4/revoked-token', 'no revoked token')])], []);
    expect(skipped.exitCode).toBe(0);
    expect(skipped.results.find((r) => r.requirement.id === 'auth/5.4/revoked-token')?.reason).toBe('no revoked token');
  });

  test('a requirement of an area the run did not select is not-run, not uncovered', () => {
    const r = buildReport(meta, [], [], new Set(['auth']));
    expect(r.results.find((x) => x.requirement.id === 'errors/7/envelope')?.verdict).toBe('not-run');
    expect(r.results.find((x) => x.requirement.id === 'auth/5.3/missing-header')?.verdict).toBe('uncovered');
  });
});
