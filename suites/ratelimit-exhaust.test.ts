import { describe, inject } from 'vitest';
import { limitEnforcedFinding, perTokenFinding, remainingCountsDownFinding, separatePoolsFinding } from '../lib/checks/rate-limit-counting.ts';
import { isMeteredResponse, poolHeaderAspectFinding } from '../lib/checks/rate-limit-headers.ts';
import type { Exchange } from '../lib/model/exchange.ts';
import { refusedNoWorkFinding } from '../lib/checks/rate-limit-ledger.ts';
import {
  isRefusal,
  refusalCodeFinding,
  refusalRemainingZeroFinding,
  refusalRequestIdFinding,
  retryAfterIntegerFinding,
} from '../lib/checks/rate-limit-refusal.ts';
import { inconclusive, notRun, type Finding } from '../lib/model/finding.ts';
import { campaignBudgetMs, type Campaign, type PoolRun } from '../lib/suite/rate-limit-campaign.ts';
import { startOtherWorkspaceEarlyWrites } from '../lib/suite/exchange-matrix.ts';
import { campaign, isCampaign } from '../lib/suite/rate-limit-state.ts';
import { session } from '../lib/suite/session.ts';
import { requirementTest, type TestKit } from '../lib/suite/requirement-test.ts';

/**
 * Exhausting a pool takes a few seconds against a slow target; pools another run spent less than
 * a window ago are waited for first.
 */
const TIMEOUT = campaignBudgetMs(inject('asi').profile.limits.windowS * 1000);

// The other workspace's first write points go beside the campaign when this run sends the
// exchange matrix's rows of pools just refilled: they come back before the secondary token's.
startOtherWorkspaceEarlyWrites(session());

/** The campaign, or not-run findings for the test's ids when it could not run. */
async function withCampaign(kit: TestKit, body: (c: Campaign) => Finding[]): Promise<Finding[]> {
  const outcome = await campaign();
  return isCampaign(outcome) ? body(outcome) : kit.notRun(outcome.skipped);
}

function pools(c: Campaign): PoolRun[] {
  return 'skipped' in c.write ? [c.read] : [c.read, c.write];
}

function writeSkipped(c: Campaign, ids: readonly string[]): Finding[] {
  return 'skipped' in c.write ? ids.map((id) => notRun(id, (c.write as { skipped: string }).skipped)) : [];
}

/**
 * Every 429 of the campaign worth judging: each pool's last one from the burst and those of the
 * other routes and forms (the ledger's, each message route's, streamed and job-mode POSTs), or an
 * inconclusive finding when a pool never refused.
 */
function eachRefusal(c: Campaign, id: string, judge: (refusal: Exchange, run: PoolRun) => Finding): Finding[] {
  return pools(c).flatMap((run) => {
    if (run.refusal === undefined) return [inconclusive(id, `the ${run.pool} pool never answered 429`, run.burst.slice(-1))];
    const others = run.routeRefusals.filter((e) => isRefusal(e) && e !== run.refusal);
    return [run.refusal, ...others].map((r) => judge(r, run));
  });
}

