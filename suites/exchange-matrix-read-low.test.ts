import { describe } from 'vitest';
import { noServiceWithoutTokenFinding } from '../lib/checks/token-refusal.ts';
import { matrixIds, matrixPlan, otherWorkspaceLowReads } from '../lib/suite/exchange-matrix.ts';
import { requirementTest } from '../lib/suite/requirement-test.ts';

/**
 * The exchange matrix's rows of a read pool brought low: the other workspace's, once the ledger
 * suites have read with it. Its answers are judged by the run-wide rules; each row goes again with
 * an unknown token, to be refused as on fresh pools.
 */
describe('The exchange matrix: a read pool brought low', () => {
  // > Every endpoint except the unauthenticated routes requires the header `Authorization: Bearer <API_TOKEN>`.
  requirementTest(
    'auth/5.1/no-service-without-token',
    "the covering array's rows of a low read pool (the other workspace's token under 10% of its reads), each also with an unknown token",
    async (kit) => {
      const { ids } = await matrixIds(kit);
      const sent = await otherWorkspaceLowReads(kit, matrixPlan(kit).rows, ids);
      return [noServiceWithoutTokenFinding(kit.ids[0]!, sent, kit.context.baseUrl)];
    },
  );
});
