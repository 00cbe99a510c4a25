import type { Exchange } from '../model/exchange.ts';
import { fail, inconclusive, pass, type Finding } from '../model/finding.ts';
import type { Pool } from '../spec-constants.ts';
import { describeResponse, isObject, jsonBody } from './json-body.ts';
import { errorCode, exchangeLabel, isLimiterUnavailable } from './rate-limit-headers.ts';
import { judged } from './judged.ts';

const DELAY_SECONDS = /^\d+$/;

/** Whether the target refused the request for its pool (HTTP 429). */
export function isRefusal(exchange: Exchange): boolean {
  return exchange.response?.status === 429;
}

/**
 * A 429 recorded while the spend-cap hook was on, under a code other than `rate_limit.exceeded`:
 * the cap's own answer, which §8.2 does not show ("the exact response on reaching the cap: not
 * shown"), not the refusal of an exhausted pool.
 */
export function isSpendCapOwnRefusal(exchange: Exchange): boolean {
  return isRefusal(exchange) && (exchange.faults ?? []).includes('spend_cap_reached') && errorCode(exchange) !== 'rate_limit.exceeded';
}

/**
 * Whether the pool served the request: any answer but 429, 401 (no pool sees it) and the
 * limiter-down 503 (no pool was asked).
 */
export function isServed(exchange: Exchange): boolean {
  const s = exchange.response?.status;
  return s !== undefined && s !== 429 && s !== 401 && !isLimiterUnavailable(exchange);
}

/**
 * Whether the pool surely spent a point on the request: served (isServed), but not a 404. A 404
 * names an agent or a job that does not exist, which a server may look up before its limiter or
 * after it (register, "Which answers carry the pool headers"): it spent one point or none. Counts
 * that a limit bounds from above take only these; counts it bounds from below take isServed.
 */
export function isSurelyCharged(exchange: Exchange): boolean {
  return isServed(exchange) && exchange.response?.status !== 404;
}

/** Retry-After as the integer of seconds §8.1 fixes, or undefined. */
export function retryAfterSeconds(exchange: Exchange): number | undefined {
  const v = exchange.response?.headers['retry-after'];
  return v !== undefined && DELAY_SECONDS.test(v) ? Number(v) : undefined;
}

function notA429(requirement: string, exchange: Exchange): Finding {
  return inconclusive(requirement, `no 429 to examine: ${exchangeLabel(exchange)}`, [exchange]);
}

function errorObject(exchange: Exchange): { error: Record<string, unknown> } | { why: string } {
  const body = jsonBody(exchange);
  if (!body.ok) return { why: body.why };
  if (!isObject(body.value)) return { why: 'body is not a JSON object' };
  const e = body.value['error'];
  if (!isObject(e)) return { why: 'body has no `error` object' };
  return { error: e };
}

/** What keeps a 429 from being the §7 refusal (`rate_limit.exceeded`, `rate_limited`, a message); empty when it is one. */
export function refusalCodeProblems(exchange: Exchange): string[] {
  const parsed = errorObject(exchange);
  if ('why' in parsed) return [`${parsed.why}: ${describeResponse(exchange)}`];
  const { code, category, message } = parsed.error;
  const problems: string[] = [];
  if (code !== 'rate_limit.exceeded') problems.push(`code ${JSON.stringify(code)}`);
  if (category !== 'rate_limited') problems.push(`category ${JSON.stringify(category)}`);
  if (typeof message !== 'string') problems.push(`message ${JSON.stringify(message)}`);
  return problems;
}

/** §7 known codes: `429 | rate_limit.exceeded | rate_limited`, in the envelope (code, category, message). */
export const refusalCodeFinding = judged('rate-limit-refusal/refusalCodeFinding', function refusalCodeFinding(requirement: string, exchange: Exchange): Finding {
  if (!isRefusal(exchange)) return notA429(requirement, exchange);
  const problems = refusalCodeProblems(exchange);
  const expected = 'the §7 envelope with code `rate_limit.exceeded`, category `rate_limited` and a string message';
  return problems.length === 0 ? pass(requirement, [exchange]) : fail(requirement, expected, problems.join(', '), [exchange]);
});

