import { describe } from 'vitest';
import { unissuedLiveToken } from '../lib/arbitraries/unissued-live-token.ts';
import { envelopeFindings, expectError } from '../lib/checks/error-envelope.ts';
import { expectSuccess } from '../lib/checks/success-status.ts';
import type { Finding } from '../lib/model/finding.ts';
import { LEDGER_PATH, ME_PATH } from '../lib/spec-constants.ts';
import { authenticatedRoutes } from '../lib/suite/authenticated-routes.ts';
import { checkProperty } from '../lib/suite/property.ts';
import { requirementTest } from '../lib/suite/requirement-test.ts';

const MISSING = 'auth.token_missing';
const INVALID = 'auth.token_invalid';

describe('§5 Authentication', () => {
  // > Every endpoint except the unauthenticated routes requires the header `Authorization: Bearer <API_TOKEN>`.
  requirementTest('auth/5.1/bearer-accepted', `the primary token on GET ${ME_PATH} and GET ${LEDGER_PATH}`, async ({ client }) => {
    const findings: Finding[] = [];
    for (const path of [ME_PATH, LEDGER_PATH]) {
      const ex = await client.send({ path, token: 'primary' });
      findings.push(expectSuccess('auth/5.1/bearer-accepted', ex, `2xx for GET ${path} with a valid bearer token`));
    }
    return findings;
  });

  // > When the header is missing, the response is 401 with error code `auth.token_missing` and category `permanent`.
  requirementTest('auth/5.3/missing-header', 'no Authorization header on every authenticated route', async ({ client, context }) => {
    const findings: Finding[] = [];
    for (const route of authenticatedRoutes(context.profile)) {
      const ex = await client.send({ method: route.method, path: route.path, json: route.json });
      findings.push(expectError('auth/5.3/missing-header', ex, { status: 401, code: MISSING, category: 'permanent' }), ...envelopeFindings(ex));
    }
    return findings;
  });

  // > When the token is invalid, expired or revoked, the response is 401 with error code `auth.token_invalid` and category `permanent`.
  requirementTest('auth/5.4/unknown-token', 'well-formed <prefix>_live_<hex> tokens never issued (property)', async ({ client, context }) => {
    const routes = authenticatedRoutes(context.profile);
    const shape = client.tokenShape('primary') ?? { prefix: 'asi', hexLength: 32 };
    return checkProperty(
      'auth/5.4/unknown-token',
      unissuedLiveToken(shape),
      async (token) => {
        const route = routes[token.charCodeAt(token.length - 1) % routes.length]!;
        const ex = await client.send({ method: route.method, path: route.path, json: route.json, authorization: `Bearer ${token}` });
        return [expectError('auth/5.4/unknown-token', ex, { status: 401, code: INVALID, category: 'permanent' })];
      },
      { numRuns: 12, maxShrinkRequests: 20 },
    );
  });

  // > All token-authenticated endpoints require the bearer header (section 5).
  // The spec does not say which of its two codes a malformed header earns: either is accepted.
  requirementTest('auth/5.4/malformed-header', 'other schemes, an empty Bearer and garbled tokens on GET /me', async ({ client }) => {
    const shape = client.tokenShape('primary') ?? { prefix: 'asi', hexLength: 32 };
    const headers = [
      'Basic dXNlcjpwYXNzd29yZA==',
      'Bearer',
      'Bearer ',
      'Token abcdef',
      `Bearer ${shape.prefix}_live_${'z'.repeat(shape.hexLength)}`,
      `Bearer ${shape.prefix}_test_${'0'.repeat(shape.hexLength)}`,
      'Bearer a b c',
    ];
    const findings: Finding[] = [];
    for (const authorization of headers) {
      const ex = await client.send({ path: ME_PATH, authorization });
      findings.push(expectError('auth/5.4/malformed-header', ex, { status: 401, code: [MISSING, INVALID], category: 'permanent' }));
    }
    return findings;
  });

  for (const role of ['revoked', 'expired'] as const) {
    // > When the token is invalid, expired or revoked, the response is 401 with error code `auth.token_invalid` and category `permanent`.
    requirementTest(`auth/5.4/${role}-token`, `the ${role} token on every authenticated route`, async (kit) => {
      if (!kit.client.hasToken(role)) return kit.noToken(role);
      const findings: Finding[] = [];
      for (const route of authenticatedRoutes(kit.context.profile)) {
        const ex = await kit.client.send({ method: route.method, path: route.path, json: route.json, token: role });
        findings.push(expectError(`auth/5.4/${role}-token`, ex, { status: 401, code: INVALID, category: 'permanent' }));
      }
      return findings;
    });
  }
});
