import { fail, inconclusive, pass, type Finding } from '../model/finding.ts';
import { LEDGER_LIMIT_DEFAULT } from '../spec-constants.ts';
import { describeResponse } from './json-body.ts';
import { describeRows, duplicateKeys, rowSetDifference, type LedgerRow } from './ledger-page.ts';
import { largestTie, type KnownRows } from './ledger-known-rows.ts';
import { isComplete, walkExchanges, type Walk } from './ledger-walk.ts';
import { walkTrouble, WALK_COMPLETE } from './ledger-window-rows.ts';
import { judged } from './judged.ts';

export const NULL_CURSOR_ON_LAST_PAGE = 'ledger/2.2/null-cursor-on-last-page';
export const NO_CURSOR_TO_EMPTY_PAGE = 'ledger/2.2/no-cursor-to-empty-page';
export const CURSOR_BYTE_EXACT = 'ledger/4.1/cursor-byte-exact';
export const PAGE_SIZE_INDEPENDENT = 'ledger/4.1/page-size-independent';
export const PAGE_WITHIN_LIMIT = 'ledger/4.1/page-within-limit';
export const LIMIT_DEFAULT = 'ledger/8.3/limit-default-50';

/**
 * What the walks could not reach on this ledger, said beside their verdict: with no two known rows
 * at one instant, no page boundary fell between tied rows, where a cursor that keeps only the
 * timestamp skips the rest of the tie. The spec does not ask a ledger for ties, so this is a note,
 * never a failure; nothing when the ledger has them (the walks aim at the largest first).
 */
export const tiesNotReachedFindings = judged('ledger-walk-findings/tiesNotReachedFindings', function tiesNotReachedFindings(known: KnownRows): Finding[] {
  if (largestTie(known) !== undefined) return [];
  const rows = known.rows.length;
  return [pass(WALK_COMPLETE, [], `not reached: a page boundary between rows that share a timestamp (none of the ${rows} known row${rows === 1 ? '' : 's'} shares one with another), where a cursor that keeps only the timestamp skips rows`)];
});

/**
 * How the walk ended, judged: a cursor returned a second time means the walk never ends
 * (null-cursor-on-last-page); a returned cursor that is refused means the server did not take back
 * its own value (cursor-byte-exact). An empty last page after a non-null cursor ends the walk, so
 * the MUST holds; but the page before it had no further page after it and should have said so
 * with null (no-cursor-to-empty-page, SHOULD). A walk the harness stopped for its request budget
 * says nothing either way.
 */
export const walkEndFindings = judged('ledger-walk-findings/walkEndFindings', function walkEndFindings(walk: Walk): Finding[] {
  const ex = walkExchanges(walk);
  const last = ex[ex.length - 1];
  switch (walk.end) {
    case 'cursor-repeated': {
      const cursor = walk.pages[walk.pages.length - 1]?.nextCursor ?? '';
      return [
        fail(
          NULL_CURSOR_ON_LAST_PAGE,
          'a walk that ends with next_cursor null',
          `page ${walk.pages.length} returned next_cursor ${JSON.stringify(cursor.length > 80 ? `${cursor.slice(0, 80)}…` : cursor)}, a cursor this walk had already returned: following it would never end`,
          ex,
        ),
      ];
    }
    case 'cursor-refused':
      return [fail(CURSOR_BYTE_EXACT, '200 with the next page for a next_cursor passed back exactly as returned', describeResponse(last!), ex)];
    case 'last-page':
      return [pass(NULL_CURSOR_ON_LAST_PAGE, ex), ...(walk.cursors.length > 0 ? [pass(CURSOR_BYTE_EXACT, ex), emptyLastPageFinding(walk)] : [])];
    case 'page-cap':
      return [];
    case 'no-cursor-field':
      return [inconclusive(NULL_CURSOR_ON_LAST_PAGE, 'a page had no usable next_cursor (see ledger/2.2/next-cursor-present)', ex)];
    case 'refused':
      return [];
  }
});

/** A walk of several pages that ended: did a page with rows lead, by a cursor, to an empty last page? */
function emptyLastPageFinding(walk: Walk): Finding {
  const ex = walkExchanges(walk);
  const last = walk.pages[walk.pages.length - 1]!;
  const before = walk.pages[walk.pages.length - 2];
  if (last.rows.length > 0 || before === undefined || before.rows.length === 0) return pass(NO_CURSOR_TO_EMPTY_PAGE, ex.slice(-1));
  return fail(
    NO_CURSOR_TO_EMPTY_PAGE,
    'next_cursor null on the page after which no row is left',
    `page ${walk.pages.length - 1} (${before.rows.length} rows) returned a cursor whose page is empty and last`,
    ex.slice(-2),
  );
}

