import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import type { Exchange, RecordedRequest, RecordedResponse, SseEventRecord } from '../../../lib/model/exchange.ts';
import type { Finding, PropertyEvidence } from '../../../lib/model/finding.ts';
import type { Area, Requirement } from '../../../lib/model/requirement.ts';
import { buildReport } from '../../../lib/report/build-report.ts';
import type { Report, RequestCount, RequirementResult, RunMetadata } from '../../../lib/report/report-model.ts';
import { reportJson } from '../../../lib/report/writers/json.ts';
import { requirementsOf, runMetadata, sampleReport, streamExchange } from '../report-fixtures.ts';

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
  test('the sample report validates against report.schema.json', () => {
    expect(problems(JSON.parse(reportJson(sampleReport())))).toEqual([]);
  });

  test('a report built from the catalogue validates', () => {
    const f = requirementsOf.fail;
    const report = buildReport(runMetadata(), [{ suite: 'conversation', title: `${f.id} streams`, state: 'failed', requirements: [f.id], findings: [], requests: 1 }], ['auth: boom']);
    expect(problems(JSON.parse(reportJson(report)))).toEqual([]);
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
    ['#', keys<Report>()({ schemaVersion: true, meta: true, outcome: true, exitCode: true, counts: true, results: true, runErrors: true })],
    [
      'RunMetadata',
      keys<RunMetadata>()({
        runId: true, tool: true, node: true, startedAt: true, finishedAt: true, durationMs: true, target: true, certifying: true, limits: true,
        seed: true, contractDigest: true, suites: true, failOn: true, requests: true, pacingWaitMs: true, argv: true,
      }),
    ],
    ['RequestCount', keys<RequestCount>()({ role: true, pool: true, requests: true })],
    ['RequirementResult', keys<RequirementResult>()({ requirement: true, verdict: true, findings: true, tests: true, reason: true })],
    ['Requirement', keys<Requirement>()({ id: true, level: true, area: true, section: true, statement: true, quote: true })],
    ['Finding', keys<Finding>()({ requirement: true, verdict: true, expected: true, actual: true, note: true, exchanges: true, property: true })],
    ['PropertyEvidence', keys<PropertyEvidence>()({ seed: true, path: true, numRuns: true, counterexample: true, requests: true })],
    ['Exchange', keys<Exchange>()({ seq: true, startedAt: true, request: true, response: true, error: true, timings: true, pool: true })],
    ['RecordedRequest', keys<RecordedRequest>()({ method: true, url: true, headers: true, body: true, tokenRole: true })],
    [
      'RecordedResponse',
      keys<RecordedResponse>()({
        status: true, headers: true, body: true, bodyBytes: true, truncated: true, events: true, eventsOmitted: true, chunkTimes: true, chunkTimesOmitted: true, streamClosed: true,
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
