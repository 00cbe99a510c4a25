import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020, type ErrorObject } from 'ajv/dist/2020.js';
import { TargetsError } from '../errors.ts';
import { PACKAGE_ROOT } from '../package-root.ts';
import { keyOf } from '../profile/load-profile.ts';
import { readUserYaml } from '../user-file.ts';

export const TARGETS_SCHEMA_FILE = join(PACKAGE_ROOT, 'config', 'targets.schema.json');

/** What a run of each target may be told, at the top (for every target) or per target. */
export interface RunChoices {
  suite?: string[];
  only?: string[];
  skip?: string[];
  fail_on?: 'must' | 'should';
  timeout?: number;
}

/** One target of a matrix file (config/targets.schema.json): exactly one of profile, base_url, reference. */
export interface TargetEntry extends RunChoices {
  name: string;
  profile?: string;
  base_url?: string;
  reference?: { defects?: string[]; variants?: string[] };
  label?: string;
  version?: string;
  seed?: number;
  expect?: string;
}

/** A matrix file as written; key names are fixed, like the profile's. */
export interface TargetsFile extends RunChoices {
  targets: TargetEntry[];
  concurrency?: number;
  out?: string;
  seed?: number;
  sign_key?: string;
}

let validator: ReturnType<InstanceType<typeof Ajv2020>['compile']> | undefined;

function schemaErrors(value: unknown): ErrorObject[] {
  // strictRequired off: the oneOf that says which kind a target is requires keys its parent defines.
  validator ??= new Ajv2020({ allErrors: true, strict: true, strictRequired: false, verbose: true, validateSchema: false }).compile(JSON.parse(readFileSync(TARGETS_SCHEMA_FILE, 'utf8')) as object);
  return validator(value) ? [] : [...(validator.errors ?? [])];
}

function shownValue(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 60)}…` : text;
}

/** The most telling schema error as one clause: which key, what was expected, what was found. */
function firstProblem(errors: ErrorObject[]): { key: string; message: string } {
  // Which kind a target is reads better as one sentence than as three failed branches of a oneOf.
  const kind = errors.find((e) => e.keyword === 'oneOf' && /^\/targets\/\d+$/.test(e.instancePath));
  if (kind !== undefined) {
    const given = ['profile', 'base_url', 'reference'].filter((k) => k in (kind.data as object));
    return {
      key: keyOf(kind.instancePath),
      message: `needs exactly one of profile (a profile file), base_url or reference (the embedded reference), got ${given.length === 0 ? 'none' : given.join(' and ')}`,
    };
  }
  const ordered = errors.filter((e) => e.keyword !== 'oneOf').sort((a, b) => b.instancePath.length - a.instancePath.length);
  const e = ordered.find((x) => x.keyword === 'additionalProperties') ?? ordered[0] ?? errors[0]!;
  const key = keyOf(e.instancePath);
  const parent = e.parentSchema as { properties?: Record<string, unknown>; description?: string } | undefined;
  switch (e.keyword) {
    case 'additionalProperties': {
      const extra = (e.params as { additionalProperty: string }).additionalProperty;
      return { key: key === '' ? extra : `${key}.${extra}`, message: `unknown key; expected one of ${Object.keys(parent?.properties ?? {}).join(', ')}` };
    }
    case 'required': {
      const missing = (e.params as { missingProperty: string }).missingProperty;
      return { key: key === '' ? missing : `${key}.${missing}`, message: 'is required but missing' };
    }
    case 'enum':
      return { key, message: `expected one of ${(e.params as { allowedValues: unknown[] }).allowedValues.join(', ')}, got ${shownValue(e.data)}` };
    case 'type':
      return { key, message: `expected ${(e.params as { type: string }).type}, got ${shownValue(e.data)}` };
    case 'pattern':
      return { key, message: `${shownValue(e.data)} is not valid${parent?.description === undefined ? '' : `: ${parent.description}`}` };
    case 'minItems':
      return { key, message: key === 'targets' ? 'expected at least one target' : (e.message ?? 'is too short') };
    default:
      return { key, message: `${e.message ?? 'is invalid'}, got ${shownValue(e.data)}` };
  }
}

/**
 * Reads and validates a matrix file (`asi-conformance matrix FILE`); a problem is one TargetsError
 * naming the key (exit 2). Two targets may not share a name: it is their column and their folder.
 */
export function loadTargetsFile(file: string): TargetsFile {
  const value = readUserYaml(file, (message) => new TargetsError(file, '', message));
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new TargetsError(file, '', `expected a mapping with a list of targets, got ${shownValue(value)}`);
  }
  const errors = schemaErrors(value);
  if (errors.length > 0) {
    const { key, message } = firstProblem(errors);
    throw new TargetsError(file, key, message);
  }
  const parsed = value as TargetsFile;
  const seen = new Map<string, number>();
  for (const [i, t] of parsed.targets.entries()) {
    const first = seen.get(t.name.toLowerCase());
    // Case-blind: the name is a folder, and some file systems fold case.
    if (first !== undefined) throw new TargetsError(file, `targets[${i}].name`, `${JSON.stringify(t.name)} is the name of targets[${first}] already; each target needs its own`);
    seen.set(t.name.toLowerCase(), i);
  }
  return parsed;
}
