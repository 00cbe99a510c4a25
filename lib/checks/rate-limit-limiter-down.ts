import type { Exchange } from '../model/exchange.ts';
import { fail, inconclusive, pass, type Finding } from '../model/finding.ts';
import { expectError } from './error-envelope.ts';
import { exchangeLabel } from './rate-limit-headers.ts';
import { backgroundAllowance, backgroundNote, spanMs, type Background, type LedgerCount } from './rate-limit-ledger.ts';
import { judged } from './judged.ts';

const STORE_DOWN = { status: 503, code: 'system.rate_limit_unavailable', category: 'transient' } as const;

/**
 * §7 "503 | system.rate_limit_unavailable | transient | The rate-limiter store is down." for every
 * request sent during the fault: the first that differs is quoted, and how many others did.
 */
export const limiterDownFinding = judged('rate-limit-limiter-down/limiterDownFinding', function limiterDownFinding(requirement: string, during: readonly Exchange[]): Finding {
  if (during.length === 0) return inconclusive(requirement, 'no request was sent while the limiter store was down');
  const wrong = during.map((exchange) => ({ exchange, finding: expectError(requirement, exchange, STORE_DOWN) })).filter((w) => w.finding.verdict !== 'pass');
  const first = wrong[0];
  if (first !== undefined) {
    const more = wrong.length > 1 ? ` (and ${wrong.length - 1} more: ${wrong.slice(1).map((w) => exchangeLabel(w.exchange)).join(', ')})` : '';
    return { ...first.finding, actual: `${exchangeLabel(first.exchange)}: ${first.finding.actual ?? ''}${more}`, exchanges: wrong.map((w) => w.exchange) };
  }
  return pass(requirement, during.slice(0, 1), `${during.length} authenticated requests answered 503 system.rate_limit_unavailable`);
});

/** The ledger counted around a fault, and other clients' rows measured when it grew. */
export interface FaultRows {
  before: LedgerCount;
  after: LedgerCount;
  background?: Background;
}

/**
 * §7 "The limiter is fail-closed": while the store is down no request is served, and a message
 * POST sent then leaves no ledger row (counted once the store is back) beyond what other clients
 * of the workspace add meanwhile.
 */
export const failClosedFinding = judged('rate-limit-limiter-down/failClosedFinding', function failClosedFinding(requirement: string, during: readonly Exchange[], rows?: FaultRows): Finding {
  if (during.length === 0) return inconclusive(requirement, 'no request was sent while the limiter store was down');
  const passed = during.find((e) => e.response !== undefined && e.response.status < 400);
  if (passed !== undefined) return fail(requirement, 'nothing served while the limiter store is down (fail-closed)', `${exchangeLabel(passed)}: the limiter failed open`, [passed]);
  if (rows === undefined) return pass(requirement, during.slice(0, 1), 'no request was served (no message route configured to test the ledger)');
  if (!rows.before.ok || !rows.after.ok) return inconclusive(requirement, 'the ledger could not be counted around the fault', during.slice(0, 1));
  const grew = rows.after.rows - rows.before.rows;
  const allowance = backgroundAllowance(rows.background, spanMs(rows.before, rows.after));
  if (grew > allowance) {
    const others = allowance === 0 ? '' : `, more than the ${allowance} that other clients' rows (${backgroundNote(rows.background)}) explain`;
    return fail(requirement, 'no ledger row from the message POST sent while the limiter store was down', `the ledger grew by ${grew} rows${others}`, [...during, ...rows.after.pages.slice(0, 1)]);
  }
  if (grew > 0) return pass(requirement, during.slice(0, 1), `no request was served; the ledger grew by ${grew} rows, within the ${allowance} that other clients' rows (${backgroundNote(rows.background)}) explain`);
  return pass(requirement, during.slice(0, 1), 'no request was served and the ledger did not grow');
});

/** Once the store is back, authenticated requests are served again (not 503 system.rate_limit_unavailable). */
export const limiterRecoversFinding = judged('rate-limit-limiter-down/limiterRecoversFinding', function limiterRecoversFinding(requirement: string, after: readonly Exchange[]): Finding {
  if (after.length === 0) return inconclusive(requirement, 'no request was sent after the limiter store came back');
  const stuck = after.find((e) => e.response === undefined || e.response.status >= 500 || e.response.status === 429);
  if (stuck === undefined) return pass(requirement, after.slice(0, 1));
  if (stuck.response === undefined) return inconclusive(requirement, `no answer after the store came back: ${exchangeLabel(stuck)}`, [stuck]);
  return fail(requirement, 'the request served once the limiter store is back', exchangeLabel(stuck), [stuck]);
});
