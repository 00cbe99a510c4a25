import type { Exchange } from '../model/exchange.ts';
import { fail, inconclusive, pass, type Finding } from '../model/finding.ts';
import { envelopeFindingsIfError, expectError } from './error-envelope.ts';
import { describeResponse } from './json-body.ts';
import { compareInstants, formatInstant, type Instant } from './ledger-instant.ts';
import { describeRows, readPage } from './ledger-page.ts';
import { judged } from './judged.ts';

/** The request was taken: 200 with a readable page (what the page holds is judged elsewhere). */
export const acceptedFinding = judged('ledger-acceptance/acceptedFinding', function acceptedFinding(requirement: string, exchange: Exchange, what: string): Finding {
  return readPage(exchange).ok ? pass(requirement, [exchange]) : fail(requirement, `200 with a page for ${what}`, describeResponse(exchange), [exchange]);
});

/**
 * The request was refused as invalid. > 400 | (validation failure) | permanent
 * A 200 (rows for a bad request) and a 5xx both fail; the code is not fixed by the spec.
 */
export const rejectedFinding = judged('ledger-acceptance/rejectedFinding', function rejectedFinding(requirement: string, exchange: Exchange): Finding {
  return expectError(requirement, exchange, { status: 400, category: 'permanent' });
});

/**
 * A validation refusal as every rule on it sees it: the requirement's own (400, envelope,
 * `permanent`), and the §7 findings every error answer earns (envelope, category value,
 * request_id equal to X-Request-Id).
 */
export const refusalFindings = judged('ledger-acceptance/refusalFindings', function refusalFindings(requirement: string, exchange: Exchange): Finding[] {
  return [rejectedFinding(requirement, exchange), ...envelopeFindingsIfError(exchange)];
});

/**
 * A value whose reading the spec leaves open, sent to see what the server does: noted, never
 * failed (a 5xx or a 4xx without the envelope is the run-wide rules' to judge). A refusal's
 * envelope findings come along, as with every error answer.
 */
export const observedFindings = judged('ledger-acceptance/observedFindings', function observedFindings(requirement: string, exchange: Exchange, what: string): Finding[] {
  if (exchange.response === undefined) return [inconclusive(requirement, `${what}: ${describeResponse(exchange)}`, [exchange])];
  const page = readPage(exchange);
  const answer = page.ok ? `accepted: 200 with ${page.rows.length} rows${page.nextCursor === null ? '' : ' and a next_cursor'}` : `answered ${describeResponse(exchange)}`;
  return [pass(requirement, [exchange], `${what}: ${answer}`), ...envelopeFindingsIfError(exchange)];
});

export interface QueryWindow {
  from: Instant;
  to: Instant;
}

/**
 * A cursor the server never returned, sent with a window: refused (400, envelope, `permanent`), or
 * read leniently as some position of that listing, so a page of the window's rows. Never 5xx, and
 * never a row outside the window (a position of some other listing).
 */
export const unissuedCursorFindings = judged('ledger-acceptance/unissuedCursorFindings', function unissuedCursorFindings(requirement: string, exchange: Exchange, window: QueryWindow): Finding[] {
  const page = readPage(exchange);
  if (!page.ok) return refusalFindings(requirement, exchange);
  const outside = page.rows.filter((r) => r.instant !== undefined && (compareInstants(r.instant, window.from) < 0 || compareInstants(r.instant, window.to) >= 0));
  const range = `[${formatInstant(window.from)}, ${formatInstant(window.to)})`;
  if (outside.length > 0) {
    return [fail(requirement, `400, or rows of the window ${range} only`, `a page with ${outside.length} rows outside it: ${describeRows(outside)}`, [exchange])];
  }
  return [pass(requirement, [exchange], `read leniently, as a position of the listing: 200 with ${page.rows.length} rows of ${range}`)];
});
