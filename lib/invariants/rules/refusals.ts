import { isSpendCapOwnRefusal, refusalCodeProblems, refusalRequestIdProblem, retryAfterProblem } from '../../checks/rate-limit-refusal.ts';
import { LEDGER_PATH } from '../../spec-constants.ts';
import { declaredRoutes, type RecordContext } from '../exchange-facts.ts';
import type { Invariant, Observation } from '../invariant.ts';

const CODE = 'ratelimit/7/429-code-category';
const REQUEST_ID = 'ratelimit/7/429-request-id';
const REMAINING_ZERO = 'ratelimit/8.1/429-remaining-zero';
const RETRY_AFTER = 'ratelimit/8.1/retry-after-integer';
const RETRY_AFTER_ONLY = 'ratelimit/8.1/retry-after-only-on-429';

/**
 * > 429 | rate_limit.exceeded | rate_limited | The pool for the token is exhausted.
 * > X-RateLimit-Remaining | integer | Requests left before the next refill.
 * > Retry-After | integer | 429 responses only: seconds until the next request will succeed.
 * Every 429 of a token's pool (an authenticated request refused), on every route, whatever
 * provoked it: the §7 code and category, request_id, Remaining 0 where the target states its
 * Remaining (a 429 with points left is a limiter the pool headers do not describe), and Retry-After
 * as an integer. And no other authenticated response carries Retry-After; a 503 that does is only
 * remarked, since HTTP defines Retry-After for 503 (RFC 9110 §10.2.3) and §8.1 lists the headers
 * of 2xx and 429 responses.
 * A 429 of the spend-cap drill under a code of its own is the cap's answer, which §8.2 leaves
 * open: only what §7 fixes of every error (its request_id) is judged there, not the rate limit's
 * code, Remaining 0 or Retry-After.
 */
export const refusalsInvariant: Invariant = {
  name: 'refusals',
  requirements: [CODE, REQUEST_ID, REMAINING_ZERO, RETRY_AFTER, RETRY_AFTER_ONLY],
  expected: {
    [CODE]: "every 429 of a token's pool in the §7 envelope with code `rate_limit.exceeded`, category `rate_limited` and a string message",
    [REQUEST_ID]: 'error.request_id on every 429, equal to X-Request-Id (required by the §7 envelope schema)',
    [REMAINING_ZERO]: 'X-RateLimit-Remaining 0 on every 429: the pool it names is exhausted',
    [RETRY_AFTER]: 'Retry-After, an integer of seconds, on every 429',
    [RETRY_AFTER_ONLY]: 'no Retry-After on authenticated responses other than 429 (§8.1: "429 responses only")',
  },
  binds: {
    [CODE]: "429s of a token's pool",
    [REQUEST_ID]: "429s of a token's pool",
    [REMAINING_ZERO]: "429s of a token's pool stating X-RateLimit-Remaining",
    [RETRY_AFTER]: "429s of a token's pool",
    [RETRY_AFTER_ONLY]: 'authenticated responses other than 429',
  },
  observe(exchange, facts): Observation[] {
    const res = exchange.response;
    if (res === undefined || !facts.authenticatedResponse) return [];
    const retryAfter = res.headers['retry-after'];
    if (res.status !== 429) {
      if (retryAfter === undefined) return [{ requirement: RETRY_AFTER_ONLY, problems: [] }];
      if (res.status === 503) return [{ requirement: RETRY_AFTER_ONLY, problems: [], remark: 'a 503 carried Retry-After, which HTTP allows there' }];
      return [{ requirement: RETRY_AFTER_ONLY, problems: [`Retry-After ${JSON.stringify(retryAfter)} on a ${res.status}`] }];
    }
    const out: Observation[] = [];
    const capOwn = isSpendCapOwnRefusal(exchange);
    if (facts.method !== 'HEAD' && !res.truncated) {
      const idProblem = refusalRequestIdProblem(exchange);
      if (!capOwn) out.push({ requirement: CODE, problems: refusalCodeProblems(exchange) });
      out.push({ requirement: REQUEST_ID, problems: idProblem === undefined ? [] : [idProblem] });
    }
    if (capOwn) return out;
    const remaining = res.headers['x-ratelimit-remaining'];
    if (remaining !== undefined) {
      const left = /^\d+$/.test(remaining) ? ': the pool still had points' : '';
      out.push({ requirement: REMAINING_ZERO, problems: remaining === '0' ? [] : [`X-RateLimit-Remaining ${JSON.stringify(remaining)} on a 429${left}`] });
    }
    const retryProblem = retryAfterProblem(exchange);
    out.push({ requirement: RETRY_AFTER, problems: retryProblem === undefined ? [] : [retryProblem] });
    return out;
  },
  declaredCells(id, context: RecordContext) {
    const routes = declaredRoutes(context);
    if (id === RETRY_AFTER_ONLY) return routes.flatMap((r) => [`${r} 2xx`, ...(r === `GET ${LEDGER_PATH}` ? [`${r} 400`] : [])]);
    return routes.map((r) => `${r} 429`);
  },
};
