import { describe, expect, test } from 'vitest';
import type { OpenedBundle } from '../../lib/certification/open-bundle.ts';
import { rederivedReport, reportVerdicts } from '../../lib/certification/report-verdicts.ts';
import { catalogue } from '../../lib/catalogue/index.ts';
import { fail, inconclusive, notRun, pass, type Finding } from '../../lib/model/finding.ts';
import { diffReports } from '../../lib/report/baseline-diff.ts';
import { buildReport, type ReportInputs } from '../../lib/report/build-report.ts';
import type { Report } from '../../lib/report/report-model.ts';
import { reportJson } from '../../lib/report/writers/json.ts';
import type { CollectedTest } from '../../lib/runner/findings-collector.ts';
import { getExchange, runMetadata } from '../report/report-fixtures.ts';

const MUSTS = catalogue.filter((r) => r.level === 'MUST').map((r) => r.id);
const SHOULD = catalogue.find((r) => r.level === 'SHOULD')!.id;
const [A, B, C, D, E] = MUSTS as [string, string, string, string, string];

function collected(title: string, requirements: string[], findings: Finding[]): CollectedTest {
  return { suite: 'auth', title, state: 'passed', requirements, findings, requests: 1, durationMs: 3 };
}

/** Every requirement passing, but those the case changes. */
function tests(changes: Record<string, Finding[]> = {}): CollectedTest[] {
  return [
    ...catalogue.map((r, i) => collected(`${r.id} sends ${i}`, [r.id], changes[r.id] ?? [pass(r.id, [getExchange(i + 1)])])),
    // A test that checks two requirements at once.
    collected(`${A} and ${B} together`, [A, B], [pass(A), pass(B)]),
  ];
}

function roundTrip(report: Report): Report {
  return JSON.parse(reportJson(report)) as Report;
}

function memoryBundle(report: Report): OpenedBundle {
  const files = new Map([['report.json', Buffer.from(reportJson(report))]]);
  return { source: 'memory', form: 'folder', digest: '', files, recordNames: () => [], recordLines: () => undefined };
}

function facts(report: Report): unknown {
  return {
    results: report.results.map((r) => [r.requirement.id, r.verdict, r.reason, r.unchosen === true, r.waiver?.state]),
    counts: report.counts,
    outcome: report.outcome,
    exitCode: report.exitCode,
    incomplete: report.incomplete,
    certifying: report.meta.certifying,
    because: report.meta.notCertifyingBecause,
  };
}

const CASES: Array<[string, ReportInputs]> = [
  ['a full run that passes', { meta: runMetadata(), tests: tests(), runErrors: [] }],
  [
    'a full run with a failure, a warning, a not-run, an inconclusive and an uncovered requirement',
    {
      meta: runMetadata(),
      tests: tests({ [A]: [fail(A, 'e', 'a', [getExchange(900)]), pass(A)], [SHOULD]: [fail(SHOULD, 'e', 'a', [])], [C]: [notRun(C, 'no token')], [D]: [inconclusive(D, 'the test broke: boom')] }).filter((t) => !t.requirements.includes(E)),
      runErrors: [],
    },
  ],
  ['--fail-on should', { meta: runMetadata({ failOn: 'should' }), tests: tests({ [SHOULD]: [fail(SHOULD, 'e', 'a', [])] }), runErrors: [] }],
  ['a partial run (--only)', { meta: runMetadata({ suites: ['auth'], selection: { suites: [], only: [A], skip: [] } }), tests: tests().filter((t) => t.requirements.includes(A)), runErrors: [], selection: { suites: [], only: [A], skip: [] }, suitesRun: ['auth'] }],
  ['a partial run (--suite) of one area', { meta: runMetadata({ suites: ['auth'], selection: { suites: ['auth'], only: [], skip: [] } }), tests: tests().filter((t) => t.title.startsWith('auth/')), runErrors: [], selection: { suites: ['auth'], only: [], skip: [] }, suitesRun: ['auth'] }],
  [
    'waivers: waived, expired, fixed and unmet',
    {
      meta: runMetadata({ expectations: 'waivers.yaml' }),
      tests: tests({ [A]: [fail(A, 'e', 'a', [])], [B]: [fail(B, 'e', 'a', [])], [C]: [fail(C, 'e', 'a', [])] }),
      runErrors: [],
      expectations: {
        [A]: { status: 'fail', reason: 'known', issue: 'https://example.com/1' },
        [B]: { status: 'fail', reason: 'old', expires: '2020-01-01' },
        [D]: { status: 'fail', reason: 'fixed since' },
        [C]: { status: 'not-run', reason: 'unmet' },
      },
    },
  ],
  [
    // The preflight's last probe went unanswered, yet the run refused the target on an earlier answer (exit 2).
    'a preflight that refused the target while its last probe got no answer',
    { meta: runMetadata(), tests: [], runErrors: [], stopped: { at: 'preflight', outcome: 'refused', reason: 'not an ASI v1 server', exchanges: [getExchange(1), { ...getExchange(2), response: undefined }] } },
  ],
  ['a run cut short, with a run error', { meta: runMetadata(), tests: tests(), runErrors: ['auth: boom'], cutShort: 'interrupted by SIGINT' }],
  ['limits other than the spec\'s', { meta: runMetadata({ limits: { read: 30, write: 10, windowS: 4 }, certifying: false, notCertifyingBecause: ["the profile's limits (30 reads and 10 writes per 4 s) differ from the spec's (600 and 60 per 60 s)"] }), tests: tests(), runErrors: [] }],
];

