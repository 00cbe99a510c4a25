import { describe, expect, test } from 'vitest';
import { buildReport } from '../../lib/report/build-report.ts';
import { combineVerdicts, levelAdjusted, type RunMetadata } from '../../lib/report/report-model.ts';
import { fail, inconclusive, notRun, pass } from '../../lib/model/finding.ts';
import { catalogue } from '../../lib/catalogue/index.ts';
import type { CollectedTest } from '../../lib/runner/findings-collector.ts';

const meta = { failOn: 'must', certifying: true, startedAt: '2026-11-23T10:00:00.000Z' } as RunMetadata;

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

  const build = (tests: CollectedTest[], extra: Partial<Parameters<typeof buildReport>[0]> = {}) => buildReport({ meta, tests, runErrors: [], ...extra });
  const all = catalogue.map((r) => pass(r.id));

  test('a full run is conformant only when every MUST has a verdict of its own', () => {
    const ok = build([collected(all)]);
    expect(ok.outcome).toBe('conformant');
    expect(ok.exitCode).toBe(0);
    expect(ok.incomplete).toEqual([]);

    const bad = build([collected([...all, fail('auth/5.3/missing-header', 'a', 'b', [])])]);
    expect(bad.outcome).toBe('not-conformant');
    expect(bad.exitCode).toBe(1);
  });

  test.each([
    ['inconclusive', inconclusive('auth/5.3/missing-header', 'timeout'), 'timeout'],
    ['not-run', notRun('auth/5.3/missing-header', 'tokens.primary: ASI_TOKEN is empty'), 'tokens.primary: ASI_TOKEN is empty'],
  ])('a MUST that is %s makes a full run incomplete (exit 3), naming it and why', (_v, finding, why) => {
    const r = build([collected([...all.filter((f) => f.requirement !== 'auth/5.3/missing-header'), finding])]);
    expect(r.outcome).toBe('incomplete');
    expect(r.exitCode).toBe(3);
    expect(r.incomplete).toEqual([{ id: 'auth/5.3/missing-header', verdict: finding.verdict, reason: why }]);
  });

  test('a MUST no test checked (uncovered) makes a full run incomplete; a SHOULD or INFO does not', () => {
    const r = build([collected(all.filter((f) => f.requirement !== 'auth/5.3/missing-header' && f.requirement !== 'ratelimit/8.1/unplanned-429'))]);
    expect(r.results.find((x) => x.requirement.id === 'auth/5.3/missing-header')?.verdict).toBe('uncovered');
    expect(r.incomplete.map((i) => i.id)).toEqual(['auth/5.3/missing-header']);
  });

  test('a run cut short is incomplete whatever its verdicts', () => {
    const r = build([collected(all)], { cutShort: 'interrupted by SIGINT' });
    expect(r.outcome).toBe('incomplete');
    expect(r.incomplete[0]).toEqual({ reason: 'interrupted by SIGINT' });
  });

  test.each([
    ['refused', 2],
    ['unreachable', 3],
    ['incomplete', 3],
  ] as const)('a run the preflight ended is %s (exit %i): every requirement not run, the one cause, no waiver applied', (outcome, exitCode) => {
    const id = 'auth/5.3/missing-header';
    const stopped = { at: 'preflight' as const, outcome, reason: 'token rejected: 401', exchanges: [] };
    const r = build([], { stopped, expectations: { [id]: { status: 'not-run', reason: 'known' } } });
    expect(r.outcome).toBe(outcome);
    expect(r.exitCode).toBe(exitCode);
    expect(r.counts['not-run']).toBe(catalogue.length);
    expect(r.results.every((x) => x.verdict === 'not-run' && x.reason === 'the run ended at the preflight, before any suite' && x.waiver === undefined)).toBe(true);
    expect(r.incomplete).toEqual([{ reason: 'token rejected: 401' }]);
    expect(r.stopped).toEqual({ at: 'preflight', outcome, reason: 'token rejected: 401', exchanges: [] });
  });

  test('a partial run the preflight ended still tells what it did not choose', () => {
    const selection = { suites: [], only: ['auth/5.3/missing-header'], skip: [] };
    const r = build([], { selection, stopped: { at: 'preflight', outcome: 'refused', reason: 'no ASI v1 server', exchanges: [] } });
    expect(r.outcome).toBe('refused');
    expect(r.results.find((x) => x.requirement.id === 'auth/5.3/missing-header')).toMatchObject({ verdict: 'not-run', reason: 'the run ended at the preflight, before any suite' });
    expect(r.results.filter((x) => x.unchosen === true)).toHaveLength(catalogue.length - 1);
  });

  test('a partial run says so, lists what was not chosen as not-run, and exits 0 when nothing it ran failed', () => {
    const selection = { suites: [], only: ['auth/5.3/missing-header'], skip: [] };
    const r = build([collected([pass('auth/5.3/missing-header'), pass('auth/5.1/bearer-accepted')])], { selection });
    expect(r.outcome).toBe('partial');
    expect(r.exitCode).toBe(0);
    expect(r.meta.certifying).toBe(false);
    const other = r.results.find((x) => x.requirement.id === 'auth/5.1/bearer-accepted');
    expect(other?.verdict).toBe('not-run');
    expect(other?.findings).toEqual([]);
    expect(other?.reason).toMatch(/not chosen with --only/);
  });

  test('a partial run whose chosen requirement broke is incomplete; one that failed is not conformant', () => {
    const selection = { suites: ['auth'], only: [], skip: ['auth/5.4/revoked-token'] };
    const broke = build([collected([inconclusive('auth/5.3/missing-header', 'timeout')])], { selection, suitesRun: ['auth'] });
    expect(broke.exitCode).toBe(3);
    const failed = build([collected([fail('auth/5.3/missing-header', 'a', 'b', [])])], { selection, suitesRun: ['auth'] });
    expect(failed.exitCode).toBe(1);
    expect(failed.results.find((x) => x.requirement.id === 'auth/5.4/revoked-token')?.reason).toMatch(/--skip/);
    expect(failed.results.find((x) => x.requirement.id === 'errors/7/envelope')?.reason).toMatch(/--suite/);
  });

  test('a partial run that judged nothing it chose is incomplete, never green', () => {
    const selection = { suites: [], only: ['auth/5.4/revoked-token'], skip: [] };
    const r = build([collected([notRun('auth/5.4/revoked-token', 'tokens.revoked: ASI_TOKEN_REVOKED is set but empty')])], { selection });
    expect(r.outcome).toBe('incomplete');
    expect(r.exitCode).toBe(3);
    expect(r.incomplete.at(-1)?.reason).toMatch(/^nothing this partial run chose could be judged/);
  });

  test('with --fail-on should an unjudged SHOULD makes the run incomplete too', () => {
    const should = catalogue.find((r) => r.level === 'SHOULD')!.id;
    const tests = [collected([...all.filter((f) => f.requirement !== should), inconclusive(should, 'x')])];
    expect(buildReport({ meta: { ...meta, failOn: 'must' }, tests, runErrors: [] }).exitCode).toBe(0);
    expect(buildReport({ meta: { ...meta, failOn: 'should' }, tests, runErrors: [] }).exitCode).toBe(3);
  });
});

