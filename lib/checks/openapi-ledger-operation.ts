import { fail, inconclusive, pass, type Finding } from '../model/finding.ts';
import {
  FEATURE_LENGTH_MAX,
  FEATURE_LENGTH_MIN,
  LEDGER_LIMIT_DEFAULT,
  LEDGER_LIMIT_MAX,
  LEDGER_LIMIT_MIN,
  LEDGER_PATH,
} from '../spec-constants.ts';
import { isObject } from './json-body.ts';
import { DOCUMENT_PATHS, parsedDocuments, type ServedDocument } from './openapi-documents.ts';
import { resolveLocal } from './openapi-local-ref.ts';
import { judged } from './judged.ts';

const LEDGER_OPERATION = 'openapi/4.1/ledger-operation';
const LEDGER_DETAILS = 'openapi/4.1/ledger-details-stated';

/** §4.1: "Operation id: `getCreditsOperations`." */
export const LEDGER_OPERATION_ID = 'getCreditsOperations';
/** §4.1: "Tag: Credits." */
const LEDGER_TAG = 'Credits';
/** §4.1 Responses table. */
export const LEDGER_RESPONSES = ['200', '400', '401', '429', '503'] as const;

interface ParameterExpectation {
  name: string;
  type: 'string' | 'integer';
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  default?: number;
}

/** §4.1 query parameters ("all optional") with the types and constraints §4.1 and §8.3 fix. */
const LEDGER_PARAMETERS: readonly ParameterExpectation[] = [
  { name: 'from', type: 'string' },
  { name: 'to', type: 'string' },
  { name: 'feature', type: 'string', minLength: FEATURE_LENGTH_MIN, maxLength: FEATURE_LENGTH_MAX },
  { name: 'cursor', type: 'string' },
  { name: 'limit', type: 'integer', minimum: LEDGER_LIMIT_MIN, maximum: LEDGER_LIMIT_MAX, default: LEDGER_LIMIT_DEFAULT },
];

/** What a description says against the spec (contradictions: the MUST) and what it leaves unstated (omissions: the INFO). */
interface Review {
  contradictions: string[];
  omissions: string[];
  /** Whether the description states the operation at GET /credits/operations. */
  located?: boolean;
}

/**
 * The schemas that all apply to a value: the schema itself, what its `$ref` points to and the
 * members of its `allOf`, recursively. `opaque` when a combinator the harness does not evaluate
 * (anyOf, oneOf, not, if, a reference it cannot follow) could add constraints.
 */
function applicableSchemas(document: unknown, schema: unknown, depth = 0): { facets: Record<string, unknown>[]; opaque: boolean } {
  if (!isObject(schema) || depth > 16) return { facets: [], opaque: depth > 16 };
  const facets: Record<string, unknown>[] = [schema];
  let opaque = ['anyOf', 'oneOf', 'not', 'if', '$dynamicRef'].some((k) => k in schema);
  const parts: unknown[] = Array.isArray(schema['allOf']) ? [...(schema['allOf'] as unknown[])] : [];
  if (typeof schema['$ref'] === 'string') {
    const target = resolveLocal(document, { $ref: schema['$ref'] });
    if (target.ok) parts.push(target.value);
    else opaque = true;
  }
  for (const part of parts) {
    const sub = applicableSchemas(document, part, depth + 1);
    facets.push(...sub.facets);
    opaque ||= sub.opaque;
  }
  return { facets, opaque };
}

function numbers(facets: Record<string, unknown>[], keyword: string): number[] {
  return facets.map((f) => f[keyword]).filter((v): v is number => typeof v === 'number');
}

