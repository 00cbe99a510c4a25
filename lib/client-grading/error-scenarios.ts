import type { ScriptedAnswer } from '../reference/scripted-mode.ts';
import { error, json, notFound, pathOf, poolHeaders, refuseUnauthenticated } from './scenario-answers.ts';
import type { Scenario } from './scenarios.ts';

/**
 * The transient failures in a row, §7's table: the limiter store down (its code given), then an
 * upstream dependency down or a spend cap reached (503 whose code the spec does not show: the
 * scenario's own, category `transient`).
 */
const OUTAGE: readonly [string, string][] = [
  ['system.rate_limit_unavailable', 'The rate-limiter store is unavailable.'],
  ['system.rate_limit_unavailable', 'The rate-limiter store is unavailable.'],
  ['upstream.unavailable', 'An upstream dependency is unavailable (the monthly spend cap is reached).'],
];

const transient: Scenario = {
  name: 'transient',
  asks: 'GET /credits/operations?limit=10 once, retrying a transient error with backoff',
  serves: `${OUTAGE.length} answers 503 in a row, category transient (${[...new Set(OUTAGE.map(([code]) => code))].join(', ')}), then the ledger`,
  script() {
    let failures = 0;
    return (request): ScriptedAnswer => {
      const refused = refuseUnauthenticated(request);
      if (refused !== undefined) return refused;
      if (pathOf(request) !== '/credits/operations' || request.method !== 'GET') return notFound(request);
      const outage = OUTAGE[failures];
      if (outage !== undefined) {
        failures += 1;
        // > The limiter is fail-closed: no pool answered, so no pool headers.
        return error(503, outage[0], 'transient', outage[1]);
      }
      return json(200, { operations: [], next_cursor: null }, poolHeaders(request.method, 590, request.receivedAtMs));
    };
  },
};

/** The two runs' wordings of the same errors (§7: wording may change, clients must not match on it). */
const WORDINGS: Record<string, { transient: string; permanent: string }> = {
  first: { transient: 'The limiter is briefly down; retry in a moment.', permanent: 'Parameter `to` must not be earlier than `from`.' },
  second: { transient: 'Limiter store unreachable.', permanent: 'Invalid window bounds.' },
};

const wording: Scenario = {
  name: 'wording',
  asks: 'GET /credits/operations?limit=10, then GET /credits/operations?from=2026-02-01&to=2026-01-01; handle each error by its category',
  serves: 'run twice: a 503 transient on the first request, then the ledger; a 400 permanent on the second; the runs differ only in the error messages and request ids',
  runs: Object.keys(WORDINGS),
  script(_seed, run) {
    const words = WORDINGS[run] ?? WORDINGS['first']!;
    let failed = false;
    return (request): ScriptedAnswer => {
      const refused = refuseUnauthenticated(request);
      if (refused !== undefined) return refused;
      if (pathOf(request) !== '/credits/operations' || request.method !== 'GET') return notFound(request);
      const headers = poolHeaders(request.method, 590, request.receivedAtMs);
      if (request.target.includes('from=')) return error(400, 'request.validation_failed', 'permanent', words.permanent, headers);
      if (!failed) {
        failed = true;
        return error(503, 'system.rate_limit_unavailable', 'transient', words.transient);
      }
      return json(200, { operations: [], next_cursor: null }, headers);
    };
  },
};

export const ERROR_SCENARIOS: readonly Scenario[] = [transient, wording];
