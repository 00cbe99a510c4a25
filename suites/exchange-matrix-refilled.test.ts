import { describe } from 'vitest';
import { noServiceWithoutTokenFinding } from '../lib/checks/token-refusal.ts';
import { sleepUntil } from '../lib/http/client.ts';
import type { Exchange } from '../lib/model/exchange.ts';
import { matrixIds, matrixPlan, otherWorkspaceRefilledAtMs, roleFor, sendRows, withUnknownTwins } from '../lib/suite/exchange-matrix.ts';
import { requirementTest } from '../lib/suite/requirement-test.ts';
import { waitingFor } from '../lib/suite/wait-notices.ts';

/**
 * The exchange matrix's rows of pools just refilled: after the rate-limit recovery, the secondary
 * token's pools serve again after their 429s; the other workspace's, spent by exchange-matrix at
 * the run's start, come back about as the run ends.
 */
describe('The exchange matrix: pools just refilled', () => {
  // > Every endpoint except the unauthenticated routes requires the header `Authorization: Bearer <API_TOKEN>`.
  requirementTest(
    'auth/5.1/no-service-without-token',
    "the covering array's rows of pools just refilled (the secondary token's after the recovery, the other workspace's beside them), each also with an unknown token",
    async (kit) => {
      const rows = withUnknownTwins(matrixPlan(kit).rows.filter((r) => r.phase === 'refilled'));
      const { ids } = await matrixIds(kit);
      // The other workspace's rows beside the secondary token's (whose event stream is the longest
      // of them), once its pools are back: usually by now, its spend was at the run's start.
      const dueMs = otherWorkspaceRefilledAtMs(kit.context.profile.limits.windowS * 1000);
      const otherRows = async (): Promise<Exchange[]> => {
        await waitingFor(kit.context.transcriptFile, "the other workspace's pools to refill", dueMs, sleepUntil(dueMs));
        return sendRows(kit, rows.filter((r) => roleFor(r.cell, r.phase) === 'other_workspace'), ids);
      };
      const [secondary, other] = await Promise.all([sendRows(kit, rows.filter((r) => roleFor(r.cell, r.phase) !== 'other_workspace'), ids), otherRows()]);
      return [noServiceWithoutTokenFinding(kit.ids[0]!, [...secondary, ...other], kit.context.baseUrl)];
    },
    { timeout: 150_000 },
  );
});
