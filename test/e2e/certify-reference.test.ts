import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { coverageContextOfReport, coverageDifferences } from '../../lib/certification/coverage-rederivation.ts';
import { coverageOf } from '../../lib/coverage/coverage.ts';
import { JUDGED_ONLY_RUN_WIDE } from '../../lib/invariants/registry.ts';
import { exchangesOfHar } from '../../lib/report/har-exchanges.ts';
import type { Report } from '../../lib/report/report-model.ts';
import { INVARIANTS_SUITE } from '../../lib/runner/invariant-test.ts';
import { runCli } from '../support/cli.ts';

/**
 * `npm start` on a fresh clone: a full certification run of the embedded reference with the
 * spec's limits (a demo: every output says it tested the harness's own reference). Everything
 * must pass: a failure here is a false positive or a reference bug.
 */
describe('the embedded reference', () => {
  test('is certified conformant with every requirement covered', async () => {
    const out = mkdtempSync(join(tmpdir(), 'asi-certify-'));
    const r = await runCli(['run', '--out', out, '-q'], { timeoutMs: 5 * 60_000 });
    const runDir = readdirSync(out)[0]!;
    const report = JSON.parse(readFileSync(join(out, runDir, 'report.json'), 'utf8')) as Report;
    const wrong = report.results
      .filter((x) => x.verdict !== 'pass' && !(x.requirement.level === 'INFO' && x.verdict === 'warn'))
      .map((x) => `${x.requirement.id}: ${x.verdict} ${x.reason ?? x.findings.find((f) => f.verdict !== 'pass')?.actual ?? ''}`);
    expect(wrong).toEqual([]);
    expect(r.code).toBe(0);
    // Quiet: not even the lines of the long waits (the limiter drill waits most of a minute).
    expect(r.stderr).not.toContain('waiting for');
    expect(report.outcome).toBe('conformant');
    expect(report.meta.certifying).toBe(true);
    // `run --only` chooses every test for these (lib/runner/certify.ts): exactly the requirements
    // whose findings came from the run-wide rules alone.
    const runWideOnly = report.results.filter((x) => x.tests.length > 0 && x.tests.every((t) => t.startsWith(`${INVARIANTS_SUITE} `))).map((x) => x.requirement.id);
    expect(runWideOnly.sort()).toEqual([...JUDGED_ONLY_RUN_WIDE].sort());
    expect(readdirSync(join(out, runDir)).sort()).toEqual(['bundle.tar.gz', 'junit.xml', 'report.html', 'report.json', 'summary.md', 'transcript.har']);
    // The exchange matrix reaches every pair the reference's profile allows, and the HAR says the same as the report.
    const coverage = report.coverage!;
    expect(coverage.uncovered).toEqual([]);
    expect(coverage.unavailable).toEqual([]);
    for (const d of coverage.dimensions) expect(d.values.filter((v) => v.exchanges === 0).map((v) => `${d.name} ${v.value}`)).toEqual([]);
    const har = exchangesOfHar(JSON.parse(readFileSync(join(out, runDir, 'transcript.har'), 'utf8')));
    const fromHar = coverageOf(har, coverageContextOfReport(report)!, { suites: report.meta.suites });
    expect(coverageDifferences(coverage, fromHar)).toEqual([]);
    expect(fromHar).toEqual(coverage);
    // Its bundle verifies offline as a certification, every verdict re-derived (how fast: npm run bench).
    const verified = await runCli(['verify', join(out, runDir, 'bundle.tar.gz'), '--require-certification']);
    expect(verified.code, verified.stdout + verified.stderr).toBe(0);
    expect(verified.stdout).toContain('INTACT: every file is as the run wrote it, every judgement re-runs to the same findings on the recorded exchanges, every verdict follows from those findings, and every exchange they cite is in the record as cited.');
    // The harness's own reference: a demo, said first, never a bare CERTIFICATION.
    expect(verified.stdout).toContain('REFERENCE DEMO, NO IMPLEMENTATION CERTIFIED: the embedded reference implementation passed a full run at the spec\'s limits, every requirement selected and judged, no waiver, by an unmodified asi-conformance');
    expect(verified.stdout).not.toMatch(/^CERTIFICATION/m);
    expect(r.stdout).toContain('demo: this run tested the embedded reference implementation');
  }, 5 * 60_000);
});