/** The tightest integer bound the facets state, or undefined when none does. */
function integerBound(facets: Record<string, unknown>[], side: 'lower' | 'upper'): number | undefined {
  const candidates =
    side === 'lower'
      ? [...numbers(facets, 'minimum').map(Math.ceil), ...numbers(facets, 'exclusiveMinimum').map((v) => Math.floor(v) + 1)]
      : [...numbers(facets, 'maximum').map(Math.floor), ...numbers(facets, 'exclusiveMaximum').map((v) => Math.ceil(v) - 1)];
  if (candidates.length === 0) return undefined;
  return side === 'lower' ? Math.max(...candidates) : Math.min(...candidates);
}

function lengthBound(facets: Record<string, unknown>[], keyword: 'minLength' | 'maxLength'): number | undefined {
  const values = numbers(facets, keyword);
  if (values.length === 0) return undefined;
  return keyword === 'minLength' ? Math.max(...values) : Math.min(...values);
}

/** Types every facet allows (their intersection), or undefined when no facet states one. */
function statedTypes(facets: Record<string, unknown>[]): string[] | undefined {
  let types: string[] | undefined;
  for (const f of facets) {
    const t = f['type'];
    const list = typeof t === 'string' ? [t] : Array.isArray(t) ? t.filter((x): x is string => typeof x === 'string') : undefined;
    if (list === undefined) continue;
    types = types === undefined ? list : types.filter((x) => list.includes(x));
  }
  return types;
}

function reviewSchema(document: unknown, expected: ParameterExpectation, schema: unknown): Review {
  const review: Review = { contradictions: [], omissions: [] };
  const name = expected.name;
  const { facets, opaque } = applicableSchemas(document, schema);
  if (facets.length === 0) {
    review.omissions.push(`${name}: no schema`);
    return review;
  }
  const types = statedTypes(facets);
  if (types === undefined) review.omissions.push(`${name}: no type (spec: ${expected.type})`);
  else if (!types.includes(expected.type)) {
    // An integer parameter described as `number` is looser than the spec, not contrary to it.
    if (expected.type === 'integer' && types.includes('number')) review.omissions.push(`${name}: type number (spec: integer)`);
    else review.contradictions.push(`${name}: type ${JSON.stringify(types.length === 1 ? types[0] : types)} (spec: ${expected.type})`);
  }
  const bounds: Array<[string, number | undefined, number | undefined]> = [];
  if (expected.minimum !== undefined) bounds.push(['minimum', expected.minimum, integerBound(facets, 'lower')]);
  if (expected.maximum !== undefined) bounds.push(['maximum', expected.maximum, integerBound(facets, 'upper')]);
  if (expected.minLength !== undefined) bounds.push(['minLength', expected.minLength, lengthBound(facets, 'minLength')]);
  if (expected.maxLength !== undefined) bounds.push(['maxLength', expected.maxLength, lengthBound(facets, 'maxLength')]);
  for (const [keyword, want, stated] of bounds) {
    if (stated === undefined) review.omissions.push(`${name}: no ${keyword}${opaque ? ' the harness can read' : ''} (spec: ${want})`);
    else if (stated !== want) review.contradictions.push(`${name}: ${keyword} ${stated} (spec: ${want})`);
  }
  if (expected.default !== undefined) {
    const stated = facets.find((f) => 'default' in f)?.['default'];
    if (stated === undefined) review.omissions.push(`${name}: no default (spec: ${expected.default})`);
    else if (stated !== expected.default) review.contradictions.push(`${name}: default ${JSON.stringify(stated)} (spec: ${expected.default})`);
  }
  return review;
}

/** The parameter's schema: `schema`, or the one media type's schema when it uses `content`. */
function parameterSchema(parameter: Record<string, unknown>): unknown {
  if ('schema' in parameter) return parameter['schema'];
  const content = parameter['content'];
  if (!isObject(content)) return undefined;
  const media = Object.values(content)[0];
  return isObject(media) ? media['schema'] : undefined;
}

