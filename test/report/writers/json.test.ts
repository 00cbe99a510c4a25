import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import type { Exchange, RecordedRequest, RecordedResponse, SseEventRecord } from '../../../lib/model/exchange.ts';
import type { Finding, PropertyEvidence } from '../../../lib/model/finding.ts';
import type { Area, Requirement } from '../../../lib/model/requirement.ts';
import { buildReport } from '../../../lib/report/build-report.ts';
import type {
  AppliedWaiver,
  BaselineDiff,
  IncompleteItem,
  Observed,
  Report,
  RequestCount,
  RequirementResult,
  RunMetadata,
  RunStop,
  VerdictChange,
} from '../../../lib/report/report-model.ts';
import { reportJson, reportJsonPieces } from '../../../lib/report/writers/json.ts';
import { jsonText } from '../../../lib/model/json-text.ts';
import { cutShortReport, preflightExchanges, refusedReport, requirementsOf, runMetadata, sampleReport, streamExchange } from '../report-fixtures.ts';

const schema = JSON.parse(readFileSync(new URL('../../../lib/report/report.schema.json', import.meta.url), 'utf8')) as {
  properties: Record<string, unknown>;
  $defs: Record<string, { properties: Record<string, unknown> } & Record<string, unknown>>;
};

// ajv-formats is CommonJS: the default import is the plugin at run time, the module to the types.
type FormatsPlugin = (ajv: Ajv2020) => Ajv2020;
const addFormats = ((addFormatsModule as unknown as { default?: FormatsPlugin }).default ?? addFormatsModule) as unknown as FormatsPlugin;

function validator() {
  const ajv = new Ajv2020({ allErrors: true, strict: true });
  addFormats(ajv);
  return ajv.compile(schema);
}

