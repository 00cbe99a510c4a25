import { describe, inject } from 'vitest';
import { failClosedFinding, limiterDownFinding, limiterRecoversFinding, type FaultRows } from '../lib/checks/rate-limit-limiter-down.ts';
import { spanMs, type LedgerCount } from '../lib/checks/rate-limit-ledger.ts';
import type { HttpClient } from '../lib/http/client.ts';
import type { Exchange } from '../lib/model/exchange.ts';
import { ME_PATH } from '../lib/spec-constants.ts';
import { authenticatedRoutes, probeRequest } from '../lib/suite/authenticated-routes.ts';
import { hasFault, withFault } from '../lib/suite/fault-hooks.ts';
import { finishedProbeJobId } from '../lib/suite/probe-job.ts';
import { withLimiterDrill } from '../lib/suite/rate-limit-state.ts';
import { sendAll } from '../lib/suite/side-by-side.ts';
import { countLedgerRows, measureBackground } from '../lib/suite/ledger-snapshot.ts';
import { requirementTest } from '../lib/suite/requirement-test.ts';

/**
 * Waits between tries for the service to come back once the hook says the store is up: §7's
 * "retry with backoff", doubling from 1 s (a limiter reconnecting to its store may take a few
 * seconds), 7 s in all.
 */
const RECOVERY_BACKOFF_MS = [1_000, 2_000, 4_000];

/**
 * The drill goes at once when the next timed probe of the exhaustion's 429 is further off than
 * this: both hooks, the requests and the backoff above, with room to spare. A drill that takes
 * longer only holds that probe back.
 */
const DRILL_CLEARANCE_MS = 12_000;

/** The ledger counted again after the fault; when it grew, other clients' rows measured. */
async function faultRows(client: HttpClient, before: LedgerCount): Promise<FaultRows> {
  const after = await countLedgerRows(client);
  // The ledger grew: other clients of the workspace may have written meanwhile; measure them.
  const grew = before.ok && after.ok && after.rows > before.rows;
  const background = grew ? await measureBackground(client, spanMs(before, after)) : undefined;
  return { before, after, ...(background === undefined ? {} : { background }) };
}

describe('§7 the limiter store down (faults.limiter_store_down)', () => {
  // > 503 | system.rate_limit_unavailable | transient | The rate-limiter store is down. The limiter is fail-closed.
  // > When the limiter store is unavailable the response is 503 with `system.rate_limit_unavailable`.
  requirementTest(
    ['ratelimit/7/limiter-down-503', 'ratelimit/7/limiter-down-fail-closed', 'ratelimit/7/limiter-down-recovers'],
    'every authenticated route in every form (GET /me, the ledger, each message route as REST, streamed both ways and in the job mode, a job poll) with the store down, then GET /me with it back',
    async (kit) => {
      if (!hasFault('limiter_store_down')) return kit.notRun('the profile gives no faults.limiter_store_down hook');
      const { client } = kit;
      const route = kit.context.profile.messages.routes[0];
      // A job created before the fault (its poll is an authenticated GET like the others), and
      // finished, so that its ledger row is in before the count.
      const pollJobId = await finishedProbeJobId();
      const routes = authenticatedRoutes(kit.context.profile, pollJobId === undefined ? {} : { pollJobId });
      // Unpaced: during the drill the answers carry no pool headers, and nothing here may be retried.
      const requests = routes.map((r) => ({ ...probeRequest(r), token: 'primary', unpaced: true }));
      // Counted just before the store goes down and once it is back, with nothing of the
      // harness's own writing between (withLimiterDrill holds the write pool's refill); the
      // timed probes of the exhaustion's 429 must not meet it down (they would misread its
      // 503s): the drill goes between them.
      const { during, after, rows } = await withLimiterDrill(
        DRILL_CLEARANCE_MS,
        () => (route === undefined ? Promise.resolve(undefined) : countLedgerRows(client)),
        async () => {
          // > When the limiter store is unavailable the response is 503 with `system.rate_limit_unavailable`.
          // All at once: the store is down for as short a time as the target's hooks allow.
          const sent = await withFault('limiter_store_down', () => sendAll(client, requests, kit.context.profile.pacing.maxInFlight));
          // > `transient`: retry with backoff.
          const answers: Exchange[] = [];
          for (const backoff of [...RECOVERY_BACKOFF_MS, undefined]) {
            const answer = await client.send({ path: ME_PATH, token: 'primary' });
            answers.push(answer);
            if (answer.response !== undefined && answer.response.status < 500) break;
            if (backoff !== undefined) await new Promise((r) => setTimeout(r, backoff));
          }
          return { during: sent, after: answers };
        },
        async (before, drilled) => ({ ...drilled, rows: before === undefined ? undefined : await faultRows(client, before) }),
      );
      return [
        limiterDownFinding('ratelimit/7/limiter-down-503', during),
        failClosedFinding('ratelimit/7/limiter-down-fail-closed', during, rows),
        limiterRecoversFinding('ratelimit/7/limiter-down-recovers', after.slice(-1)),
      ];
    },
    // The timed probes of the exhaustion may still have most of a window to go.
    { timeout: inject('asi').profile.limits.windowS * 1000 + 60_000 },
  );
});