/** Why a 429's `request_id` is not X-Request-Id's (missing, not a string, another value), or undefined when it is. */
export function refusalRequestIdProblem(exchange: Exchange): string | undefined {
  const parsed = errorObject(exchange);
  if ('why' in parsed) return `${parsed.why}: ${describeResponse(exchange)}`;
  const id = parsed.error['request_id'];
  const header = exchange.response?.headers['x-request-id'];
  if (id === undefined) return 'error.request_id is missing: the body follows the published 429 example (code, category, message), which omits it';
  if (typeof id !== 'string') return `error.request_id is ${JSON.stringify(id)}, not a string`;
  if (id !== header) return `request_id ${JSON.stringify(id)}, X-Request-Id ${header === undefined ? 'absent' : JSON.stringify(header)}`;
  return undefined;
}

/**
 * §7 lists `request_id` as required and equal to X-Request-Id; the spec's published 429 example
 * leaves it out. The schema is the rule, the example an illustration: a 429 without it fails, and
 * the failure names the discrepancy so a reader sees where the server's shape came from.
 */
export const refusalRequestIdFinding = judged('rate-limit-refusal/refusalRequestIdFinding', function refusalRequestIdFinding(requirement: string, exchange: Exchange): Finding {
  if (!isRefusal(exchange)) return notA429(requirement, exchange);
  const problem = refusalRequestIdProblem(exchange);
  const expected = 'error.request_id, a string equal to the X-Request-Id header (required by the §7 envelope schema)';
  return problem === undefined ? pass(requirement, [exchange]) : fail(requirement, expected, problem, [exchange]);
});

/** A 429 names the exhausted pool and says it holds nothing: X-RateLimit-Remaining 0. */
export const refusalRemainingZeroFinding = judged('rate-limit-refusal/refusalRemainingZeroFinding', function refusalRemainingZeroFinding(requirement: string, exchange: Exchange, pool: Pool): Finding {
  if (!isRefusal(exchange)) return notA429(requirement, exchange);
  const h = exchange.response!.headers;
  const expected = `X-RateLimit-Pool "${pool}" and X-RateLimit-Remaining 0 on the 429`;
  const remaining = h['x-ratelimit-remaining'];
  if (remaining !== '0') return fail(requirement, expected, `X-RateLimit-Remaining ${remaining === undefined ? 'absent' : JSON.stringify(remaining)}`, [exchange]);
  return pass(requirement, [exchange]);
});

/** Why a 429's Retry-After is not an integer of seconds (absent, an HTTP date, anything else), or undefined when it is. */
export function retryAfterProblem(exchange: Exchange): string | undefined {
  const v = exchange.response?.headers['retry-after'];
  if (v === undefined) return 'Retry-After is absent';
  if (DELAY_SECONDS.test(v)) return undefined;
  const kind = Number.isNaN(Date.parse(v)) ? '' : ' (an HTTP date: legal in HTTP, but §8.1 fixes an integer of seconds)';
  return `Retry-After is ${JSON.stringify(v)}${kind}`;
}

/** §8.1: "Retry-After | integer | 429 responses only: seconds until the next request will succeed." */
export const retryAfterIntegerFinding = judged('rate-limit-refusal/retryAfterIntegerFinding', function retryAfterIntegerFinding(requirement: string, exchange: Exchange): Finding {
  if (!isRefusal(exchange)) return notA429(requirement, exchange);
  const problem = retryAfterProblem(exchange);
  return problem === undefined ? pass(requirement, [exchange]) : fail(requirement, 'a Retry-After header with an integer of seconds', problem, [exchange]);
});
