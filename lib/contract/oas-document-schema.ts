import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { callableExport } from '../commonjs-export.ts';
import { PACKAGE_ROOT } from '../package-root.ts';
import type { SchemaProblem } from './validate.ts';

/** The OpenAPI Initiative's schema for OAS 3.1 documents (see the license note next to it). */
export const OAS_SCHEMA_FILE = join(PACKAGE_ROOT, 'lib', 'contract', 'oas-3.1-schema.json');

const JSON_SCHEMA_2020_12 = 'https://json-schema.org/draft/2020-12/schema';
/** Dialects whose Schema Objects are JSON Schema 2020-12 plus OAS keywords the meta-schema lets through. */
export const OAS_DIALECTS: ReadonlySet<string> = new Set([
  JSON_SCHEMA_2020_12,
  'https://spec.openapis.org/oas/3.1/dialect/base',
  'https://spec.openapis.org/oas/3.1/dialect/2024-10-25',
  'https://spec.openapis.org/oas/3.1/dialect/2024-11-10',
]);

const addFormats = callableExport<(ajv: Ajv2020) => Ajv2020>(addFormatsModule);

// RFC 9110 §12.5.1 media-range: `type/subtype`, `type/*` or `*/*`, then `; name=value` parameters.
const TOKEN = "[!#$%&'*+.^_`|~0-9A-Za-z-]+";
const MEDIA_RANGE = new RegExp(`^${TOKEN}/${TOKEN}(?:[ \\t]*;[ \\t]*${TOKEN}=(?:${TOKEN}|"(?:[^"\\\\]|\\\\.)*"))*$`);

/** The text with ajv's `$dynamicRef` trouble (ajv #1573, #1745) worked around, as data. */
function patchedSchema(): Record<string, unknown> {
  const text = readFileSync(OAS_SCHEMA_FILE, 'utf8').replaceAll('"$dynamicRef": "#meta"', '"$ref": "#/$defs/schema"');
  return JSON.parse(text) as Record<string, unknown>;
}

interface Compiled {
  document: ValidateFunction;
  schemaObject: ValidateFunction;
}

let compiled: Compiled | undefined;

function validators(): Compiled {
  if (compiled !== undefined) return compiled;
  // strict off: the OAS schema uses keywords and formats ajv's strict mode refuses to guess about.
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  addFormats(ajv);
  ajv.addFormat('media-range', MEDIA_RANGE);
  const document = ajv.compile(patchedSchema());
  const schemaObject = ajv.getSchema(JSON_SCHEMA_2020_12);
  if (schemaObject === undefined) throw new Error(`ajv did not register the meta-schema ${JSON_SCHEMA_2020_12}`);
  compiled = { document, schemaObject };
  return compiled;
}

function asProblems(errors: ErrorObject[] | null | undefined, prefix = ''): SchemaProblem[] {
  return (errors ?? []).map((e) => ({ instancePath: `${prefix}${e.instancePath}`, keyword: e.keyword, message: e.message ?? e.keyword }));
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function pointer(segments: ReadonlyArray<string | number>): string {
  return segments.map((s) => `/${String(s).replaceAll('~', '~0').replaceAll('/', '~1')}`).join('');
}

/**
 * Where the Schema Objects of a document sit: components.schemas, and the `schema` of
 * parameters, headers and media types anywhere in paths, webhooks and components. Nested
 * schemas are left to the meta-schema, which walks them itself.
 */
function schemaObjects(document: Record<string, unknown>): Array<{ at: string; schema: unknown }> {
  const found: Array<{ at: string; schema: unknown }> = [];
  const components = document['components'];
  if (isRecord(components) && isRecord(components['schemas'])) {
    for (const [name, schema] of Object.entries(components['schemas'])) found.push({ at: pointer(['components', 'schemas', name]), schema });
  }
  const visit = (node: unknown, path: Array<string | number>, parentKey: string | undefined): void => {
    if (Array.isArray(node)) {
      node.forEach((item, i) => visit(item, [...path, i], parentKey));
      return;
    }
    if (!isRecord(node)) return;
    for (const [key, value] of Object.entries(node)) {
      // A `schema` member of a parameter, header or media type; component schemas were taken above.
      if (key === 'schema' && parentKey !== 'schemas' && !(path[0] === 'components' && path[1] === 'schemas')) {
        found.push({ at: pointer([...path, key]), schema: value });
        continue;
      }
      if (path.length === 0 && key !== 'paths' && key !== 'webhooks' && key !== 'components') continue;
      if (path[0] === 'components' && path.length === 1 && key === 'schemas') continue;
      // Example values and extensions are free data: a `schema` key inside them is no Schema Object.
      if (key === 'example' || key === 'examples' || key.startsWith('x-')) continue;
      visit(value, [...path, key], key);
    }
  };
  visit(document, [], undefined);
  return found;
}

/**
 * Violations of the OAS 3.1 document schema by `document`, then violations of the JSON Schema
 * 2020-12 meta-schema by each Schema Object in it (the OAS schema checks only that a Schema
 * Object is an object or a boolean). Empty when both pass.
 */
export function validateOasDocument(document: unknown): SchemaProblem[] {
  const { document: validateDocument, schemaObject } = validators();
  const problems = validateDocument(document) ? [] : asProblems(validateDocument.errors);
  if (!isRecord(document)) return problems;
  // A document or a schema may pick another dialect; the 2020-12 meta-schema then does not apply.
  const dialect = document['jsonSchemaDialect'];
  if (dialect !== undefined && !OAS_DIALECTS.has(String(dialect))) return problems;
  for (const { at, schema } of schemaObjects(document)) {
    if (isRecord(schema) && schema['$schema'] !== undefined && !OAS_DIALECTS.has(String(schema['$schema']))) continue;
    if (!schemaObject(schema)) problems.push(...asProblems(schemaObject.errors, at));
  }
  return problems;
}
