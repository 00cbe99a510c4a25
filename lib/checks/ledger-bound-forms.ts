import type { Exchange } from '../model/exchange.ts';
import { fail, inconclusive, pass, type Finding } from '../model/finding.ts';
import { describeResponse } from './json-body.ts';
import { compareInstants, formatInstant, readBound } from './ledger-instant.ts';
import { describeRows, readPage, rowSetDifference, type LedgerRow } from './ledger-page.ts';
import { isComplete, walkExchanges, type Walk } from './ledger-walk.ts';
import { walkTrouble } from './ledger-window-rows.ts';
import { judged } from './judged.ts';

export const EQUAL_BOUNDS_EMPTY = 'ledger/4.1/equal-bounds-empty';
export const OFFSET_INSTANT = 'ledger/4.1/offset-instant';
export const DATE_ONLY_ACCEPTED = 'ledger/4.1/date-only-accepted';
export const OFFSETLESS_ACCEPTED = 'ledger/4.1/offsetless-accepted';
export const RFC3339_LENIENT = 'ledger/4.1/rfc3339-lenient-forms';

/**
 * > to | ... | Must be >= `from`. | Exclusive upper bound of the window.
 * `from` equal to `to` is allowed and, `to` being exclusive, the window holds no instant: 200 with
 * no row, even though rows carry exactly that timestamp.
 */
export const equalBoundsFinding = judged('ledger-bound-forms/equalBoundsFinding', function equalBoundsFinding(exchange: Exchange, rowsAtInstant: number): Finding {
  const page = readPage(exchange);
  const expected = `200 with no row (from = to; ${rowsAtInstant} rows carry that exact timestamp)`;
  if (!page.ok) return fail(EQUAL_BOUNDS_EMPTY, expected, describeResponse(exchange), [exchange]);
  if (page.rows.length > 0) return fail(EQUAL_BOUNDS_EMPTY, expected, `${page.rows.length} rows: ${describeRows(page.rows)}`, [exchange]);
  return pass(EQUAL_BOUNDS_EMPTY, [exchange]);
});

/**
 * > Parsed from `YYYY-MM-DD` or RFC 3339, with or without offset.
 * One window written twice: with `Z` (the reference walk) and with `±hh:mm` offsets that denote
 * the same instants. Both must be accepted and list the same rows.
 */
export const sameInstantFindings = judged('ledger-bound-forms/sameInstantFindings', function sameInstantFindings(written: Walk, withZ: Walk, requirement: string = OFFSET_INSTANT): Finding[] {
  const ex = [...walkExchanges(written), ...walkExchanges(withZ)];
  const window = `from=${written.query.from ?? ''} to=${written.query.to ?? ''}`;
  if (written.end === 'refused') return [fail(requirement, `200 for ${window}`, describeResponse(written.pages[0]!.exchange), ex)];
  if (!isComplete(written) || !isComplete(withZ)) return [inconclusive(requirement, walkTrouble(isComplete(written) ? withZ : written)!, ex)];
  const { missing, extra } = rowSetDifference(written.rows, withZ.rows);
  if (missing.length === 0 && extra.length === 0) return [pass(requirement, ex)];
  const parts = [
    ...(missing.length > 0 ? [`lacks ${missing.length} rows the Z form lists: ${describeRows(missing)}`] : []),
    ...(extra.length > 0 ? [`lists ${extra.length} rows the Z form does not: ${describeRows(extra)}`] : []),
  ];
  return [fail(requirement, `${window} selects the same rows as from=${withZ.query.from ?? ''} to=${withZ.query.to ?? ''}`, parts.join('; '), ex)];
});

/**
 * A bound form the spec accepts without saying which instant it stands for (a date alone, a
 * date-time without offset): it must be accepted and read as some zone reads it, so no row may lie
 * outside every reading of the window (a bound dropped, and the default window served, shows
 * here); whether the rows are those of the UTC reading is only noted.
 */
export const acceptedFormFinding = judged('ledger-bound-forms/acceptedFormFinding', function acceptedFormFinding(requirement: string, walk: Walk, utcRows: readonly LedgerRow[] | undefined, form: string): Finding {
  const ex = walkExchanges(walk);
  const bounds = `from=${walk.query.from ?? ''} to=${walk.query.to ?? ''}`;
  if (walk.end === 'refused') return fail(requirement, `200 for ${form} bounds (${bounds})`, describeResponse(ex[0]!), ex);
  const from = readBound(walk.query.from ?? '');
  const to = readBound(walk.query.to ?? '');
  if (from !== undefined && to !== undefined) {
    const outsideOf = (rows: readonly LedgerRow[]): LedgerRow[] =>
      rows.filter((r) => r.instant !== undefined && (compareInstants(r.instant, from.earliest) < 0 || compareInstants(r.instant, to.latest) >= 0));
    const page = walk.pages.findIndex((p) => outsideOf(p.rows).length > 0);
    if (page !== -1) {
      const outside = outsideOf(walk.rows);
      const range = `[${formatInstant(from.earliest)}, ${formatInstant(to.latest)})`;
      // The first page that shows it last: the curl line a failure prints is that page's.
      return fail(requirement, `only rows of ${bounds} read in some zone (UTC−12 to UTC+14): within ${range}`, `${outside.length} rows outside every reading: ${describeRows(outside)}`, ex.slice(0, page + 1));
    }
  }
  if (utcRows === undefined || !isComplete(walk)) return pass(requirement, ex);
  const { missing, extra } = rowSetDifference(walk.rows, utcRows);
  const note =
    missing.length === 0 && extra.length === 0
      ? `read as UTC: the ${walk.rows.length} rows are those of the same bounds with Z`
      : `not read as UTC (the spec does not say which instant ${form} stands for): ${missing.length} rows of the UTC reading missing, ${extra.length} others listed`;
  return pass(requirement, ex, note);
});