/** Operation-level parameters override path-level ones of the same name and location. */
function effectiveParameters(document: unknown, pathItem: Record<string, unknown>, operation: Record<string, unknown>, problems: string[]): Record<string, unknown>[] {
  const byKey = new Map<string, Record<string, unknown>>();
  for (const list of [pathItem['parameters'], operation['parameters']]) {
    if (!Array.isArray(list)) continue;
    for (const entry of list) {
      const resolved = resolveLocal(document, entry);
      if (!resolved.ok) {
        problems.push(`a parameter: ${resolved.why}`);
        continue;
      }
      if (!isObject(resolved.value)) continue;
      byKey.set(`${String(resolved.value['in'])}:${String(resolved.value['name'])}`, resolved.value);
    }
  }
  return [...byKey.values()];
}

/** The §4.1 path in the description: `/credits/operations`, or `/v1/credits/operations` when its servers stop at the host. */
function findLedgerPath(paths: Record<string, unknown>): string | undefined {
  return [LEDGER_PATH, `/v1${LEDGER_PATH}`].find((p) => Object.hasOwn(paths, p));
}

function operationIdPaths(document: unknown, paths: Record<string, unknown>): string[] {
  const found: string[] = [];
  for (const [path, item] of Object.entries(paths)) {
    const resolved = resolveLocal(document, item);
    if (!resolved.ok || !isObject(resolved.value)) continue;
    for (const [method, op] of Object.entries(resolved.value)) {
      if (isObject(op) && op['operationId'] === LEDGER_OPERATION_ID) found.push(`${method.toUpperCase()} ${path}`);
    }
  }
  return found;
}

/**
 * Contradictions and omissions of the description's getCreditsOperations against §4.1 and §8.3,
 * by one rule: what the description states otherwise than the spec (another operationId, path,
 * tag, bound, default or type; a parameter it makes required) contradicts it; what it leaves
 * unstated (the operation, a parameter, a response, an operationId, a type, a bound, a default,
 * a tag) is an omission, never a contradiction.
 */
export function reviewLedgerOperation(document: Record<string, unknown>): Review {
  const review: Review = { contradictions: [], omissions: [] };
  const paths = resolveLocal(document, document['paths']);
  if (!paths.ok || !isObject(paths.value)) {
    review.omissions.push('the description has no paths');
    return review;
  }
  const path = findLedgerPath(paths.value);
  const elsewhere = operationIdPaths(document, paths.value);
  const item = path === undefined ? undefined : resolveLocal(document, paths.value[path]);
  const operation = item?.ok === true && isObject(item.value) ? item.value['get'] : undefined;
  if (path === undefined || item === undefined || !item.ok || !isObject(item.value) || !isObject(operation)) {
    const missing = path === undefined ? `no path ${LEDGER_PATH}` : `no GET operation at ${path}${item?.ok === false ? ` (${item.why})` : ''}`;
    // Stated at another path, the operation contradicts §4.1; absent, it is only left out.
    if (elsewhere.length > 0) review.contradictions.push(`${missing} (operationId ${LEDGER_OPERATION_ID} sits at ${elsewhere.join(', ')})`);
    else review.omissions.push(missing);
    return review;
  }
  review.located = true;
  // > Operation id: `getCreditsOperations`.
  const operationId = operation['operationId'];
  if (operationId === undefined) review.omissions.push(`GET ${path} has no operationId (spec: ${LEDGER_OPERATION_ID})`);
  else if (operationId !== LEDGER_OPERATION_ID) {
    const other = elsewhere.length > 0 ? `; ${LEDGER_OPERATION_ID} sits at ${elsewhere.join(', ')}` : '';
    review.contradictions.push(`GET ${path} has operationId ${JSON.stringify(operationId)}${other}`);
  }
  // > Tag: Credits.
  const tags = operation['tags'];
  if (tags === undefined) review.omissions.push(`GET ${path} has no tags (spec: ${LEDGER_TAG})`);
  else if (!Array.isArray(tags) || !tags.includes(LEDGER_TAG)) review.contradictions.push(`GET ${path} has tags ${JSON.stringify(tags)}, without ${LEDGER_TAG}`);

  // > Query parameters (all optional):
  const problems: string[] = [];
  const parameters = effectiveParameters(document, item.value, operation, problems);
  review.omissions.push(...problems);
  for (const expected of LEDGER_PARAMETERS) {
    const named = parameters.filter((p) => p['name'] === expected.name);
    const query = named.find((p) => p['in'] === 'query');
    if (query === undefined) {
      // A parameter of that name elsewhere (a header) is another parameter: the query one is left out.
      const where = named.map((p) => JSON.stringify(p['in'])).join(', ');
      review.omissions.push(`no query parameter ${expected.name}${where === '' ? '' : ` (declared in ${where})`}`);
      continue;
    }
    if (query['required'] === true) review.contradictions.push(`${expected.name}: required (spec: optional)`);
    const sub = reviewSchema(document, expected, parameterSchema(query));
    review.contradictions.push(...sub.contradictions);
    review.omissions.push(...sub.omissions);
  }

  // > Responses: 200, 400, 401, 429, 503. A range key (`4XX`) or `default` describes them too (OAS 3.1 §4.8.16).
  const responses = resolveLocal(document, operation['responses']);
  const declared = responses.ok && isObject(responses.value) ? responses.value : {};
  const covers = (code: string): boolean => Object.hasOwn(declared, code) || Object.keys(declared).some((k) => k.toUpperCase() === `${code[0]}XX` || k === 'default');
  const missing = LEDGER_RESPONSES.filter((code) => !covers(code));
  if (missing.length > 0) review.omissions.push(`responses ${missing.join(', ')} not declared`);
  return review;
}

