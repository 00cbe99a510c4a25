import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { addFormats } from '../contract/validate.ts';
import type { Exchange } from '../model/exchange.ts';
import { PACKAGE_ROOT } from '../package-root.ts';
import type { Report } from '../report/report-model.ts';
import { REPORT_FILE_NAMES } from '../report/write-reports.ts';
import { isExchange } from '../report/writers/transcript.ts';
import { EXCHANGES_RECORD } from './bundle-layout.ts';
import type { OpenedBundle } from './open-bundle.ts';
import { shown, type VerifyProblem } from './verify-problem.ts';

/**
 * The bundle's report.json and exchange record as data, read once per bundle and shared by every
 * step of verify. A report that is not JSON or does not match report.schema.json is one problem,
 * and the steps that need it do not run: they would judge a shape they cannot trust.
 */

export const REPORT_NAME = REPORT_FILE_NAMES.json;
const REPORT_SCHEMA_FILE = join(PACKAGE_ROOT, 'lib', 'report', 'report.schema.json');

let validator: ValidateFunction | undefined;

function validate(value: unknown): string | undefined {
  if (validator === undefined) {
    // The schema is the harness's own, checked against the meta-schema by its self-tests: checking it
    // again on every verify would only cost time.
    const ajv = new Ajv2020({ allErrors: false, strict: true, validateSchema: false });
    addFormats(ajv);
    validator = ajv.compile(JSON.parse(readFileSync(REPORT_SCHEMA_FILE, 'utf8')) as object);
  }
  if (validator(value)) return undefined;
  const e = validator.errors?.[0];
  return e === undefined ? 'does not match report.schema.json' : `does not match report.schema.json: ${e.instancePath || '(the top)'} ${e.message ?? e.keyword}${e.keyword === 'enum' || e.keyword === 'const' ? ` (${shown(e.params)})` : ''}`;
}

const reports = new WeakMap<OpenedBundle, { report: Report } | { problem: VerifyProblem }>();

/** report.json of the bundle, parsed and checked against its schema, or the problem that stops it. */
export function bundledReport(bundle: OpenedBundle): { report: Report } | { problem: VerifyProblem } {
  const known = reports.get(bundle);
  if (known !== undefined) return known;
  let result: { report: Report } | { problem: VerifyProblem };
  const bytes = bundle.files.get(REPORT_NAME);
  if (bytes === undefined) result = { problem: { file: REPORT_NAME, message: 'is missing: nothing to re-derive' } };
  else {
    let value: unknown;
    try {
      value = JSON.parse(bytes.toString('utf8')) as unknown;
    } catch (err) {
      value = err as Error;
    }
    const why = value instanceof Error ? `is not JSON (${value.message})` : validate(value);
    result = why === undefined ? { report: value as Report } : { problem: { file: REPORT_NAME, message: why } };
  }
  reports.set(bundle, result);
  return result;
}

/** The exchange record: every exchange by its sequence number, and the lines that held none. */
export interface ExchangeRecord {
  bySeq: Map<number, Exchange>;
  /** Lines that are not an exchange (a run cut off mid-write leaves a partial last line). */
  unreadable: number[];
  /** Sequence numbers recorded more than once. */
  repeated: number[];
}

const records = new WeakMap<OpenedBundle, ExchangeRecord | undefined>();

/** record/exchanges.jsonl as exchanges by sequence number; undefined when the bundle has no record. */
export function exchangeRecord(bundle: OpenedBundle): ExchangeRecord | undefined {
  if (records.has(bundle)) return records.get(bundle);
  const lines = bundle.recordLines(EXCHANGES_RECORD);
  let record: ExchangeRecord | undefined;
  if (lines !== undefined) {
    record = { bySeq: new Map(), unreadable: [], repeated: [] };
    for (const l of lines) {
      const exchange = l.value;
      if (!isExchange(exchange)) record.unreadable.push(l.line);
      else if (record.bySeq.has(exchange.seq)) record.repeated.push(exchange.seq);
      else record.bySeq.set(exchange.seq, exchange);
    }
  }
  records.set(bundle, record);
  return record;
}
