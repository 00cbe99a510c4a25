import type { Exchange } from '../model/exchange.ts';
import { fail, pass, type Finding } from '../model/finding.ts';
import { ERROR_CATEGORIES, KNOWN_ERROR_CODES, type ErrorCategory } from '../spec-constants.ts';
import { describeResponse, isObject, jsonBody } from './json-body.ts';

export interface ErrorObject {
  code: string;
  category: string;
  message: string;
  request_id: string;
  details?: unknown;
}

export type EnvelopeParse = { ok: true; error: ErrorObject } | { ok: false; problems: string[] };

/**
 * §7: "a JSON object with one key `error`, an object with" code, category, message, request_id
 * (strings, required) and details (object, optional). Extra fields inside `error` are allowed:
 * the spec does not forbid them.
 */
export function parseEnvelope(exchange: Exchange): EnvelopeParse {
  const body = jsonBody(exchange);
  if (!body.ok) return { ok: false, problems: [body.why] };
  const v = body.value;
  if (!isObject(v)) return { ok: false, problems: ['body is not a JSON object'] };
  const keys = Object.keys(v);
  const problems: string[] = [];
  if (keys.length !== 1 || keys[0] !== 'error') problems.push(`top-level keys are [${keys.join(', ')}], expected exactly [error]`);
  const e = v['error'];
  if (!isObject(e)) return { ok: false, problems: [...problems, '`error` is not an object'] };
  for (const field of ['code', 'category', 'message', 'request_id'] as const) {
    if (!(field in e)) problems.push(`error.${field} is missing`);
    else if (typeof e[field] !== 'string') problems.push(`error.${field} is ${JSON.stringify(e[field])}, not a string`);
  }
  if ('details' in e && !isObject(e['details'])) problems.push(`error.details is ${JSON.stringify(e['details'])}, not an object`);
  if (problems.length > 0) return { ok: false, problems };
  return { ok: true, error: e as unknown as ErrorObject };
}

const ENVELOPE = 'errors/7/envelope';
const CATEGORY = 'errors/7/category-value';
const REQUEST_ID = 'errors/7/request-id-header';
const KNOWN = 'errors/7/known-code-status';

/**
 * The §7 findings every error response earns: envelope shape, category value, request_id equal
 * to X-Request-Id, and for a known code the status and category of the table.
 */
export function envelopeFindings(exchange: Exchange): Finding[] {
  const ex = [exchange];
  const parsed = parseEnvelope(exchange);
  if (!parsed.ok) return [fail(ENVELOPE, 'the §7 error envelope', `${parsed.problems.join('; ')} in ${describeResponse(exchange)}`, ex)];
  const { error } = parsed;
  const findings: Finding[] = [pass(ENVELOPE, ex)];
  findings.push(
    (ERROR_CATEGORIES as readonly string[]).includes(error.category)
      ? pass(CATEGORY, ex)
      : fail(CATEGORY, `category one of ${ERROR_CATEGORIES.join(', ')}`, `category ${JSON.stringify(error.category)}`, ex),
  );
  const header = exchange.response?.headers['x-request-id'];
  findings.push(
    header === error.request_id
      ? pass(REQUEST_ID, ex)
      : fail(REQUEST_ID, `error.request_id equal to the X-Request-Id header`, `request_id ${JSON.stringify(error.request_id)}, X-Request-Id ${header === undefined ? 'absent' : JSON.stringify(header)}`, ex),
  );
  const known = (KNOWN_ERROR_CODES as Record<string, { status: number; category: ErrorCategory }>)[error.code];
  if (known !== undefined) {
    const status = exchange.response?.status;
    findings.push(
      status === known.status && error.category === known.category
        ? pass(KNOWN, ex)
        : fail(KNOWN, `${error.code} with HTTP ${known.status} and category ${known.category}`, `HTTP ${status} and category ${error.category}`, ex),
    );
  }
  return findings;
}

/**
 * The envelope findings of a response when it is an error (status ≥ 400), none otherwise: only
 * error responses are bound to the envelope.
 */
export function envelopeFindingsIfError(exchange: Exchange): Finding[] {
  return (exchange.response?.status ?? 0) >= 400 ? envelopeFindings(exchange) : [];
}

export interface ErrorExpectation {
  status: number;
  /** One code, or any of several; omit when the spec does not name the code. */
  code?: string | readonly string[];
  category?: ErrorCategory;
}

/**
 * One requirement's finding for an error the spec fixes: the status, and the code and category
 * when given, read from a well-formed envelope.
 */
export function expectError(requirement: string, exchange: Exchange, expected: ErrorExpectation): Finding {
  const ex = [exchange];
  const codes = expected.code === undefined ? undefined : typeof expected.code === 'string' ? [expected.code] : expected.code;
  const want = [
    `HTTP ${expected.status}`,
    ...(codes === undefined ? [] : [`code ${codes.join(' or ')}`]),
    ...(expected.category === undefined ? [] : [`category ${expected.category}`]),
  ].join(', ');
  const status = exchange.response?.status;
  if (status !== expected.status) return fail(requirement, want, describeResponse(exchange), ex);
  const parsed = parseEnvelope(exchange);
  if (!parsed.ok) return fail(requirement, `${want} in the §7 envelope`, `${status} with ${parsed.problems.join('; ')}`, ex);
  const { code, category } = parsed.error;
  if (codes !== undefined && !codes.includes(code)) return fail(requirement, want, `HTTP ${status}, code ${code}, category ${category}`, ex);
  if (expected.category !== undefined && category !== expected.category) return fail(requirement, want, `HTTP ${status}, code ${code}, category ${category}`, ex);
  return pass(requirement, ex);
}
