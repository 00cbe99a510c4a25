import { describe } from 'vitest';
import { noServiceWithoutTokenFinding, refusedThroughoutFinding } from '../lib/checks/token-refusal.ts';
import type { SendOptions } from '../lib/http/client.ts';
import { ME_PATH } from '../lib/spec-constants.ts';
import { matrixIds, matrixPlan, matrixSpendInFlight, otherWorkspaceWrites, sendRows } from '../lib/suite/exchange-matrix.ts';
import { requirementTest } from '../lib/suite/requirement-test.ts';
import { sendAll } from '../lib/suite/side-by-side.ts';

/**
 * The exchange matrix: a covering array of route, method, token, id owner, pool state and Accept
 * form (lib/coverage/), every pair of values at least once. This file comes right after the
 * rate-limit campaign, while the secondary token's pools are spent; the other workspace's read pool
 * is brought low after the ledger suites (exchange-matrix-read-low), and the rows of pools just
 * refilled go at the run's end (exchange-matrix-refilled). Every answer is judged by the run-wide
 * rules; the report's Coverage section says which pairs the record reached.
 */
describe('The exchange matrix: every pair of route, method, token, id owner, pool state and Accept form', () => {
  // > Every endpoint except the unauthenticated routes requires the header `Authorization: Bearer <API_TOKEN>`.
  requirementTest(
    'auth/5.1/no-service-without-token',
    "the covering array's rows on fresh pools, on the secondary token's spent pools, and on the other workspace's write pool brought low and spent",
    async (kit) => {
      const { rows } = matrixPlan(kit);
      const { ids, exchanges } = await matrixIds(kit);
      const fresh = await sendRows(kit, rows.filter((r) => r.phase === 'fresh'), ids);
      const spent = await sendRows(kit, rows.filter((r) => r.phase === 'spent' && r.cell.token === 'valid'), ids);
      const other = await otherWorkspaceWrites(kit, rows, ids);
      return [noServiceWithoutTokenFinding(kit.ids[0]!, [...exchanges, ...fresh, ...spent, ...other], kit.context.baseUrl)];
    },
  );

  // > When the token is invalid, expired or revoked, the response is 401 with error code `auth.token_invalid` and category `permanent`.
  requirementTest(
    'auth/5.4/refused-whatever-the-volume',
    'one unknown token on GET /me one more time than the read pool holds, and on a message POST one more time than the write pool holds, side by side',
    async (kit) => {
      const { ids } = await matrixIds(kit);
      const { limits, messages } = kit.context.profile;
      const authorization = `Bearer ${ids.unknownToken}`;
      const route = messages.routes[0];
      const reads: SendOptions[] = new Array<SendOptions>(limits.read + 1).fill({ method: 'GET', path: ME_PATH, authorization });
      const writes: SendOptions[] = route === undefined ? [] : new Array<SendOptions>(limits.write + 1).fill({ method: 'POST', path: route.path, json: route.body, authorization });
      // No token's pool is charged: nothing paces them, and the valid tokens' points are untouched.
      // The first alone gives the round trip that sizes how many of the rest go at once.
      const [first, ...rest] = [...reads, ...writes];
      const alone = await kit.client.send(first!);
      const sent = [alone, ...(await sendAll(kit.client, rest, matrixSpendInFlight(kit, rest.length, [alone])))];
      return [refusedThroughoutFinding(kit.ids[0]!, sent)];
    },
  );
});
