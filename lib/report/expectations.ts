import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020, type ErrorObject } from 'ajv/dist/2020.js';
import { requirementById } from '../catalogue/index.ts';
import { ExpectationsError } from '../errors.ts';
import { PACKAGE_ROOT } from '../package-root.ts';
import { readUserYaml } from '../user-file.ts';
import { keyOf } from '../profile/load-profile.ts';
import { didYouMean } from '../catalogue/selection.ts';
import type { AppliedWaiver } from './report-model.ts';

export const EXPECTATIONS_SCHEMA_FILE = join(PACKAGE_ROOT, 'config', 'expectations.schema.json');

/** One entry of an expectations file (config/expectations.schema.json). */
export interface Expectation {
  status: AppliedWaiver['status'];
  reason: string;
  issue?: string;
  expires?: string;
}

export type Expectations = Record<string, Expectation>;

let validator: ReturnType<InstanceType<typeof Ajv2020>['compile']> | undefined;

function schemaErrors(value: unknown): ErrorObject[] {
  validator ??= new Ajv2020({ allErrors: true, strict: true, validateSchema: false }).compile(JSON.parse(readFileSync(EXPECTATIONS_SCHEMA_FILE, 'utf8')) as object);
  return validator(value) ? [] : [...(validator.errors ?? [])];
}

function firstProblem(errors: ErrorObject[]): { key: string; message: string } {
  const e = [...errors].sort((a, b) => b.instancePath.length - a.instancePath.length)[0]!;
  const key = keyOf(e.instancePath);
  switch (e.keyword) {
    case 'additionalProperties': {
      const extra = (e.params as { additionalProperty: string }).additionalProperty;
      return { key: key === '' ? extra : `${key}.${extra}`, message: 'unknown key; expected status, reason, issue or expires (or expectations at the top)' };
    }
    case 'required':
      return { key: `${key === '' ? '' : `${key}.`}${(e.params as { missingProperty: string }).missingProperty}`, message: 'is required but missing' };
    case 'enum':
      return { key, message: `expected one of ${(e.params as { allowedValues: unknown[] }).allowedValues.join(', ')}` };
    case 'pattern':
      return { key, message: key.endsWith('expires') ? 'expected a date YYYY-MM-DD' : key.endsWith('issue') ? 'expected an http(s) link' : `does not match ${(e.params as { pattern: string }).pattern}` };
    default:
      return { key, message: e.message ?? 'is invalid' };
  }
}

function isCalendarDate(text: string): boolean {
  const ms = Date.parse(`${text}T00:00:00Z`);
  return !Number.isNaN(ms) && new Date(ms).toISOString().slice(0, 10) === text;
}

/**
 * Reads and validates an expectations file (--expect). Every problem is one line naming the key;
 * an id the catalogue does not know is refused with the nearest ids, since a misspelt waiver would
 * silently waive nothing.
 */
export function loadExpectations(file: string, isKnown: (id: string) => boolean = (id) => requirementById(id) !== undefined): Expectations {
  const value = readUserYaml(file, (message) => new ExpectationsError(file, '', message));
  const errors = schemaErrors(value);
  if (errors.length > 0) {
    const { key, message } = firstProblem(errors);
    throw new ExpectationsError(file, key, message);
  }
  const expectations = (value as { expectations: Expectations }).expectations;
  for (const [id, e] of Object.entries(expectations)) {
    // The pattern takes 2027-02-30; a date that is not on the calendar would never expire as meant.
    if (e.expires !== undefined && !isCalendarDate(e.expires)) throw new ExpectationsError(file, `expectations.${id}.expires`, `${e.expires} is not a date on the calendar`);
  }
  for (const id of Object.keys(expectations)) {
    if (isKnown(id)) continue;
    const hints = didYouMean(id);
    throw new ExpectationsError(file, `expectations.${id}`, `is not a requirement id${hints.length > 0 ? `; did you mean ${hints.join(' or ')}?` : ''}`);
  }
  return expectations;
}

/**
 * Meets each result with its expectation: the expected verdict is waived (it does not count), a
 * pass means the waiver can go, a waiver past its date fails the run whatever the verdict, and any
 * other verdict counts as it is. `today` is the run's UTC date, YYYY-MM-DD.
 */
export function applyExpectations(results: ReadonlyArray<{ requirement: { id: string }; verdict: string; waiver?: AppliedWaiver }>, expectations: Expectations, today: string): void {
  for (const result of results) {
    const e = expectations[result.requirement.id];
    if (e === undefined) continue;
    const state: AppliedWaiver['state'] =
      e.expires !== undefined && today > e.expires ? 'expired' : result.verdict === e.status ? 'waived' : result.verdict === 'pass' ? 'fixed' : 'unmet';
    result.waiver = { status: e.status, reason: e.reason, ...(e.issue === undefined ? {} : { issue: e.issue }), ...(e.expires === undefined ? {} : { expires: e.expires }), state };
  }
}

/** A waiver's state in words, for every writer. */
export function waiverText(w: AppliedWaiver): string {
  const tail = `${w.reason}${w.issue === undefined ? '' : ` (${w.issue})`}`;
  switch (w.state) {
    case 'waived':
      return `waived: ${w.status} expected${w.expires === undefined ? '' : ` until ${w.expires}`}: ${tail}`;
    case 'fixed':
      return `fixed: it passes now; remove the waiver (${w.status} expected: ${tail})`;
    case 'expired':
      return `waiver expired on ${w.expires}: renew or fix it (${tail})`;
    case 'unmet':
      return `not waived: ${w.status} was expected (${tail})`;
  }
}
