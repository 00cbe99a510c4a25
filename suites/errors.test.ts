import { describe } from 'vitest';
import { envelopeFindingsIfError } from '../lib/checks/error-envelope.ts';
import { inconclusive } from '../lib/model/finding.ts';
import { LEDGER_PATH, ME_PATH } from '../lib/spec-constants.ts';
import { requirementTest } from '../lib/suite/requirement-test.ts';
import type { SendOptions } from '../lib/http/client.ts';

const ENVELOPE_IDS = ['errors/7/envelope', 'errors/7/category-value', 'errors/7/request-id-header', 'errors/7/known-code-status'];

/** Errors every ASI server gives for sure, or that any HTTP server gives (404, 405). */
const PROVOCATIONS: Array<{ what: string; send: SendOptions }> = [
  { what: 'no token on GET /me (401)', send: { path: ME_PATH } },
  { what: 'an unknown token on GET /me (401)', send: { path: ME_PATH, authorization: 'Bearer asi_live_00000000000000000000000000000000' } },
  {
    what: '`to` earlier than `from` on the ledger (400)',
    send: { path: LEDGER_PATH, token: 'primary', query: { from: '2026-01-02T00:00:00Z', to: '2026-01-01T00:00:00Z' } },
  },
  { what: 'an unknown route with a valid token (404)', send: { path: '/no-such-route-asi-conformance', token: 'primary' } },
  { what: 'a method the ledger does not allow (405)', send: { method: 'DELETE', path: LEDGER_PATH, token: 'primary' } },
];

describe('§7 Errors', () => {
  for (const p of PROVOCATIONS) {
    // > All error responses use this envelope: a JSON object with one key `error`
    // > request_id | string | yes | Trace id, equal to the `X-Request-Id` response header.
    requirementTest(ENVELOPE_IDS.slice(0, 3), `envelope on ${p.what}`, async ({ client, ids }) => {
      const ex = await client.send(p.send);
      const findings = envelopeFindingsIfError(ex);
      if (findings.length > 0) return findings;
      return ids.map((id) => inconclusive(id, `no error to inspect: ${p.what} answered ${ex.response?.status ?? ex.error?.code}`, [ex]));
    });
  }

  // > Known codes: | HTTP status | code | category | Condition |
  requirementTest('errors/7/known-code-status', 'status and category of the known auth codes', async ({ client }) => {
    const exchanges = [await client.send({ path: ME_PATH }), await client.send({ path: ME_PATH, authorization: 'Bearer asi_live_0123456789abcdef' })];
    return exchanges.flatMap(envelopeFindingsIfError).filter((f) => f.requirement === 'errors/7/known-code-status');
  });
});
