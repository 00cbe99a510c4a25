import { everyAspect, poolHeaderAspects, type PoolHeaderAspects } from '../../checks/pool-headers.ts';
import { LEDGER_PATH, poolOfMethod } from '../../spec-constants.ts';
import { declaredRoutes, type ExchangeFacts, type RecordContext } from '../exchange-facts.ts';
import type { Invariant, Observation } from '../invariant.ts';

const PRESENCE = 'ratelimit/4/headers-on-authenticated-responses';
const POOL = 'ratelimit/8.1/pool-by-method';
const LIMIT = 'ratelimit/8.1/limit-value';
const REMAINING = 'ratelimit/8.1/remaining-counts-down';
const RESET = 'ratelimit/8.1/reset-unix-seconds';
const LEDGER_HEADERS = 'ledger/4/rate-limit-headers';
const MESSAGE_POOL = 'conversation/8.1/message-write-pool';
const JOB_POST_POOL = 'conversation/8.1/job-post-write-pool';
const JOB_POLL_POOL = 'conversation/8.1/job-poll-read-pool';

const ASPECTS: ReadonlyArray<[string, keyof PoolHeaderAspects]> = [
  [PRESENCE, 'presence'],
  [POOL, 'pool'],
  [LIMIT, 'limit'],
  [REMAINING, 'remaining'],
  [RESET, 'reset'],
];

/** The requirement that names one route's pool headers, when one does. */
function routeRequirement(facts: ExchangeFacts, context: RecordContext): string | undefined {
  if (facts.route === LEDGER_PATH) return facts.method === 'GET' && facts.status === 200 ? LEDGER_HEADERS : undefined;
  if (facts.form === 'job') return JOB_POST_POOL;
  if (facts.form !== undefined) return MESSAGE_POOL;
  if (facts.route === context.messages.async?.poll) return JOB_POLL_POOL;
  return undefined;
}

/** The cells every authenticated route reaches as an authenticated response: served, refused, and the ledger's 400. */
function authenticatedCells(context: RecordContext, requirement: string): string[] {
  const routes = declaredRoutes(context);
  const poll = context.messages.async?.poll;
  const pick = (r: string): boolean => {
    if (requirement === LEDGER_HEADERS) return r === `GET ${LEDGER_PATH}`;
    if (requirement === JOB_POST_POOL) return r.endsWith('(job mode)');
    if (requirement === MESSAGE_POOL) return r.startsWith('POST ') && !r.endsWith('(job mode)');
    if (requirement === JOB_POLL_POOL) return poll !== undefined && r === `GET ${poll}`;
    return true;
  };
  return routes.filter(pick).flatMap((r) => (requirement === LEDGER_HEADERS ? [`${r} 2xx`] : [`${r} 2xx`, ...(r === `GET ${LEDGER_PATH}` ? [`${r} 400`] : []), `${r} 429`]));
}

/**
 * > Every authenticated response carries the rate-limit headers (section 8).
 * > Response headers on every authenticated response (2xx and 429): X-RateLimit-Pool, -Limit,
 * > -Remaining, -Reset.
 * Judged on every authenticated response of the run, every status and streams included: a live
 * token in the bearer header on a token-authenticated route, answered other than 401 (no token was
 * accepted) and the limiter-down 503 (no limiter was asked). Reset is read on the target's clock.
 */
export const poolHeadersInvariant: Invariant = {
  name: 'pool-headers',
  requirements: [PRESENCE, POOL, LIMIT, REMAINING, RESET, LEDGER_HEADERS, MESSAGE_POOL, JOB_POST_POOL, JOB_POLL_POOL],
  expected: {
    [PRESENCE]: 'X-RateLimit-Pool, X-RateLimit-Limit, X-RateLimit-Remaining and X-RateLimit-Reset on every authenticated response (§4, §8.1)',
    [POOL]: 'X-RateLimit-Pool `read` for GET and HEAD, `write` for POST (§8.1)',
    [LIMIT]: "X-RateLimit-Limit the pool's size (the profile's limits) (§8.1)",
    [REMAINING]: 'X-RateLimit-Remaining an integer no larger than the limit (§8.1)',
    [RESET]: 'X-RateLimit-Reset an integer Unix time in seconds within the coming window, on the target\'s clock (§8.1)',
    [LEDGER_HEADERS]: 'the read pool\'s X-RateLimit-* headers on every 200 of GET /credits/operations (§4, §8.1)',
    [MESSAGE_POOL]: 'the write pool\'s X-RateLimit-* headers on every message POST response, REST or stream (§8.1)',
    [JOB_POST_POOL]: 'the write pool\'s X-RateLimit-* headers on every POST that creates a job (§8.1 rule 3)',
    [JOB_POLL_POOL]: 'the read pool\'s X-RateLimit-* headers on every job poll (§8.1 rule 3)',
  },
  binds: {
    [PRESENCE]: 'authenticated responses',
    [POOL]: 'authenticated responses',
    [LIMIT]: 'authenticated responses',
    [REMAINING]: 'authenticated responses',
    [RESET]: 'authenticated responses',
    [LEDGER_HEADERS]: 'ledger 200s',
    [MESSAGE_POOL]: 'authenticated message POST responses',
    [JOB_POST_POOL]: 'authenticated job-creating POST responses',
    [JOB_POLL_POOL]: 'authenticated job polls',
  },
  observe(exchange, facts, context): Observation[] {
    if (!facts.authenticatedResponse) return [];
    const pool = poolOfMethod(facts.method);
    if (pool === undefined) return [];
    const expected = { pool, limit: context.limits[pool], windowS: context.limits.windowS };
    const aspects = poolHeaderAspects(exchange, expected);
    const out: Observation[] = ASPECTS.map(([requirement, aspect]) => ({ requirement, problems: aspects[aspect] }));
    const own = routeRequirement(facts, context);
    if (own !== undefined) out.push({ requirement: own, problems: everyAspect(aspects) });
    return out;
  },
  declaredCells: (id, context) => authenticatedCells(context, id),
};
