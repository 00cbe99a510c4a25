import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Ajv2020, type CodeOptions, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { callableExport } from '../commonjs-export.ts';
import { PACKAGE_ROOT } from '../package-root.ts';
import { SSE_EVENT_NAMES, type SseEventName } from '../spec-constants.ts';
import { CONTRACT_FILE, loadContract } from './contract-document.ts';
import { isUtcDateTime } from './utc-date-time.ts';

/** One schema violation, as ajv reports it (errors are data). */
export type SchemaProblem = { instancePath: string; keyword: string; message: string };

export type ComponentName = 'CreditOperation' | 'CreditsOperations' | 'Error';
export const COMPONENT_NAMES: readonly ComponentName[] = ['CreditOperation', 'CreditsOperations', 'Error'];

const CONTRACT_ID = 'https://asi-conformance.invalid/contract/asi-v1.openapi.yaml';
const EVENTS_FILE = join(PACKAGE_ROOT, 'lib', 'contract', 'events.schema.json');
const EVENTS_ID = 'https://asi-conformance.invalid/contract/events.schema.json';

/**
 * The validators as code, as the build writes them (bin/build.mjs, lib/built-validators.ts):
 * compiling the contract's schemas took each thread of a run about 70 ms. Found from the package
 * root, so that the suites, which run lib/'s sources, load them too; taken only when they were
 * made from the sources here now (BUILT_SOURCES_DIGEST), else the schemas are compiled.
 */
export const BUILT_CONTRACT_VALIDATORS = join(PACKAGE_ROOT, 'dist', 'contract', 'contract-validators.built.js');

export const addFormats = callableExport<(ajv: Ajv2020) => Ajv2020>(addFormatsModule);

export interface ContractValidators {
  component: Record<ComponentName, ValidateFunction>;
  event: Record<SseEventName, ValidateFunction>;
}

/** What the validators are made of: the contract, the events' schemas, the date-time format, this module and ajv. */
export function builtSourcesDigest(): string {
  const hash = createHash('sha256');
  for (const file of [CONTRACT_FILE, EVENTS_FILE, join(PACKAGE_ROOT, 'lib', 'contract', 'utc-date-time.ts'), join(PACKAGE_ROOT, 'lib', 'contract', 'validate.ts')]) {
    const data = readFileSync(file);
    hash.update(`${file.slice(PACKAGE_ROOT.length)}\0${data.length}\0`).update(data);
  }
  const ajvVersion = (JSON.parse(readFileSync(createRequire(import.meta.url).resolve('ajv/package.json'), 'utf8')) as { version: string }).version;
  return hash.update(`ajv ${ajvVersion}`).digest('hex');
}

/** The contract's schemas in one ajv; `code` for the build's standalone code. */
export function contractAjv(code?: CodeOptions): Ajv2020 {
  // strict off: the contract's schemas sit inside an OpenAPI document whose other keywords
  // (paths, description texts of OAS objects) are not JSON Schema. The schemas themselves are
  // checked against the OAS 3.1 document schema by the contract's own tests.
  const ajv = new Ajv2020({ allErrors: true, strict: false, allowUnionTypes: true, validateSchema: false, ...(code === undefined ? {} : { code }) });
  addFormats(ajv);
  // > timestamp | string, date-time | yes | Always output as full ISO 8601 with a trailing `Z`.
  // ajv-formats' date-time accepts offsets and lowercase; the spec wants UTC written as `Z`.
  ajv.addFormat('date-time', isUtcDateTime);
  // Local refs in the contract (`#/components/schemas/...`) resolve against this wrapper.
  ajv.addSchema({ $id: CONTRACT_ID, components: loadContract()['components'] });
  ajv.addSchema({ ...(JSON.parse(readFileSync(EVENTS_FILE, 'utf8')) as Record<string, unknown>), $id: EVENTS_ID });
  return ajv;
}

/** The schema id of each validator, by the name of its export in the build's module. */
export function contractValidatorRefs(): Record<string, string> {
  return {
    ...Object.fromEntries(COMPONENT_NAMES.map((name) => [`component_${name}`, `${CONTRACT_ID}#/components/schemas/${name}`])),
    ...Object.fromEntries(SSE_EVENT_NAMES.map((name) => [`event_${name}`, `${EVENTS_ID}#/$defs/${name}`])),
  };
}

function byName(lookup: (exportName: string) => ValidateFunction | undefined): ContractValidators {
  const get = (name: string): ValidateFunction => lookup(name) ?? missing(name);
  return {
    component: Object.fromEntries(COMPONENT_NAMES.map((n) => [n, get(`component_${n}`)])) as Record<ComponentName, ValidateFunction>,
    event: Object.fromEntries(SSE_EVENT_NAMES.map((n) => [n, get(`event_${n}`)])) as Record<SseEventName, ValidateFunction>,
  };
}

export function compiledContractValidators(): ContractValidators {
  const ajv = contractAjv();
  const refs = contractValidatorRefs();
  return byName((name) => (refs[name] === undefined ? undefined : ajv.getSchema(refs[name])));
}

/** The build's validators, when there are some and they were made from these sources. */
export async function builtContractValidators(file = BUILT_CONTRACT_VALIDATORS): Promise<ContractValidators | undefined> {
  if (!existsSync(file)) return undefined;
  const built = (await import(pathToFileURL(file).href)) as Record<string, ValidateFunction | string | undefined>;
  if (built['BUILT_SOURCES_DIGEST'] !== builtSourcesDigest()) return undefined;
  return byName((name) => built[name] as ValidateFunction | undefined);
}

const built = await builtContractValidators();
let compiled: ContractValidators | undefined;

function validators(): ContractValidators {
  compiled ??= built ?? compiledContractValidators();
  return compiled;
}

function missing(name: string): never {
  throw new Error(`the contract defines no schema "${name}" (lib/contract is incomplete)`);
}

function problems(validate: ValidateFunction, value: unknown): SchemaProblem[] {
  if (validate(value)) return [];
  return (validate.errors ?? []).map((e: ErrorObject) => ({ instancePath: e.instancePath, keyword: e.keyword, message: e.message ?? e.keyword }));
}

/** Violations of a contract component schema by `value`; empty when it conforms. */
export function validateComponent(name: ComponentName, value: unknown): SchemaProblem[] {
  return problems(validators().component[name], value);
}

/** Violations of the §6 data schema of `event` by `value` (the parsed `data:` JSON); empty when it conforms. */
export function validateEventData(event: SseEventName, value: unknown): SchemaProblem[] {
  return problems(validators().event[event], value);
}