describe('waivers', () => {
  const meta2 = { ...meta, startedAt: '2026-11-23T10:00:00.000Z' } as RunMetadata;
  const id = 'ratelimit/7/429-request-id';
  const withVerdict = (finding: ReturnType<typeof pass>, expires?: string) =>
    buildReport({
      meta: meta2,
      tests: [collected([...catalogue.filter((r) => r.id !== id).map((r) => pass(r.id)), finding])],
      runErrors: [],
      expectations: { [id]: { status: 'fail', reason: 'gateway drops it', ...(expires === undefined ? {} : { expires }) } },
    });

  test('an expected failure does not fail the run, and the run is not a certification', () => {
    const r = withVerdict(fail(id, 'a', 'b', []));
    expect(r.results.find((x) => x.requirement.id === id)?.waiver?.state).toBe('waived');
    expect(r.exitCode).toBe(0);
    expect(r.outcome).toBe('conformant');
    expect(r.meta.certifying).toBe(false);
    expect(r.meta.notCertifyingBecause?.join(' ')).toMatch(/1 result is waived/);
  });

  test('counts a waived result once, as waived, and not under the verdict it had (report.json counts)', () => {
    const r = withVerdict(fail(id, 'a', 'b', []));
    expect(r.counts).toEqual({ pass: catalogue.length - 1, fail: 0, warn: 0, 'not-run': 0, inconclusive: 0, uncovered: 0, waived: 1 });
    expect(Object.values(r.counts).reduce((a, b) => a + b, 0)).toBe(r.results.length);
    // An expired waiver is no waiver: the failure counts as one.
    expect(withVerdict(fail(id, 'a', 'b', []), '2026-11-22').counts).toMatchObject({ fail: 1, waived: 0 });
  });

  test('an unexpected pass is reported as fixed and does not fail the run', () => {
    const r = withVerdict(pass(id));
    expect(r.results.find((x) => x.requirement.id === id)?.waiver?.state).toBe('fixed');
    expect(r.exitCode).toBe(0);
  });

  test('an expired waiver fails the run whatever the verdict', () => {
    expect(withVerdict(pass(id), '2026-11-22').exitCode).toBe(1);
    expect(withVerdict(fail(id, 'a', 'b', []), '2026-11-22').outcome).toBe('not-conformant');
    expect(withVerdict(fail(id, 'a', 'b', []), '2026-11-23').exitCode).toBe(0);
  });
});