/**
 * Every row of the window exactly once: no duplicate in the walk, and every row an earlier walk
 * listed in this window (rows are not removed from a ledger). A row the earlier walk did not list
 * is not held against this one: a ledger may record usage late, with an earlier timestamp.
 * `requirement` names the rule the walk proves (walk-complete, or a default's that asks the same).
 */
export const walkCompleteFindings = judged('ledger-walk-findings/walkCompleteFindings', function walkCompleteFindings(walk: Walk, expected: readonly LedgerRow[] | undefined, requirement: string = WALK_COMPLETE): Finding[] {
  const ex = walkExchanges(walk);
  const dupes = duplicateKeys(walk.rows);
  if (dupes.length > 0) {
    const rows = dupes.map((k) => walk.rows.find((r) => r.key === k)!);
    return [fail(requirement, 'each row of the window once in the walk', `${dupes.length} rows listed more than once: ${describeRows(rows)}`, ex)];
  }
  const trouble = walkTrouble(walk);
  if (trouble !== undefined) return walk.end === 'refused' ? [] : [inconclusive(requirement, trouble, ex)];
  if (expected === undefined) return [pass(requirement, ex)];
  const { missing, extra } = rowSetDifference(walk.rows, expected);
  if (missing.length > 0) {
    return [fail(requirement, `every row of the window exactly once (an earlier walk listed ${expected.length})`, `missing ${missing.length} rows of the window: ${describeRows(missing)}`, ex)];
  }
  return [pass(requirement, ex, extra.length > 0 ? `${extra.length} rows the earlier walk did not list (recorded since?): ${describeRows(extra)}` : undefined)];
});

/**
 * The same rows whatever the page size: every row a walk at limit=200 listed is listed by a later
 * walk of the same window at a small limit. (Rows the later walk adds may have been recorded in
 * between; they are only noted.)
 */
export const pageSizeFindings = judged('ledger-walk-findings/pageSizeFindings', function pageSizeFindings(small: Walk, large: Walk): Finding[] {
  const ex = [...walkExchanges(large), ...walkExchanges(small)];
  if (!isComplete(small) || !isComplete(large)) {
    return [inconclusive(PAGE_SIZE_INDEPENDENT, walkTrouble(isComplete(small) ? large : small) ?? 'a walk did not end', ex)];
  }
  const { missing, extra } = rowSetDifference(small.rows, large.rows);
  if (missing.length > 0) {
    return [
      fail(
        PAGE_SIZE_INDEPENDENT,
        'the same rows with any page size',
        `limit=${String(small.query.limit)} missed ${missing.length} rows that limit=${String(large.query.limit)} listed: ${describeRows(missing)}`,
        ex,
      ),
    ];
  }
  return [pass(PAGE_SIZE_INDEPENDENT, ex, extra.length > 0 ? `limit=${String(small.query.limit)} also listed ${describeRows(extra)} (recorded since?)` : undefined)];
});

/**
 * > limit | integer | 1 to 200, default 50. | Page size.
 * No page of the walk holds more rows than its `limit` (50 when the walk gave none). Short pages are
 * fine: the spec does not say a page is full.
 */
export const pageLimitFindings = judged('ledger-walk-findings/pageLimitFindings', function pageLimitFindings(walk: Walk): Finding[] {
  const given = walk.query.limit;
  const limit = given === undefined ? LEDGER_LIMIT_DEFAULT : typeof given === 'number' ? given : Number(given);
  const id = given === undefined ? LIMIT_DEFAULT : PAGE_WITHIN_LIMIT;
  const pages = walk.pages.filter((p) => p.ok);
  if (pages.length === 0 || !Number.isInteger(limit)) return [];
  const over = pages.findIndex((p) => p.rows.length > limit);
  if (over === -1) return [pass(id, [pages[0]!.exchange])];
  const page = pages[over]!;
  return [
    fail(id, `at most ${limit} rows per page${given === undefined ? ' (no limit given: the default, 50)' : ` (limit=${limit})`}`, `page ${over + 1} holds ${page.rows.length} rows`, [page.exchange]),
  ];
});

/** Rows per page of the pages of a walk that led on (a string next_cursor): its page sizes. */
function leadingSizes(walk: Walk): number[] {
  return walk.pages.filter((p) => p.ok && typeof p.nextCursor === 'string').map((p) => p.rows.length);
}

/** The same rows, or rows swapped for others at the same instants (ties listed in another order). */
function sameRowsUpToTies(a: readonly LedgerRow[], b: readonly LedgerRow[]): boolean {
  const { missing, extra } = rowSetDifference(a, b);
  const instants = (rows: readonly LedgerRow[]): string => rows.map((r) => r.timestamp ?? '?').sort().join(' ');
  return instants(missing) === instants(extra);
}

