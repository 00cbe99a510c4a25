import { fail, inconclusive, pass, type Finding } from '../model/finding.ts';
import { DEFAULT_WINDOW_DAYS } from '../spec-constants.ts';
import { describeResponse } from './json-body.ts';
import { DEFAULT_WINDOW_TOLERANCE_S, EXPLICIT_MARGIN_MS, type LedgerSample } from './ledger-discovery.ts';
import { compareInstants, formatInstant, instantFromMs } from './ledger-instant.ts';
import { describeRows, type LedgerRow } from './ledger-page.ts';
import { isComplete } from './ledger-walk.ts';

export const DEFAULT_WINDOW = 'ledger/4.1/default-window-30-days';
const DAY_MS = 86_400_000;

/**
 * > When neither bound is given, the window is the last 30 days.
 *
 * The walk without bounds is compared with an earlier walk of the same 30 days written as an
 * explicit window, on the server's clock (Date header). Rows within the tolerance of either end of the
 * window are left out of the comparison: the seconds between requests and clock skew decide them.
 * A row older than 30 days plus the tolerance, or in the future, is too much; a row of the
 * explicit walk well inside the window and missing from the default walk is too little.
 */
export function defaultWindowFindings(sample: LedgerSample): Finding[] {
  const d = sample.defaultWalk;
  const first = d.pages[0]?.exchange;
  if (first === undefined) return [inconclusive(DEFAULT_WINDOW, 'no request without bounds was sent')];
  if (d.end === 'refused') return [fail(DEFAULT_WINDOW, '200 with a page for GET /credits/operations without bounds', describeResponse(first), [first])];
  if (!isComplete(d)) return [inconclusive(DEFAULT_WINDOW, `the walk of the default window did not reach its last page (${d.end})`, [first])];
  const e = sample.explicitWalk;
  const eFirst = e.pages[0]?.exchange;
  if (!isComplete(e) || eFirst === undefined) {
    return [inconclusive(DEFAULT_WINDOW, `the walk of the same window written with bounds did not reach its last page (${e.end})`, eFirst === undefined ? [first] : [first, eFirst])];
  }
  if (d.rows.length === 0 && e.rows.length === 0) return [inconclusive(DEFAULT_WINDOW, 'the ledger shows no row in the last 30 days: nothing to tell the windows apart', [first, eFirst])];
  const toleranceMs = DEFAULT_WINDOW_TOLERANCE_S * 1000;
  if (Math.abs(sample.clockOffsetMs) > EXPLICIT_MARGIN_MS - toleranceMs) {
    return [inconclusive(DEFAULT_WINDOW, `the server's clock (Date header) is ${Math.round(sample.clockOffsetMs / 1000)} s off the harness's: too far to compare windows`, [first, eFirst])];
  }
  const start = sample.defaultStartedMs + sample.clockOffsetMs;
  const end = sample.defaultEndedMs + sample.clockOffsetMs;
  const oldestAllowed = instantFromMs(start - DEFAULT_WINDOW_DAYS * DAY_MS - toleranceMs);
  const newestAllowed = instantFromMs(end + toleranceMs);
  const tooOld: LedgerRow[] = [];
  const future: LedgerRow[] = [];
  for (const r of d.rows) {
    if (r.instant === undefined) continue;
    if (compareInstants(r.instant, oldestAllowed) < 0) tooOld.push(r);
    else if (compareInstants(r.instant, newestAllowed) >= 0) future.push(r);
  }
  const ex = [first, eFirst];
  const findings: Finding[] = [];
  if (tooOld.length > 0) {
    findings.push(fail(DEFAULT_WINDOW, `rows of the last 30 days only (none before ${formatInstant(oldestAllowed)}, allowing ${DEFAULT_WINDOW_TOLERANCE_S} s)`, `${tooOld.length} older rows: ${describeRows(tooOld)}`, ex));
  }
  if (future.length > 0) {
    findings.push(fail(DEFAULT_WINDOW, `no row after the time of the request (${formatInstant(newestAllowed)}, allowing ${DEFAULT_WINDOW_TOLERANCE_S} s)`, `${future.length} later rows: ${describeRows(future)}`, ex));
  }
  const insideFrom = instantFromMs(end - DEFAULT_WINDOW_DAYS * DAY_MS + toleranceMs);
  const insideTo = instantFromMs(start - toleranceMs);
  const listed = new Set(d.rows.map((r) => r.key));
  const missing = e.rows.filter(
    (r) => r.instant !== undefined && compareInstants(r.instant, insideFrom) >= 0 && compareInstants(r.instant, insideTo) < 0 && !listed.has(r.key),
  );
  if (missing.length > 0) {
    findings.push(
      fail(
        DEFAULT_WINDOW,
        `every row of ${formatInstant(insideFrom)} .. ${formatInstant(insideTo)} (well inside the last 30 days) in the default window`,
        `${missing.length} rows listed for the explicit window are missing from the default one: ${describeRows(missing)}`,
        ex,
      ),
    );
  }
  return findings.length > 0 ? findings : [pass(DEFAULT_WINDOW, [first])];
}
