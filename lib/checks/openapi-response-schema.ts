import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import { isObject } from './json-body.ts';

/** The served document's base URI inside its own validator: local `$ref`s resolve against it. */
const DOCUMENT_ID = 'https://asi-conformance.invalid/served/openapi.json';
/** Problems listed per response; the rest are counted. */
export const LISTED_SCHEMA_PROBLEMS = 3;
/** Characters of a schema or a value quoted in a problem. */
const QUOTED_CHARS = 120;

type Compiled = ValidateFunction | { error: string };

interface DocumentValidators {
  ajv?: Ajv2020;
  /** Why the document could not be taken in at all. */
  error?: string;
  bySchema: Map<string, Compiled>;
}

const validators = new WeakMap<object, DocumentValidators>();

function message(err: unknown): string {
  return (err instanceof Error ? err.message : String(err)).split('\n')[0] ?? '';
}

/**
 * One validator per served document, with every Schema Object compiled once. JSON Schema 2020-12
 * (OAS 3.1 §4.8.24) with `format` as an annotation, as the 2020-12 format-annotation vocabulary
 * and the OAS base dialect have it: the project cannot judge formats reliably (ajv-formats'
 * date-time is lenient where the spec is strict), and the spec's own rules judge the values that
 * matter. Strict mode off: OAS keywords (`example`, `discriminator`, `xml`) sit in its schemas.
 * Remote references are never fetched: a schema that names one is not judged. ajv reads OAS
 * 3.0's `nullable: true` as allowing null, which 3.1 dropped: a null the author meant to allow is
 * not held against the server.
 */
function documentValidators(document: Record<string, unknown>): DocumentValidators {
  const known = validators.get(document);
  if (known !== undefined) return known;
  const made: DocumentValidators = { bySchema: new Map() };
  try {
    const ajv = new Ajv2020({ allErrors: true, strict: false, allowUnionTypes: true, validateFormats: false, validateSchema: false, verbose: true });
    ajv.addSchema(document, DOCUMENT_ID);
    made.ajv = ajv;
  } catch (err) {
    made.error = message(err);
  }
  validators.set(document, made);
  return made;
}

function compiled(document: Record<string, unknown>, schemaPointer: string): Compiled {
  const doc = documentValidators(document);
  if (doc.ajv === undefined) return { error: doc.error ?? 'the document cannot be compiled' };
  const known = doc.bySchema.get(schemaPointer);
  if (known !== undefined) return known;
  let made: Compiled;
  try {
    made = doc.ajv.compile({ $ref: `${DOCUMENT_ID}${schemaPointer}` });
  } catch (err) {
    made = { error: message(err) };
  }
  doc.bySchema.set(schemaPointer, made);
  return made;
}

function quoted(value: unknown): string {
  const text = JSON.stringify(value) ?? 'undefined';
  return text.length > QUOTED_CHARS ? `${text.slice(0, QUOTED_CHARS)}…` : text;
}

/** One violation, quoting what the description says and what the server sent. */
function problemText(e: ErrorObject): string {
  const at = e.instancePath === '' ? 'the body' : `\`${e.instancePath}\``;
  const says = 'the served description says';
  const params = e.params as Record<string, unknown>;
  if (e.keyword === 'required') return `${at}: ${says} ${quoted({ required: e.schema })}; the server sent an object without \`${String(params['missingProperty'])}\``;
  const extra = e.keyword === 'additionalProperties' ? params['additionalProperty'] : e.keyword === 'unevaluatedProperties' ? params['unevaluatedProperty'] : undefined;
  if (typeof extra === 'string') {
    const value = isObject(e.data) ? e.data[extra] : undefined;
    return `${at}: ${says} ${quoted({ [e.keyword]: e.schema })}; the server sent \`${extra}\`: ${quoted(value)}`;
  }
  return `${at}: ${says} ${quoted({ [e.keyword]: e.schema })}; the server sent ${quoted(e.data)}`;
}

/**
 * The errors worth quoting: a failed `anyOf` or `oneOf` is quoted whole, not through the
 * failures of each of its alternatives (an alternative failing says nothing on its own).
 */
function quotable(errors: readonly ErrorObject[]): ErrorObject[] {
  const combined = errors.some((e) => e.keyword === 'anyOf' || e.keyword === 'oneOf');
  return combined ? errors.filter((e) => !/\/(anyOf|oneOf)\/\d+(\/|$)/.test(e.schemaPath)) : [...errors];
}

export type SchemaJudgement = { judged: true; problems: string[] } | { judged: false; why: string };

/**
 * Validates a response body against the Schema Object at `schemaPointer` (a URI fragment) of the
 * served document: its violations, the first few quoted and the rest counted.
 */
export function schemaProblems(document: Record<string, unknown>, schemaPointer: string, value: unknown): SchemaJudgement {
  const validate = compiled(document, schemaPointer);
  if (typeof validate !== 'function') return { judged: false, why: validate.error };
  if (validate(value)) return { judged: true, problems: [] };
  const errors = quotable(validate.errors ?? []);
  const problems = errors.slice(0, LISTED_SCHEMA_PROBLEMS).map(problemText);
  if (errors.length > LISTED_SCHEMA_PROBLEMS) problems.push(`and ${errors.length - LISTED_SCHEMA_PROBLEMS} more`);
  return { judged: true, problems };
}