/**
 * ledger-operation (MUST: nothing the description states contradicts §4.1) and
 * ledger-details-stated (INFO: it states everything §4.1 and §8.3 fix: the operation, its query
 * parameters and responses, every type, bound, default and tag), read from the JSON document, or
 * the YAML one when the JSON one cannot be read.
 */
export const ledgerOperationFindings = judged('openapi-ledger-operation/ledgerOperationFindings', function ledgerOperationFindings(documents: readonly ServedDocument[]): Finding[] {
  const document = parsedDocuments(documents)[0];
  if (document === undefined) {
    const ex = documents.map((d) => d.exchange);
    return [inconclusive(LEDGER_OPERATION, 'neither document could be read', ex), inconclusive(LEDGER_DETAILS, 'neither document could be read', ex)];
  }
  const ex = [document.exchange];
  const where = DOCUMENT_PATHS[document.format];
  const review = reviewLedgerOperation(document.parsed.value);
  const unstated = review.located === true ? undefined : `${where} states no GET ${LEDGER_PATH}: nothing in it contradicts §4.1 (${LEDGER_DETAILS} notes the omission)`;
  return [
    review.contradictions.length === 0
      ? pass(LEDGER_OPERATION, ex, unstated)
      : fail(
          LEDGER_OPERATION,
          `GET ${LEDGER_PATH} as ${LEDGER_OPERATION_ID}: optional query parameters from, to, feature (length ${FEATURE_LENGTH_MIN}..${FEATURE_LENGTH_MAX}), cursor, limit (integer ${LEDGER_LIMIT_MIN}..${LEDGER_LIMIT_MAX}, default ${LEDGER_LIMIT_DEFAULT}), where the description states them`,
          `${where}: ${review.contradictions.join('; ')}`,
          ex,
        ),
    review.omissions.length === 0
      ? pass(LEDGER_DETAILS, ex)
      : fail(
          LEDGER_DETAILS,
          `getCreditsOperations at GET ${LEDGER_PATH}, its five query parameters with the types, bounds and default of §4.1 and §8.3, the ${LEDGER_TAG} tag and the responses ${LEDGER_RESPONSES.join(', ')}, stated in the description`,
          `${where}: ${review.omissions.join('; ')}`,
          ex,
        ),
  ];
});
