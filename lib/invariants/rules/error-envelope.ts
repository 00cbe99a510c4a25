import { CATEGORY, ENVELOPE, envelopeProblems, KNOWN, REQUEST_ID, type EnvelopeRequirement } from '../../checks/error-envelope.ts';
import { ERROR_CATEGORIES, LEDGER_PATH } from '../../spec-constants.ts';
import { declaredRoutes, type RecordContext } from '../exchange-facts.ts';
import type { Invariant, Observation } from '../invariant.ts';

/** The error cells the spec names on the profile's routes: 401 (§5), 429 (§8.1), 503 (§7) everywhere, 400 on the ledger (§4.1). */
export function errorCells(context: RecordContext): string[] {
  return declaredRoutes(context).flatMap((r) => [...(r === `GET ${LEDGER_PATH}` ? [`${r} 400`] : []), `${r} 401`, `${r} 429`, `${r} 503`]);
}

/**
 * > All error responses use this envelope: a JSON object with one key `error`, an object with
 * > code, category, message, request_id (required) and details (optional).
 * Judged on every error response of the run, on every route, whatever sent it: the suites' own
 * provocations, the drills, the rate-limit campaign, the auth probes and the preflight. A HEAD
 * has no body to judge, and a body cut at the harness's cap is no whole document.
 */
export const errorEnvelopeInvariant: Invariant = {
  name: 'error-envelope',
  requirements: [ENVELOPE, CATEGORY, REQUEST_ID, KNOWN],
  expected: {
    [ENVELOPE]: 'the §7 envelope on every error response: a JSON object with one key `error` holding string code, category, message and request_id',
    [CATEGORY]: `error.category one of ${ERROR_CATEGORIES.join(', ')} on every error response (§7)`,
    [REQUEST_ID]: 'error.request_id equal to the X-Request-Id header on every error response (§7)',
    [KNOWN]: 'each known code with the status and category of the §7 table',
  },
  binds: {
    [ENVELOPE]: 'error responses',
    [CATEGORY]: 'error responses in the envelope',
    [REQUEST_ID]: 'error responses in the envelope',
    [KNOWN]: 'error responses with a known code',
  },
  observe(exchange, facts): Observation[] {
    const res = exchange.response;
    if (res === undefined || res.status < 400 || facts.method === 'HEAD' || res.truncated) return [];
    const { problems } = envelopeProblems(exchange);
    return (Object.entries(problems) as Array<[EnvelopeRequirement, string[]]>).map(([requirement, found]) => ({ requirement, problems: found }));
  },
  // No known code is a 400 (§7 leaves the validation codes unshown): the ledger's 400 is no cell of the known codes.
  declaredCells: (id, context) => errorCells(context).filter((c) => id !== KNOWN || !c.endsWith(' 400')),
};