describe('§8.1 Request rate limits: exhausting the secondary token', () => {
  // > Every authenticated response carries the rate-limit headers (section 8).
  // > X-RateLimit-Pool | `read` or `write` | Pool that served the request.
  // > read | GET, HEAD | 600 requests per minute … write | POST, PUT, PATCH, DELETE | 60 requests per minute
  // > X-RateLimit-Reset | integer | Unix timestamp in seconds when the bucket refills.
  requirementTest(
    ['ratelimit/4/headers-on-authenticated-responses', 'ratelimit/8.1/pool-by-method', 'ratelimit/8.1/limit-value', 'ratelimit/8.1/reset-unix-seconds'],
    'GET, HEAD, ledger 200s and a 400 and message POSTs (each route, streamed, job mode) until 429, on both pools of the secondary token',
    (kit) =>
      withCampaign(kit, (c) => {
        const all = pools(c)
          .flatMap((p) => [...p.stale, ...p.charged, p.primaryBefore, p.primaryAfter])
          .filter(isMeteredResponse);
        return [
          poolHeaderAspectFinding('ratelimit/4/headers-on-authenticated-responses', 'presence', all, c.limits),
          poolHeaderAspectFinding('ratelimit/8.1/pool-by-method', 'pool', all, c.limits),
          poolHeaderAspectFinding('ratelimit/8.1/limit-value', 'limit', all, c.limits),
          poolHeaderAspectFinding('ratelimit/8.1/reset-unix-seconds', 'reset', all, c.limits),
        ];
      }),
    { timeout: TIMEOUT },
  );

  // > Each request consumes one point from the pool matching its method.
  requirementTest(
    'ratelimit/8.1/remaining-counts-down',
    'sequential GET /me, HEAD /me, the ledger (400 and 200), then a message POST on each route and streamed, on a fresh pool',
    (kit) => withCampaign(kit, (c) => pools(c).map((p) => remainingCountsDownFinding(kit.ids[0]!, p.sequence, c.limits[p.pool], c.limits.windowS * 1000))),
    { timeout: TIMEOUT },
  );

  // > read | GET, HEAD | 600 requests per minute … write | POST, PUT, PATCH, DELETE | 60 requests per minute
  requirementTest(
    'ratelimit/8.1/limit-enforced',
    'a fresh pool spent to the end and one request beyond, per pool',
    (kit) =>
      withCampaign(kit, (c) =>
        pools(c).map((p) => limitEnforcedFinding(kit.ids[0]!, p.charged, c.limits[p.pool], c.limits.windowS * 1000, p.pool, { inFlight: p.inFlight, healWaitedMs: p.healWaitedMs })),
      ),
    { timeout: TIMEOUT },
  );

  // > Rate limits are scoped per token; several tokens in one workspace each have their own budget.
  requirementTest(
    'ratelimit/5.5/per-token',
    "the primary token's GET /me and message POST, each before and after the secondary token's pool of it is exhausted",
    (kit) =>
      withCampaign(kit, (c) =>
        pools(c).map((p) =>
          p.refusal === undefined
            ? inconclusive(kit.ids[0]!, `the ${p.pool} pool never answered 429`, p.burst.slice(-1))
            : perTokenFinding(kit.ids[0]!, p.primaryBefore, p.refusal, p.primaryAfter, p.pool),
        ),
      ),
    { timeout: TIMEOUT },
  );

  // > Each request consumes one point from the pool matching its method.
  requirementTest(
    'ratelimit/8.1/separate-pools',
    'a message POST once the read pool of the same token is exhausted',
    (kit) =>
      withCampaign(kit, (c) => {
        if ('skipped' in c.write) return writeSkipped(c, kit.ids);
        const refusal = c.read.refusal;
        const post = c.write.afterReadSpent;
        return [refusal === undefined ? inconclusive(kit.ids[0]!, 'the read pool never answered 429', c.read.burst.slice(-1)) : separatePoolsFinding(kit.ids[0]!, refusal, post, c.write.burst.slice(0, c.write.burst.indexOf(post)))];
      }),
    { timeout: TIMEOUT },
  );
});

describe('§7 and §8.1 the 429 of an exhausted pool', () => {
  // > 429 | rate_limit.exceeded | rate_limited | The pool for the token is exhausted.
  requirementTest(
    'ratelimit/7/429-code-category',
    'the 429s of both pools: /me, the ledger, each message route, streamed and job-mode POSTs',
    (kit) => withCampaign(kit, (c) => eachRefusal(c, kit.ids[0]!, (r) => refusalCodeFinding(kit.ids[0]!, r))),
    { timeout: TIMEOUT },
  );

  // > A 429 body in the published example carries `code`, `category` and `message`; the envelope schema lists `request_id` as required.
  requirementTest(
    'ratelimit/7/429-request-id',
    'the 429 bodies of both pools and every route, read for error.request_id',
    (kit) => withCampaign(kit, (c) => eachRefusal(c, kit.ids[0]!, (r) => refusalRequestIdFinding(kit.ids[0]!, r))),
    { timeout: TIMEOUT },
  );

  // > Response headers on every authenticated response (2xx and 429): … X-RateLimit-Remaining | integer | Requests left before the next refill.
  requirementTest(
    'ratelimit/8.1/429-remaining-zero',
    'the pool headers of the 429s of both pools and every route',
    (kit) => withCampaign(kit, (c) => eachRefusal(c, kit.ids[0]!, (r, run) => refusalRemainingZeroFinding(kit.ids[0]!, r, run.pool))),
    { timeout: TIMEOUT },
  );

  // > Retry-After | integer | 429 responses only: seconds until the next request will succeed.
  requirementTest(
    'ratelimit/8.1/retry-after-integer',
    'the Retry-After headers of the 429s of both pools and every route',
    (kit) => withCampaign(kit, (c) => eachRefusal(c, kit.ids[0]!, (r) => retryAfterIntegerFinding(kit.ids[0]!, r))),
    { timeout: TIMEOUT },
  );

  // > A rejected 429 request has done no work, so repeating it is safe, including POST and DELETE.
  requirementTest(
    'ratelimit/8.1/refused-no-work',
    'message POSTs beyond the write pool (plain, streamed, job mode), with the ledger counted before and after',
    (kit) => withCampaign(kit, (c) => ('skipped' in c.write ? writeSkipped(c, kit.ids) : [refusedNoWorkFinding(kit.ids[0]!, c.write.batch)])),
    { timeout: TIMEOUT },
  );
});
