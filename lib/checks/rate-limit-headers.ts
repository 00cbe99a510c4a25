import type { Exchange } from '../model/exchange.ts';
import { fail, pass, type Finding } from '../model/finding.ts';
import type { Limits } from '../profile/resolved-profile.ts';
import { UNAUTHENTICATED_PATHS, poolOfMethod } from '../spec-constants.ts';
import { jsonBody, isObject } from './json-body.ts';
import { poolHeaderAspects, type PoolHeaderAspects } from './pool-headers.ts';
import { judged } from './judged.ts';

/** `GET /me → 200`: enough to find an exchange in the evidence. */
export function exchangeLabel(exchange: Exchange): string {
  let target = exchange.request.url;
  try {
    const u = new URL(exchange.request.url);
    target = `${u.pathname}${u.search}`;
  } catch {
    // The recorded URL is always absolute; keep it as is otherwise.
  }
  const outcome = exchange.response === undefined ? (exchange.error?.code ?? 'no response') : String(exchange.response.status);
  return `${exchange.request.method} ${target} → ${outcome}`;
}

/** error.code of a JSON error envelope, or undefined. */
export function errorCode(exchange: Exchange): string | undefined {
  const body = jsonBody(exchange);
  if (!body.ok || !isObject(body.value) || !isObject(body.value['error'])) return undefined;
  const code = body.value['error']['code'];
  return typeof code === 'string' ? code : undefined;
}

/** §7 "503 | system.rate_limit_unavailable": the limiter store was down, so no pool was asked. */
export function isLimiterUnavailable(exchange: Exchange): boolean {
  return exchange.response?.status === 503 && errorCode(exchange) === 'system.rate_limit_unavailable';
}

function isUnauthenticatedRoute(exchange: Exchange): boolean {
  try {
    const path = new URL(exchange.request.url).pathname;
    return UNAUTHENTICATED_PATHS.some((p) => path.endsWith(p));
  } catch {
    return false;
  }
}

/**
 * Responses the spec says carry the pool headers, out of everything a run sent: a token was sent
 * by role to an authenticated route, and the answer is 2xx, 429 or the documented 400 (§4:
 * "Every authenticated response carries the rate-limit headers"). Left out on purpose: 401 (not
 * authenticated), the limiter-down 503 (no limiter to ask), and 404/405/413 and other answers the
 * spec does not list for its endpoints, whose place before or after the limiter it leaves open.
 */
export function isMeteredResponse(exchange: Exchange): boolean {
  const res = exchange.response;
  if (res === undefined || exchange.request.tokenRole === undefined) return false;
  if (poolOfMethod(exchange.request.method) === undefined || isUnauthenticatedRoute(exchange)) return false;
  const s = res.status;
  return (s >= 200 && s < 300) || s === 429 || s === 400;
}

type Aspect = keyof PoolHeaderAspects;

const EXPECTED: Record<Aspect, (limits: Limits) => string> = {
  presence: () => 'X-RateLimit-Pool, X-RateLimit-Limit, X-RateLimit-Remaining and X-RateLimit-Reset on every authenticated response (§4, §8.1)',
  pool: () => 'X-RateLimit-Pool `read` for GET and HEAD, `write` for POST, PUT, PATCH and DELETE (§8.1)',
  limit: (l) => `X-RateLimit-Limit ${l.read} on the read pool and ${l.write} on the write pool (§8.1)`,
  remaining: () => 'X-RateLimit-Remaining an integer no larger than the limit (§8.1)',
  reset: (l) => `X-RateLimit-Reset an integer Unix time in seconds within the coming ${l.windowS}s window (§8.1)`,
};

/**
 * One finding over many responses for one aspect of the pool headers: a pass naming how many
 * were checked, or a failure listing the first offenders. The pool a response should name comes
 * from its request's method (§8.1 table).
 */
export const poolHeaderAspectFinding = judged('rate-limit-headers/poolHeaderAspectFinding', function poolHeaderAspectFinding(requirement: string, aspect: Aspect, exchanges: readonly Exchange[], limits: Limits): Finding {
  const offenders: { exchange: Exchange; problems: string[] }[] = [];
  let checked = 0;
  for (const exchange of exchanges) {
    const pool = poolOfMethod(exchange.request.method);
    if (pool === undefined || exchange.response === undefined) continue;
    checked += 1;
    const problems = poolHeaderAspects(exchange, { pool, limit: limits[pool], windowS: limits.windowS })[aspect];
    if (problems.length > 0) offenders.push({ exchange, problems });
  }
  if (checked === 0) return { requirement, verdict: 'inconclusive', note: 'no authenticated response to check', exchanges: [] };
  if (offenders.length === 0) return pass(requirement, exchanges.slice(0, 1), `${checked} authenticated responses checked`);
  const shown = offenders.slice(0, 3).map((o) => `${exchangeLabel(o.exchange)}: ${o.problems.join('; ')}`);
  const more = offenders.length > 3 ? `; and ${offenders.length - 3} more` : '';
  return fail(requirement, EXPECTED[aspect](limits), `${offenders.length} of ${checked} responses: ${shown.join(' | ')}${more}`, offenders.map((o) => o.exchange));
});
