import { describe } from 'vitest';
import { expectSuccessUnlessLimited } from '../lib/checks/success-status.ts';
import { pointsUntouchedFinding } from '../lib/checks/token-points.ts';
import type { Finding } from '../lib/model/finding.ts';
import { ME_PATH, UNAUTHENTICATED_PATHS } from '../lib/spec-constants.ts';
import { publicRouteWithoutToken } from '../lib/suite/public-routes.ts';
import { requirementTest } from '../lib/suite/requirement-test.ts';

// Budget: the per-IP limiter of these routes has a number the spec does not show, maybe a
// handful per window. Six requests in all (the two documents are shared with the openapi suite),
// paced on their own pool: a 429 there is waited out and never touches a token's pool.

describe('§4.2 Unauthenticated routes', () => {
  // > Every endpoint except the unauthenticated routes requires the header `Authorization: Bearer <API_TOKEN>`.
  requirementTest('unauthenticated/4.2/no-token-needed', 'GET /health, /openapi.json, /openapi.yaml without a token', async () => {
    const findings: Finding[] = [];
    for (const path of UNAUTHENTICATED_PATHS) {
      const ex = await publicRouteWithoutToken(path);
      findings.push(expectSuccessUnlessLimited('unauthenticated/4.2/no-token-needed', ex, `2xx for GET ${path} without Authorization`));
    }
    return findings;
  });

  // > Unauthenticated routes do not consume token points.
  requirementTest('unauthenticated/8.1/no-token-points', 'the three routes with the primary token sent along, between two reads of GET /me', async ({ client }) => {
    const before = await client.send({ path: ME_PATH, token: 'primary' });
    const between = [];
    for (const path of UNAUTHENTICATED_PATHS) between.push(await client.send({ path, token: 'primary' }));
    const after = await client.send({ path: ME_PATH, token: 'primary' });
    return [pointsUntouchedFinding('unauthenticated/8.1/no-token-points', before, between, after)];
  });
});
