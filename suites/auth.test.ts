import { describe } from 'vitest';
import { unissuedLiveToken } from '../lib/arbitraries/unissued-live-token.ts';
import { envelopeFindings, expectError, expectOneOfErrors } from '../lib/checks/error-envelope.ts';
import { expectSuccess } from '../lib/checks/success-status.ts';
import type { MisplacedToken, SendOptions } from '../lib/http/client.ts';
import { LEDGER_PATH, ME_PATH } from '../lib/spec-constants.ts';
import { authenticatedRoutes, probeRequest, type RouteProbe } from '../lib/suite/authenticated-routes.ts';
import { probeJobId } from '../lib/suite/probe-job.ts';
import { checkProperty } from '../lib/suite/property.ts';
import { requirementTest, type TestKit } from '../lib/suite/requirement-test.ts';

const MISSING = 'auth.token_missing';
const INVALID = 'auth.token_invalid';

/** Every authenticated route, the poll of a real job among them when the profile has the job mode. */
async function everyRoute(kit: TestKit): Promise<RouteProbe[]> {
  const pollJobId = await probeJobId();
  return authenticatedRoutes(kit.context.profile, pollJobId === undefined ? {} : { pollJobId });
}

describe('§5 Authentication', () => {
  // > Every endpoint except the unauthenticated routes requires the header `Authorization: Bearer <API_TOKEN>`.
  requirementTest('auth/5.1/bearer-accepted', `the primary token on GET ${ME_PATH} and GET ${LEDGER_PATH}`, async ({ sendAll }) => {
    const paths = [ME_PATH, LEDGER_PATH];
    const sent = await sendAll(paths.map((path) => ({ path, token: 'primary' })));
    return sent.map((ex, i) => expectSuccess('auth/5.1/bearer-accepted', ex, `2xx for GET ${paths[i]!} with a valid bearer token`));
  });

  // > The scheme is HTTP bearer.
  // HTTP auth-schemes are case-insensitive (RFC 9110 §11.1); the spec writes `Bearer`: a SHOULD.
  requirementTest('auth/5.2/scheme-case-insensitive', `\`bearer\` and \`BEARER\` with the primary token on GET ${ME_PATH}`, async ({ sendAll }) => {
    const schemes = ['bearer', 'BEARER'];
    const sent = await sendAll(schemes.map((name) => ({ path: ME_PATH, misplacedToken: { role: 'primary', as: 'scheme', name } })));
    return sent.map((ex, i) =>
      expectSuccess('auth/5.2/scheme-case-insensitive', ex, `2xx for \`Authorization: ${schemes[i]!} <valid token>\` (HTTP auth-schemes are case-insensitive)`),
    );
  });

  // > When the header is missing, the response is 401 with error code `auth.token_missing` and category `permanent`.
  requirementTest('auth/5.3/missing-header', 'no Authorization header on every authenticated route, streamed and job POSTs and a job poll included', async (kit) => {
    const sent = await kit.sendAll((await everyRoute(kit)).map(probeRequest));
    return sent.flatMap((ex) => [expectError('auth/5.3/missing-header', ex, { status: 401, code: MISSING, category: 'permanent' }), ...envelopeFindings(ex)]);
  });

  // > When the header is missing, the response is 401 with error code `auth.token_missing` and category `permanent`.
  // Only the header authenticates (§5.1): a valid token anywhere else leaves the header missing.
  // A body with a field the server does not take may be refused before authentication: whether
  // validation or authentication comes first is open (the register), so there a 400 in the §7
  // envelope (category `permanent`, §7's row for a validation failure) passes too.
  requirementTest(
    'auth/5.3/token-outside-header',
    'the primary token in the query string, a cookie and a JSON body field (there a 400 refusal of the body passes too), with no Authorization header',
    async ({ sendAll, context }) => {
      const route = context.profile.messages.routes[0];
      const at = (as: MisplacedToken['as']): MisplacedToken => ({ role: 'primary', as, name: 'access_token' });
      const probes: Array<SendOptions & { misplacedToken: MisplacedToken }> = [
        { path: ME_PATH, misplacedToken: at('query') },
        { path: ME_PATH, misplacedToken: at('cookie') },
        { path: LEDGER_PATH, misplacedToken: at('query') },
      ];
      if (route !== undefined) {
        for (const as of ['query', 'cookie', 'json-field'] as const) probes.push({ method: 'POST', path: route.path, json: route.body, misplacedToken: at(as) });
      }
      const missing = { status: 401, code: MISSING, category: 'permanent' } as const;
      const refusedBody = { status: 400, category: 'permanent' } as const;
      const sent = await sendAll(probes);
      return sent.map((ex, i) => expectOneOfErrors('auth/5.3/token-outside-header', ex, probes[i]!.misplacedToken.as === 'json-field' ? [missing, refusedBody] : [missing]));
    },
  );

  // > When the token is invalid, expired or revoked, the response is 401 with error code `auth.token_invalid` and category `permanent`.
  requirementTest('auth/5.4/unknown-token', 'well-formed <prefix>_live_<hex> tokens never issued, on every authenticated route (property)', async (kit) => {
    const routes = await everyRoute(kit);
    const shape = kit.client.tokenShape('primary') ?? { prefix: 'asi', hexLength: 32 };
    return checkProperty(
      'auth/5.4/unknown-token',
      unissuedLiveToken(shape),
      async (token) => {
        const route = routes[token.charCodeAt(token.length - 1) % routes.length]!;
        const ex = await kit.client.send({ ...probeRequest(route), authorization: `Bearer ${token}` });
        return [expectError('auth/5.4/unknown-token', ex, { status: 401, code: INVALID, category: 'permanent' })];
      },
      { numRuns: 12, maxShrinkRequests: 20, independent: true },
    );
  });

  // > All token-authenticated endpoints require the bearer header (section 5).
  // A Bearer header whose token is absent or garbled: the spec does not say which of its two codes it earns.
  requirementTest('auth/5.4/malformed-header', 'a Bearer header with no token, a garbled token or several words (the first of them, once, the valid token), on every authenticated route', async (kit) => {
    const shape = kit.client.tokenShape('primary') ?? { prefix: 'asi', hexLength: 32 };
    const headers = [
      'Bearer',
      'Bearer ',
      `Bearer ${shape.prefix}_live_${'z'.repeat(shape.hexLength)}`,
      `Bearer ${shape.prefix}_test_${'0'.repeat(shape.hexLength)}`,
      'Bearer a b c',
    ];
    const routes = await everyRoute(kit);
    // Several words, the first of them the valid token: the token is all that follows the scheme.
    const firstWordValid: Pick<SendOptions, 'misplacedToken'> = { misplacedToken: { role: 'primary', as: 'scheme', name: 'Bearer', after: ' x' } };
    const probes = [...headers.map((authorization): Pick<SendOptions, 'authorization'> => ({ authorization })), firstWordValid];
    const sent = await kit.sendAll(probes.flatMap((probe) => routes.map((route) => ({ ...probeRequest(route), ...probe }))));
    return sent.map((ex) => expectError('auth/5.4/malformed-header', ex, { status: 401, code: [MISSING, INVALID], category: 'permanent' }));
  });

  for (const role of ['revoked', 'expired'] as const) {
    // > When the token is invalid, expired or revoked, the response is 401 with error code `auth.token_invalid` and category `permanent`.
    requirementTest(`auth/5.4/${role}-token`, `the ${role} token on every authenticated route`, async (kit) => {
      if (!kit.client.hasToken(role)) return kit.noToken(role);
      const sent = await kit.sendAll((await everyRoute(kit)).map((route) => ({ ...probeRequest(route), token: role })));
      return sent.map((ex) => expectError(`auth/5.4/${role}-token`, ex, { status: 401, code: INVALID, category: 'permanent' }));
    });
  }

  // > | 401 | auth.token_missing | permanent | No bearer header. |
  requirementTest(
    'auth/7/other-scheme',
    'the primary token under the schemes `Token` and `XBearer` (on GET /me and a message POST) and bare, and a Basic credential, with no Bearer header',
    async ({ sendAll, context }) => {
      const route = context.profile.messages.routes[0];
      const scheme = (name: string): MisplacedToken => ({ role: 'primary', as: 'scheme', name });
      const probes: SendOptions[] = [
        { path: ME_PATH, misplacedToken: scheme('Token') },
        // A scheme that only ends in Bearer is another scheme.
        { path: ME_PATH, misplacedToken: scheme('XBearer') },
        { path: ME_PATH, misplacedToken: scheme('') },
        { path: ME_PATH, authorization: 'Basic dXNlcjpwYXNzd29yZA==' },
      ];
      if (route !== undefined) {
        for (const name of ['Token', 'XBearer']) probes.push({ method: 'POST', path: route.path, json: route.body, misplacedToken: scheme(name) });
      }
      const sent = await sendAll(probes);
      return sent.map((ex) => expectError('auth/7/other-scheme', ex, { status: 401, code: MISSING, category: 'permanent' }));
    },
  );
});