function problems(value: unknown): string[] {
  const validate = validator();
  return validate(value) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message ?? e.keyword}`);
}

describe('report.json', () => {
  test('is written in pieces that join into exactly what JSON.stringify writes, invisible format characters escaped', () => {
    const report = buildReport({ meta: runMetadata(), tests: [], runErrors: ['line one\nline two \u202e', 'a'], cutShort: 'x' });
    for (const r of [sampleReport(), refusedReport(), cutShortReport(), report, { ...report, results: [] }]) {
      expect(reportJson(r)).toBe(`${jsonText(r, 2)}\n`);
      expect([...reportJsonPieces(r)].length).toBeGreaterThan(r.results.length);
    }
    expect(reportJson(report)).toContain('\\u202e');
  });

  test('the sample report validates against report.schema.json', () => {
    expect(problems(JSON.parse(reportJson(sampleReport())))).toEqual([]);
  });

  test('a report built from the catalogue validates', () => {
    const f = requirementsOf.fail;
    const report = buildReport({
      meta: runMetadata(),
      tests: [{ title: `${f.id} streams`, requirements: [f.id], findings: [], durationMs: 12 }],
      runErrors: ['auth: boom'],
      expectations: { [f.id]: { status: 'fail', reason: 'known', issue: 'https://example.com/1', expires: '2999-01-01' } },
      cutShort: 'interrupted by SIGINT',
      observed: { errorCodes: { 'GET /me 401': ['auth.token_missing'] }, fields: { error: { bodies: 2, counts: { code: 2, details: 1 } } } },
    });
    report.baselineDiff = {
      baseline: { runId: 'r0', tool: 'asi-conformance 0.1.0', startedAt: '2026-01-01T00:00:00.000Z' },
      newFailures: [{ id: f.id, before: 'pass', after: 'fail' }],
      fixed: [],
      stillFailing: [],
      otherChanges: [],
      added: ['x/1/y'],
      removed: [],
      codesGone: [{ situation: 'GET /me 401', before: ['a'], after: ['b'] }],
      fieldsGone: [{ kind: 'error', fields: ['details'] }],
      regressed: true,
    };
    expect(problems(JSON.parse(reportJson(report)))).toEqual([]);
  });

  test('a run the preflight ended validates, refused (exit 2), unreachable or interrupted (exit 3); so does a run cut short', () => {
    expect(problems(JSON.parse(reportJson(refusedReport())))).toEqual([]);
    expect(problems(JSON.parse(reportJson(cutShortReport())))).toEqual([]);
    for (const outcome of ['refused', 'unreachable', 'incomplete'] as const) {
      const report = buildReport({ meta: runMetadata(), tests: [], runErrors: [], stopped: { at: 'preflight', outcome, reason: 'why', exchanges: preflightExchanges() } });
      expect(report.exitCode).toBe(outcome === 'refused' ? 2 : 3);
      expect(problems(JSON.parse(reportJson(report)))).toEqual([]);
    }
  });

  test('the schema version says what changed: 3 adds the outcomes a preflight gives', () => {
    expect(sampleReport().schemaVersion).toBe(3);
    expect(buildReport({ meta: runMetadata(), tests: [], runErrors: [] }).schemaVersion).toBe(3);
    const version = schema.properties['schemaVersion'] as { const: number; description: string };
    expect(version.const).toBe(3);
    expect(version.description).toMatch(/^3: outcomes refused and unreachable/);
    const outcome = schema.properties['outcome'] as { enum: string[] };
    expect(outcome.enum).toEqual(expect.arrayContaining(['refused', 'unreachable']));
  });

  test('every optional field present validates', () => {
    const report = sampleReport();
    const ex: Exchange = { ...streamExchange(9), error: { code: 'ASI_BODY_TOO_LARGE', message: 'cut' } };
    report.results[0]!.findings.push({ requirement: 'auth/5.1/bearer-accepted', verdict: 'pass', expected: 'e', actual: 'a', note: 'n', exchanges: [ex] });
    report.results[0]!.reason = 'r';
    expect(problems(JSON.parse(reportJson(report)))).toEqual([]);
  });

  test('the schema rejects a wrong verdict, a missing field and an unknown field', () => {
    const report = JSON.parse(reportJson(sampleReport())) as Report & Record<string, unknown>;
    report.results[0]!.verdict = 'passed' as never;
    delete (report.meta as Partial<RunMetadata>).seed;
    report['extra'] = true;
    const found = problems(report).join('\n');
    expect(found).toMatch(/\/results\/0\/verdict/);
    expect(found).toMatch(/\/meta must have required property 'seed'/);
    expect(found).toMatch(/must NOT have additional properties/);
  });

  test('the JSON round-trips the report unchanged', () => {
    const report = sampleReport();
    expect(JSON.parse(reportJson(report))).toEqual(report);
  });
});

/**
 * The schema names exactly the model's fields. Each list is checked by the compiler against the
 * type (a field added to the model breaks the typecheck here) and by this test against the schema.
 */
describe('report.schema.json follows the model', () => {
  const keys = <T>() => <K extends Record<keyof T, true>>(k: K & Record<Exclude<keyof K, keyof T>, never>) => Object.keys(k).sort();
  const cases: Array<[string, string[]]> = [
    [
      '#',
      keys<Report>()({
        schemaVersion: true, meta: true, outcome: true, exitCode: true, counts: true, results: true, incomplete: true, runErrors: true, cutShort: true,
        stopped: true, observed: true, baselineDiff: true, coverage: true,
      }),
    ],
    [
      'RunMetadata',
      keys<RunMetadata>()({
        runId: true, tool: true, node: true, startedAt: true, finishedAt: true, durationMs: true, target: true, certifying: true, limits: true,
        seed: true, contractDigest: true, suites: true, failOn: true, failOnCoverage: true, requests: true, pacingWaitMs: true, argv: true, implementation: true,
        notCertifyingBecause: true, selection: true, profile: true, expectations: true, baseline: true,
      }),
    ],
    ['RequestCount', keys<RequestCount>()({ role: true, pool: true, requests: true })],
    ['RequirementResult', keys<RequirementResult>()({ requirement: true, verdict: true, findings: true, tests: true, reason: true, unchosen: true, durationMs: true, waiver: true })],
    ['AppliedWaiver', keys<AppliedWaiver>()({ status: true, reason: true, issue: true, expires: true, state: true })],
    ['IncompleteItem', keys<IncompleteItem>()({ id: true, verdict: true, reason: true })],
    ['RunStop', keys<RunStop>()({ at: true, reason: true, exchanges: true, outcome: true })],
    ['Observed', keys<Observed>()({ errorCodes: true, fields: true })],
    ['VerdictChange', keys<VerdictChange>()({ id: true, before: true, after: true })],
    [
      'BaselineDiff',
      keys<BaselineDiff>()({
        baseline: true, newFailures: true, fixed: true, stillFailing: true, otherChanges: true, notChosen: true, added: true, removed: true, codesGone: true, fieldsGone: true,
        regressed: true,
      }),
    ],
    ['Requirement', keys<Requirement>()({ id: true, level: true, area: true, section: true, statement: true, quote: true })],
    ['Finding', keys<Finding>()({ requirement: true, verdict: true, expected: true, actual: true, note: true, exchanges: true, property: true, judgement: true })],
    ['PropertyEvidence', keys<PropertyEvidence>()({ seed: true, path: true, numRuns: true, counterexample: true, requests: true, replay: true })],
    ['Exchange', keys<Exchange>()({ seq: true, startedAt: true, request: true, response: true, error: true, timings: true, pool: true, faults: true })],
    ['RecordedRequest', keys<RecordedRequest>()({ method: true, url: true, headers: true, body: true, tokenRole: true, transport: true })],
    [
      'RecordedResponse',
      keys<RecordedResponse>()({
        status: true, headers: true, body: true, bodyBytes: true, encodedBytes: true, truncated: true, events: true, eventsOmitted: true, chunkTimes: true, chunkTimesOmitted: true, streamClosed: true,
      }),
    ],
    ['SseEventRecord', keys<SseEventRecord>()({ event: true, data: true, id: true, atMs: true })],
  ];
  test.each(cases)('%s', (def, modelKeys) => {
    const properties = def === '#' ? schema.properties : schema.$defs[def]!.properties;
    expect(Object.keys(properties).sort()).toEqual(modelKeys);
  });

  test('areas', () => {
    const areas = { openapi: true, unauthenticated: true, auth: true, errors: true, ledger: true, ratelimit: true, conversation: true } satisfies Record<Area, true>;
    const requirement = schema.$defs['Requirement']!.properties['area'] as { enum: string[] };
    expect([...requirement.enum].sort()).toEqual(Object.keys(areas).sort());
  });
});
