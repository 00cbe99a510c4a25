import type { Exchange } from '../model/exchange.ts';
import { fail, pass, type Finding } from '../model/finding.ts';
import { ERROR_CATEGORIES, KNOWN_ERROR_CODES, type ErrorCategory } from '../spec-constants.ts';
import { describeResponse, isObject, jsonBody } from './json-body.ts';
import { judged } from './judged.ts';

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
 * (strings, required; `code` and `message` not blank) and details (object, optional). Extra fields inside `error` are allowed:
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
    // > code | string | yes | Stable error code.
    // Which codes 400s, 404s and 405s carry is not shown, but a blank string names no code.
    else if (field === 'code' && (e[field] as string).trim() === '') problems.push(`error.code is ${JSON.stringify(e[field])}, expected a code`);
    // > message | string | yes | Human-readable English text.
    // Its wording is never compared, but a blank string is no text at all.
    else if (field === 'message' && (e[field] as string).trim() === '') problems.push(`error.message is ${JSON.stringify(e[field])}, expected text`);
  }
  if ('details' in e && !isObject(e['details'])) problems.push(`error.details is ${JSON.stringify(e['details'])}, not an object`);
  if (problems.length > 0) return { ok: false, problems };
  return { ok: true, error: e as unknown as ErrorObject };
}

export const ENVELOPE = 'errors/7/envelope';
export const CATEGORY = 'errors/7/category-value';
export const REQUEST_ID = 'errors/7/request-id-header';
export const KNOWN = 'errors/7/known-code-status';

export type EnvelopeRequirement = typeof ENVELOPE | typeof CATEGORY | typeof REQUEST_ID | typeof KNOWN;

const ENVELOPE_EXPECTED: Record<EnvelopeRequirement, (code?: string) => string> = {
  [ENVELOPE]: () => 'the §7 error envelope',
  [CATEGORY]: () => `category one of ${ERROR_CATEGORIES.join(', ')}`,
  [REQUEST_ID]: () => 'error.request_id equal to the X-Request-Id header',
  [KNOWN]: (code) => {
    const known = code === undefined ? undefined : (KNOWN_ERROR_CODES as Record<string, { status: number; category: ErrorCategory }>)[code];
    return known === undefined ? 'the status and category the §7 table gives the code' : `${code} with HTTP ${known.status} and category ${known.category}`;
  },
};

/**
 * What §7 asks of one error response, requirement by requirement: the envelope's shape; then,
 * when it has one, the category value, request_id equal to X-Request-Id and, for a known code,
 * the status and category of the table. A requirement the response gives nothing to judge is
 * left out; an empty list means it holds.
 */
export function envelopeProblems(exchange: Exchange): { problems: Partial<Record<EnvelopeRequirement, string[]>>; code?: string } {
  const parsed = parseEnvelope(exchange);
  if (!parsed.ok) return { problems: { [ENVELOPE]: [`${parsed.problems.join('; ')} in ${describeResponse(exchange)}`] } };
  const { error } = parsed;
  const header = exchange.response?.headers['x-request-id'];
  const problems: Partial<Record<EnvelopeRequirement, string[]>> = {
    [ENVELOPE]: [],
    [CATEGORY]: (ERROR_CATEGORIES as readonly string[]).includes(error.category) ? [] : [`category ${JSON.stringify(error.category)}`],
    [REQUEST_ID]: header === error.request_id ? [] : [`request_id ${JSON.stringify(error.request_id)}, X-Request-Id ${header === undefined ? 'absent' : JSON.stringify(header)}`],
  };
  const known = (KNOWN_ERROR_CODES as Record<string, { status: number; category: ErrorCategory }>)[error.code];
  if (known !== undefined) {
    const status = exchange.response?.status;
    problems[KNOWN] = status === known.status && error.category === known.category ? [] : [`HTTP ${status} and category ${error.category}`];
  }
  return { problems, code: error.code };
}

/** What an envelope requirement asks, as a finding's `expected` (a known code names its row of the table). */
export function envelopeExpected(requirement: EnvelopeRequirement, code?: string): string {
  return ENVELOPE_EXPECTED[requirement](code);
}

/**
 * The §7 findings every error response earns: envelope shape, category value, request_id equal
 * to X-Request-Id, and for a known code the status and category of the table.
 */
export const envelopeFindings = judged('error-envelope/envelopeFindings', function envelopeFindings(exchange: Exchange): Finding[] {
  const ex = [exchange];
  const { problems, code } = envelopeProblems(exchange);
  return (Object.entries(problems) as Array<[EnvelopeRequirement, string[]]>).map(([id, found]) =>
    found.length === 0 ? pass(id, ex) : fail(id, envelopeExpected(id, code), found.join('; '), ex),
  );
});

/**
 * The envelope findings of a response when it is an error (status ≥ 400), none otherwise: only
 * error responses are bound to the envelope.
 */
export const envelopeFindingsIfError = judged('error-envelope/envelopeFindingsIfError', function envelopeFindingsIfError(exchange: Exchange): Finding[] {
  return (exchange.response?.status ?? 0) >= 400 ? envelopeFindings(exchange) : [];
});

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
export const expectError = judged('error-envelope/expectError', function expectError(requirement: string, exchange: Exchange, expected: ErrorExpectation): Finding {
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
});

/**
 * One requirement's finding for an answer the spec leaves to one of several errors (which of two
 * steps a server takes first, say): it holds when any expectation does. A failure says what each
 * would have been, and what came.
 */
export const expectOneOfErrors = judged('error-envelope/expectOneOfErrors', function expectOneOfErrors(requirement: string, exchange: Exchange, expected: readonly ErrorExpectation[]): Finding {
  const findings = expected.map((e) => expectError(requirement, exchange, e));
  const held = findings.find((f) => f.verdict === 'pass');
  if (held !== undefined || findings.length === 0) return held ?? pass(requirement, [exchange]);
  const closest = findings.find((_, i) => expected[i]!.status === exchange.response?.status) ?? findings[0]!;
  return { ...closest, expected: findings.map((f) => f.expected).join('; or ') };
});
