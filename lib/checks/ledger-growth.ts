import { fail, inconclusive, pass, type Finding } from '../model/finding.ts';
import { compareInstants, type Instant } from './ledger-instant.ts';
import { describeRows, duplicateKeys, rowSetDifference, type LedgerRow } from './ledger-page.ts';
import { isComplete, walkExchanges, type Walk } from './ledger-walk.ts';
import { walkTrouble } from './ledger-window-rows.ts';
import { judged } from './judged.ts';

export const STABLE_UNDER_GROWTH = 'ledger/4.1/stable-under-growth';
export const NO_REPEAT_UNDER_GROWTH = 'ledger/4.1/no-repeat-under-growth';
export const DEFAULT_WINDOW_PINNED = 'ledger/4.1/default-window-pinned';

/**
 * A walk during which rows were added (a message sent between two of its pages, and whatever
 * other clients wrote): it lists every row the window held before the walk began (MUST: a skipped
 * row is a gap in the ledger), and each row once (SHOULD: an offset cursor over newest-first rows
 * repeats one, and the spec does not rule such cursors out). The added rows may be listed or not:
 * the spec says nothing of rows that arrive during a walk.
 */
export const stableUnderGrowthFindings = judged('ledger-growth/stableUnderGrowthFindings', function stableUnderGrowthFindings(walk: Walk, original: readonly LedgerRow[], added: readonly LedgerRow[]): Finding[] {
  const ex = walkExchanges(walk);
  const dupes = duplicateKeys(walk.rows);
  const repeats =
    dupes.length > 0
      ? fail(NO_REPEAT_UNDER_GROWTH, 'each row once, though rows were added during the walk', `${dupes.length} rows listed twice: ${describeRows(dupes.map((k) => walk.rows.find((r) => r.key === k)!))}`, ex)
      : undefined;
  const trouble = walkTrouble(walk);
  if (trouble !== undefined) return [...(repeats === undefined ? [] : [repeats]), inconclusive(STABLE_UNDER_GROWTH, trouble, ex)];
  const { missing } = rowSetDifference(walk.rows, original);
  const grew = added.length > 0;
  const skipped =
    missing.length > 0
      ? fail(STABLE_UNDER_GROWTH, `all ${original.length} rows the window held when the walk began`, `missing ${missing.length}: ${describeRows(missing)}`, ex)
      : grew
        ? pass(STABLE_UNDER_GROWTH, ex)
        : inconclusive(STABLE_UNDER_GROWTH, 'the message added no row that the ledger showed in the window, so the walk did not run while the ledger grew', ex);
  const once = repeats ?? (grew ? pass(NO_REPEAT_UNDER_GROWTH, ex) : inconclusive(NO_REPEAT_UNDER_GROWTH, 'no row was added while the walk ran', ex));
  return [skipped, once];
});

/**
 * A walk of the default window during which rows were added: rows added after its first page are
 * outside the window that page was served for, and must not appear on later pages. A walk the
 * harness stopped for its budget (a busy ledger) is judged on the pages it read.
 */
export const defaultWindowPinnedFindings = judged('ledger-growth/defaultWindowPinnedFindings', function defaultWindowPinnedFindings(walk: Walk, added: readonly LedgerRow[]): Finding[] {
  const ex = walkExchanges(walk);
  const keys = new Set(added.map((r) => r.key));
  const late = walk.rows.filter((r) => keys.has(r.key));
  if (late.length > 0) {
    return [
      fail(
        DEFAULT_WINDOW_PINNED,
        'the default window of the first page kept for the whole walk: no row added after it',
        `the walk listed ${late.length} rows added after its first page: ${describeRows(late)}`,
        ex,
      ),
    ];
  }
  if (!isComplete(walk) && walk.end !== 'page-cap') return [inconclusive(DEFAULT_WINDOW_PINNED, walkTrouble(walk) ?? 'the walk did not end', ex)];
  if (added.length === 0) return [inconclusive(DEFAULT_WINDOW_PINNED, 'the message added no row the ledger showed, so nothing could slide into the walk', ex)];
  if (!isComplete(walk)) return [pass(DEFAULT_WINDOW_PINNED, ex, `none of the ${added.length} rows added showed on the ${walk.pages.length} pages read; the rest of the window was not walked (request budget)`)];
  return [pass(DEFAULT_WINDOW_PINNED, ex)];
});

/**
 * Rows in `after` that `before` (an earlier walk of the same window) did not hold and that are at
 * least as new as every row it held: the rows added meanwhile. A row recorded late, with an older
 * timestamp, is left out: it is someone else's and says nothing about the walk under test.
 */
export function rowsAddedSince(before: Walk, after: Walk): LedgerRow[] {
  let newest: Instant | undefined;
  for (const r of before.rows) if (r.instant !== undefined && (newest === undefined || compareInstants(r.instant, newest) > 0)) newest = r.instant;
  return rowSetDifference(after.rows, before.rows).extra.filter((r) => newest === undefined || (r.instant !== undefined && compareInstants(r.instant, newest) >= 0));
}