describe('rederivedReport', () => {
  test.each(CASES)('%s: buildReport again on what report.json keeps gives the same verdicts, outcome and exit code', (_name, inputs) => {
    const report = buildReport(inputs);
    expect(facts(rederivedReport(roundTrip(report)))).toEqual(facts(report));
    expect(reportVerdicts(memoryBundle(report)).problems).toEqual([]);
  });

  test('a baseline gate: the exit code re-derives as certify gates it', () => {
    const before = buildReport({ meta: runMetadata(), tests: tests({ [A]: [fail(A, 'e', 'a', [])] }), runErrors: [] });
    const report = buildReport({ meta: runMetadata(), tests: tests({ [A]: [fail(A, 'e', 'a', [])] }), runErrors: [] });
    report.baselineDiff = diffReports(before, report);
    report.exitCode = 0;
    expect(rederivedReport(roundTrip(report)).exitCode).toBe(0);
    expect(reportVerdicts(memoryBundle(report)).problems).toEqual([]);
  });
});

describe('reportVerdicts on an edited report', () => {
  // A copy: the report's requirements are the catalogue's own objects until written.
  const base = (): Report => roundTrip(buildReport(CASES[1]![1]));

  test('a verdict, a level, a count, an outcome: each named with what the findings give', () => {
    const report = base();
    report.results.find((r) => r.requirement.id === A)!.verdict = 'pass';
    (report.results.find((r) => r.requirement.id === SHOULD)!.requirement as { level: string }).level = 'INFO';
    report.outcome = 'incomplete';
    const { problems } = reportVerdicts(memoryBundle(report));
    expect(problems.map((p) => `${p.requirement ?? '-'}: ${p.message}`)).toEqual([
      `${A}: says verdict "pass"; its findings give "fail"`,
      expect.stringMatching(new RegExp(`^${SHOULD}: shows the requirement as .*"level":"INFO".*; the catalogue says .*"level":"SHOULD"`)),
      '-: says outcome "incomplete"; the verdicts give "not-conformant"',
    ]);
  });

  test('a failing finding removed is caught by the verdict it leaves', () => {
    const report = base();
    const result = report.results.find((r) => r.requirement.id === A)!;
    result.findings = result.findings.filter((f) => f.verdict !== 'fail');
    const lines = reportVerdicts(memoryBundle(report)).problems.map((p) => `${p.requirement ?? '-'}: ${p.message}`);
    expect(lines[0]).toBe(`${A}: says verdict "fail"; its findings give "pass"`);
  });

  test('a finding moved under another requirement, a result removed: each named', () => {
    const report = base();
    const a = report.results.find((r) => r.requirement.id === A)!;
    const b = report.results.find((r) => r.requirement.id === B)!;
    b.findings.push(a.findings.shift()!);
    report.results = report.results.filter((r) => r.requirement.id !== E);
    const lines = reportVerdicts(memoryBundle(report)).problems.map((p) => `${p.requirement ?? '-'}: ${p.message}`);
    expect(lines).toContain(`${B}: finding 3 is about "${A}", not this requirement`);
    expect(lines).toContain(`${E}: has no result for this requirement; its findings give "uncovered"`);
  });

  test('a report that does not match its schema is one problem, and nothing is re-derived from it', () => {
    const report = base();
    (report.results[0] as { verdict: string }).verdict = 'excellent';
    expect(reportVerdicts(memoryBundle(report))).toEqual({
      checked: 'verdicts not re-derived: report.json cannot be read',
      problems: [{ file: 'report.json', message: expect.stringMatching(/^does not match report\.schema\.json: \/results\/0\/verdict must be equal to one of the allowed values \(/) }],
    });
  });
});