/**
 * > limit | integer | 1 to 200, default 50. | Page size.
 * A default equals its explicit form, judged by comparison: two walks of one window at `limit=50`
 * and two without `limit`. Only a server that fills its pages there (every page that led on held
 * 50 rows, at least two per walk) is compared; one that shortens them (a cap, pages cut where it
 * likes) leaves nothing to compare, and only "at most 50" is judged. Then the walks without
 * `limit`, when they repeat each other page for page (the server's page size for this query, not
 * chance), must lead on with 50 rows a page as well; and their first page holds the rows of the
 * first page at `limit=50` when each pair agrees (ties may come in another order).
 */
export const defaultPageFindings = judged('ledger-walk-findings/defaultPageFindings', function defaultPageFindings(withoutLimit: readonly [Walk, Walk], at50: readonly [Walk, Walk]): Finding[] {
  const first = withoutLimit[0];
  // The first page without limit last: the curl line a failure prints is its own.
  const ex = [...at50.flatMap(walkExchanges), ...walkExchanges(withoutLimit[1]), ...walkExchanges(first).slice(1), first.pages[0]!.exchange];
  if (first.end === 'refused') {
    const answer = first.pages[0]!.exchange;
    if (answer.response?.status === 503) return [inconclusive(LIMIT_DEFAULT, describeResponse(answer), ex)];
    return [fail(LIMIT_DEFAULT, '200 with a page without limit, as with limit=50', describeResponse(answer), ex)];
  }
  const full = at50.map(leadingSizes);
  if (!full.every((sizes) => sizes.length >= 2 && sizes.every((n) => n === LEDGER_LIMIT_DEFAULT))) {
    const seen = full.map((sizes) => (sizes.length === 0 ? 'none' : sizes.join(', '))).join('; then ');
    return [pass(LIMIT_DEFAULT, ex, `pages that led on at limit=50 held ${seen} rows: the server does not fill its pages there, so only "at most 50" was judged`)];
  }
  const [sizes, again] = withoutLimit.map(leadingSizes) as [number[], number[]];
  const repeated = sizes.join(',') === again.join(',');
  const expected = `pages without limit as those of limit=50, which led on with 50 rows a page in two walks of this window (${full[0]!.length} and ${full[1]!.length} pages)`;
  if (repeated && sizes.some((n) => n !== LEDGER_LIMIT_DEFAULT)) {
    return [fail(LIMIT_DEFAULT, expected, `two walks without limit led on with pages of ${sizes.join(', ')} rows`, ex)];
  }
  if (!repeated) return [pass(LIMIT_DEFAULT, ex, `two walks without limit led on with pages of ${sizes.join(', ')} and of ${again.join(', ')} rows (cut where the server likes): the sizes were not judged`)];
  const pages = [...at50, ...withoutLimit].map((w) => w.pages[0]!.rows);
  const [a, a2, b, b2] = pages as [LedgerRow[], LedgerRow[], LedgerRow[], LedgerRow[]];
  if (sameRowsUpToTies(a, a2) && sameRowsUpToTies(b, b2) && !sameRowsUpToTies(a, b)) {
    const { missing, extra } = rowSetDifference(b, a);
    return [fail(LIMIT_DEFAULT, `${expected}: the first page holds the rows limit=50 listed first, twice`, `${extra.length} rows limit=50 did not list first (${describeRows(extra)}), ${missing.length} it did missing (${describeRows(missing)})`, ex)];
  }
  return [pass(LIMIT_DEFAULT, ex, `pages without limit led on with 50 rows, as at limit=50 (${sizes.length} pages)`)];
});

/** Characters of a cursor that went percent-encoded (all but those encodeURIComponent leaves). */
function reservedCharacters(cursors: readonly string[]): string[] {
  return [...new Set(cursors.flatMap((c) => [...c].filter((ch) => !/[A-Za-z0-9\-_.!~*'()]/.test(ch))))];
}

/**
 * > cursor | string | Opaque. | Pass back exactly the value returned earlier in `next_cursor`.
 * Every cursor the walk passed back, percent-encoded byte for byte, was taken (200 with a page).
 */
export const cursorsAcceptedFinding = judged('ledger-walk-findings/cursorsAcceptedFinding', function cursorsAcceptedFinding(walk: Walk): Finding {
  const ex = walkExchanges(walk);
  if (walk.end === 'cursor-refused') return fail(CURSOR_BYTE_EXACT, '200 with the next page for a next_cursor passed back exactly as returned', describeResponse(ex[ex.length - 1]!), ex);
  if (walk.cursors.length === 0) return inconclusive(CURSOR_BYTE_EXACT, walk.end === 'refused' ? walkTrouble(walk)! : 'no page returned a cursor to pass back', ex);
  const reserved = reservedCharacters(walk.cursors);
  return pass(
    CURSOR_BYTE_EXACT,
    ex,
    reserved.length === 0 ? `${walk.cursors.length} cursors passed back` : `${walk.cursors.length} cursors passed back, holding characters sent percent-encoded: ${reserved.map((c) => JSON.stringify(c)).join(' ')}`,
  );
});
