import { describe } from 'vitest';
import { noServiceWithoutTokenFinding } from '../lib/checks/token-refusal.ts';
import { matrixIds, REFILLED_ROWS_REQUIREMENT, refilledRows, refilledRowsBesideReads, sendRows } from '../lib/suite/exchange-matrix.ts';
import { requirementTest } from '../lib/suite/requirement-test.ts';

/**
 * The exchange matrix's rows of pools just refilled: in the rate-limit recovery, the secondary
 * token's pools serve again after their 429s (its write pool's rows go once the refused POSTs are
 * replayed, beside the read pool's last timed probe); the other workspace's, spent by
 * exchange-matrix at the run's start, come back a window in, and its rows go then, while the
 * recovery still waits (they are awaited here).
 */
describe('The exchange matrix: pools just refilled', () => {
  // > Every endpoint except the unauthenticated routes requires the header `Authorization: Bearer <API_TOKEN>`.
  requirementTest(
    REFILLED_ROWS_REQUIREMENT,
    "the covering array's rows of pools just refilled (the secondary token's write pool once the recovery replayed the refused POSTs, its read pool after the recovery, the other workspace's once its pools are back), each also with an unknown token",
    async (kit) => {
      // The rows that charge no read point of the secondary token went once the recovery replayed
      // the refused POSTs (lib/suite/exchange-matrix.ts); the rest go now that its read probes are done.
      const { after } = refilledRows(kit);
      const { ids } = await matrixIds(kit);
      const [beside, rest] = await Promise.all([refilledRowsBesideReads(kit), sendRows(kit, after, ids)]);
      return [noServiceWithoutTokenFinding(kit.ids[0]!, [...beside, ...rest], kit.context.baseUrl)];
    },
    { timeout: 150_000 },
  );
});
