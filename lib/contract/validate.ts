import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { PACKAGE_ROOT } from '../package-root.ts';
import type { SseEventName } from '../spec-constants.ts';
import { loadContract } from './contract-document.ts';
import { isUtcDateTime } from './utc-date-time.ts';

/** One schema violation, as ajv reports it (errors are data). */
export type SchemaProblem = { instancePath: string; keyword: string; message: string };

export type ComponentName = 'CreditOperation' | 'CreditsOperations' | 'Error';

const CONTRACT_ID = 'https://asi-conformance.invalid/contract/asi-v1.openapi.yaml';
const EVENTS_FILE = join(PACKAGE_ROOT, 'lib', 'contract', 'events.schema.json');
const EVENTS_ID = 'https://asi-conformance.invalid/contract/events.schema.json';

// ajv-formats is CommonJS: Node hands the plugin over as the default import, while its types
// describe the module object; take whichever is callable.
type FormatsPlugin = (ajv: Ajv2020) => Ajv2020;
export const addFormats = ((addFormatsModule as unknown as { default?: FormatsPlugin }).default ?? addFormatsModule) as unknown as FormatsPlugin;

interface Validators {
  component: Record<ComponentName, ValidateFunction>;
  event: Record<SseEventName, ValidateFunction>;
}

let compiled: Validators | undefined;

function validators(): Validators {
  if (compiled !== undefined) return compiled;
  // strict off: the contract's schemas sit inside an OpenAPI document whose other keywords
  // (paths, description texts of OAS objects) are not JSON Schema. The schemas themselves are
  // checked against the OAS 3.1 document schema by the contract's own tests.
  const ajv = new Ajv2020({ allErrors: true, strict: false, allowUnionTypes: true, validateSchema: false });
  addFormats(ajv);
  // > timestamp | string, date-time | yes | Always output as full ISO 8601 with a trailing `Z`.
  // ajv-formats' date-time accepts offsets and lowercase; the spec wants UTC written as `Z`.
  ajv.addFormat('date-time', isUtcDateTime);
  const contract = loadContract();
  // Local refs in the contract (`#/components/schemas/...`) resolve against this wrapper.
  ajv.addSchema({ $id: CONTRACT_ID, components: contract['components'] });
  ajv.addSchema({ ...(JSON.parse(readFileSync(EVENTS_FILE, 'utf8')) as Record<string, unknown>), $id: EVENTS_ID });
  const component = (name: ComponentName): ValidateFunction => ajv.getSchema(`${CONTRACT_ID}#/components/schemas/${name}`) ?? missing(name);
  const event = (name: SseEventName): ValidateFunction => ajv.getSchema(`${EVENTS_ID}#/$defs/${name}`) ?? missing(name);
  compiled = {
    component: { CreditOperation: component('CreditOperation'), CreditsOperations: component('CreditsOperations'), Error: component('Error') },
    event: { text_delta: event('text_delta'), tool_use: event('tool_use'), tool_result: event('tool_result'), done: event('done'), error: event('error') },
  };
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
