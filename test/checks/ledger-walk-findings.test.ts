import { describe, expect, test } from 'vitest';
import { walkLedger } from '../../lib/checks/ledger-walk.ts';
import {
  CURSOR_BYTE_EXACT,
  cursorsAcceptedFinding,
  defaultPageFindings,
  LIMIT_DEFAULT,
  NO_CURSOR_TO_EMPTY_PAGE,
  NULL_CURSOR_ON_LAST_PAGE,
  PAGE_WITHIN_LIMIT,
  pageLimitFindings,
  pageSizeFindings,
  tiesNotReachedFindings,
  walkCompleteFindings,
  walkEndFindings,
} from '../../lib/checks/ledger-walk-findings.ts';
import { knownRowsOf } from '../../lib/checks/ledger-known-rows.ts';
import { rowOf } from '../../lib/checks/ledger-page.ts';
import { WALK_COMPLETE } from '../../lib/checks/ledger-window-rows.ts';
import { errorExchange, page, row, tableFetcher } from './ledger-fixtures.ts';

const verdictOf = (findings: { requirement: string; verdict: string }[], id: string): string | undefined => findings.find((f) => f.requirement === id)?.verdict;

describe('walkEndFindings', () => {
  test('a walk that ends on null passes, and a followed cursor proves byte-exact', async () => {
    const walk = await walkLedger(tableFetcher({ '': page([row(1)], 'c1'), c1: page([], null) }), {}, { maxPages: 5 });
    const f = walkEndFindings(walk);
    expect(verdictOf(f, NULL_CURSOR_ON_LAST_PAGE)).toBe('pass');
    expect(verdictOf(f, CURSOR_BYTE_EXACT)).toBe('pass');
  });

  test('an empty last page after a page with rows and a cursor ends the walk (MUST) but warns (SHOULD)', async () => {
    const walk = await walkLedger(tableFetcher({ '': page([row(1)], 'c1'), c1: page([], null) }), {}, { maxPages: 5 });
    const f = walkEndFindings(walk);
    expect(verdictOf(f, NULL_CURSOR_ON_LAST_PAGE)).toBe('pass');
    expect(f.find((x) => x.requirement === NO_CURSOR_TO_EMPTY_PAGE)).toMatchObject({ verdict: 'fail', actual: expect.stringContaining('page 1 (1 rows)') });
    const looked = await walkLedger(tableFetcher({ '': page([row(1)], 'c1'), c1: page([row(2)], null) }), {}, { maxPages: 5 });
    expect(verdictOf(walkEndFindings(looked), NO_CURSOR_TO_EMPTY_PAGE)).toBe('pass');
    // An empty window answered on one page says nothing of cursors.
    const empty = await walkLedger(tableFetcher({ '': page([], null) }), {}, { maxPages: 5 });
    expect(verdictOf(walkEndFindings(empty), NO_CURSOR_TO_EMPTY_PAGE)).toBeUndefined();
  });

  test('a cursor returned again fails null-cursor-on-last-page; a refused cursor fails byte-exact', async () => {
    const loop = await walkLedger(tableFetcher({ '': page([row(1)], 'c1'), c1: page([], 'c1') }), {}, { maxPages: 5 });
    expect(verdictOf(walkEndFindings(loop), NULL_CURSOR_ON_LAST_PAGE)).toBe('fail');
    const refused = await walkLedger(tableFetcher({ '': page([row(1)], 'c1'), c1: errorExchange(400) }), {}, { maxPages: 5 });
    expect(verdictOf(walkEndFindings(refused), CURSOR_BYTE_EXACT)).toBe('fail');
    expect(cursorsAcceptedFinding(refused).verdict).toBe('fail');
  });

  test('a walk stopped for its budget says nothing of how it would end', async () => {
    const walk = await walkLedger(tableFetcher({ '': page([row(1)], 'c1'), c1: page([row(2)], 'c2') }), {}, { maxPages: 2 });
    expect(walkEndFindings(walk)).toEqual([]);
    expect(cursorsAcceptedFinding(walk).verdict).toBe('pass');
  });

  test('a row budget stops a walk once that many rows were listed and a cursor leads on', async () => {
    const table = { '': page([row(1), row(2)], 'c1'), c1: page([row(3), row(4)], 'c2'), c2: page([row(5)], null) };
    const capped = await walkLedger(tableFetcher(table), {}, { maxPages: 10, maxRows: 3 });
    expect(capped).toMatchObject({ end: 'page-cap', rows: [expect.anything(), expect.anything(), expect.anything(), expect.anything()] });
    expect((await walkLedger(tableFetcher(table), {}, { maxPages: 10, maxRows: 5 })).end).toBe('last-page');
  });

  test('cursorsAcceptedFinding notes characters that went percent-encoded', async () => {
    const walk = await walkLedger(tableFetcher({ '': page([row(1)], 'a+b c'), 'a+b c': page([], null) }), {}, { maxPages: 5 });
    expect(cursorsAcceptedFinding(walk).note).toContain('"+" " "');
  });
});

describe('walkCompleteFindings', () => {
  test('duplicates fail even without expected rows', async () => {
    const walk = await walkLedger(tableFetcher({ '': page([row(1), row(2)], 'c'), c: page([row(2)], null) }), {}, { maxPages: 5 });
    expect(walkCompleteFindings(walk, undefined)[0]?.verdict).toBe('fail');
  });

  test('a missing row fails; the same rows in another order pass; a row recorded since is only noted', async () => {
    const walk = await walkLedger(tableFetcher({ '': page([row(2)], 'c'), c: page([row(1)], null) }), {}, { maxPages: 5 });
    expect(walkCompleteFindings(walk, [rowOf(row(1)), rowOf(row(2))])[0]?.verdict).toBe('pass');
    expect(walkCompleteFindings(walk, [rowOf(row(1)), rowOf(row(2)), rowOf(row(3))])[0]?.actual).toContain('missing 1');
    expect(walkCompleteFindings(walk, [rowOf(row(1))])[0]).toMatchObject({ verdict: 'pass', note: expect.stringContaining('recorded since') });
  });
});

describe('pageSizeFindings and pageLimitFindings', () => {
  test('walks at two page sizes must list the same rows', async () => {
    const small = await walkLedger(tableFetcher({ '': page([row(1)], 'c'), c: page([row(3)], null) }), { limit: 1 }, { maxPages: 5 });
    const large = await walkLedger(tableFetcher({ '': page([row(1), row(2), row(3)], null) }), { limit: 200 }, { maxPages: 5 });
    const [f] = pageSizeFindings(small, large);
    expect(f?.requirement).toBe('ledger/4.1/page-size-independent');
    expect(f?.verdict).toBe('fail');
    expect(pageSizeFindings(large, large)[0]?.verdict).toBe('pass');
    // The small walk listing more (recorded since the large one) is only noted.
    expect(pageSizeFindings(large, small)[0]).toMatchObject({ verdict: 'pass', note: expect.stringContaining('recorded since') });
  });

  test('a page longer than limit fails; short pages pass; no limit means 50', async () => {
    const long = await walkLedger(tableFetcher({ '': page([row(1), row(2)], null) }), { limit: 1 }, { maxPages: 5 });
    expect(pageLimitFindings(long)[0]).toMatchObject({ requirement: PAGE_WITHIN_LIMIT, verdict: 'fail' });
    const short = await walkLedger(tableFetcher({ '': page([row(1)], 'c'), c: page([row(2)], null) }), { limit: 5 }, { maxPages: 5 });
    expect(pageLimitFindings(short)[0]?.verdict).toBe('pass');
    const many = Array.from({ length: 51 }, (_, i) => row(i));
    const byDefault = await walkLedger(tableFetcher({ '': page(many, null) }), {}, { maxPages: 5 });
    expect(pageLimitFindings(byDefault)[0]).toMatchObject({ requirement: LIMIT_DEFAULT, verdict: 'fail' });
  });
});

describe('defaultPageFindings', () => {
  const rows = (from: number, count: number) => Array.from({ length: count }, (_, i) => row(from + i, { timestamp: `2025-02-20T10:${String(Math.floor((from + i) / 60) % 60).padStart(2, '0')}:${String((from + i) % 60).padStart(2, '0')}Z` }));
  /** A walk of pages of the given sizes over rows 0.., the last one final. */
  const walkOf = (sizes: number[], query = {}) => {
    const table: Record<string, unknown> = {};
    let at = 0;
    sizes.forEach((n, i) => {
      table[i === 0 ? '' : `c${i}`] = page(rows(at, n), i + 1 < sizes.length ? `c${i + 1}` : null);
      at += n;
    });
    return walkLedger(tableFetcher(table), query, { maxPages: 10 });
  };
  const at50 = async () => [await walkOf([50, 50, 50, 20], { limit: 50 }), await walkOf([50, 50, 50, 20], { limit: 50 })] as const;

  test('pages of 50 that lead on without limit, as at limit=50, pass; the first page may list its rows in any order', async () => {
    expect(defaultPageFindings([await walkOf([50, 50, 50, 20]), await walkOf([50, 50, 50, 20])], await at50())[0]).toMatchObject({ requirement: LIMIT_DEFAULT, verdict: 'pass' });
  });

  test('pages of 20 without limit, twice, where limit=50 fills its pages, fail; the curl line is the first page without limit', async () => {
    const f = defaultPageFindings([await walkOf([20, 20, 20, 20, 20, 20, 20, 20, 10]), await walkOf([20, 20, 20, 20, 20, 20, 20, 20, 10])], await at50())[0]!;
    expect(f).toMatchObject({ verdict: 'fail', actual: 'two walks without limit led on with pages of 20, 20, 20, 20, 20, 20, 20, 20 rows' });
    expect(f.exchanges[f.exchanges.length - 1]!.response!.body).toContain('"next_cursor":"c1"');
  });

  test('page sizes without limit that vary from walk to walk (pages cut where the server likes) are not judged', async () => {
    const f = defaultPageFindings([await walkOf([20, 50, 50, 50]), await walkOf([50, 30, 50, 50, 40])], await at50())[0];
    expect(f).toMatchObject({ verdict: 'pass', note: expect.stringContaining('sizes were not judged') });
  });

  test('a server that does not fill its pages at limit=50 leaves nothing to compare', async () => {
    const capped = [await walkOf([25, 25, 25, 25, 25, 25, 20], { limit: 50 }), await walkOf([25, 25, 25, 25, 25, 25, 20], { limit: 50 })] as const;
    expect(defaultPageFindings([await walkOf([20, 20, 20, 20, 20, 20, 20, 20, 10]), await walkOf([20, 20, 20, 20, 20, 20, 20, 20, 10])], capped)[0]).toMatchObject({
      verdict: 'pass',
      note: expect.stringContaining('does not fill its pages'),
    });
    // One page that leads on is too little to tell a server that fills its pages.
    const short = [await walkOf([50, 20], { limit: 50 }), await walkOf([50, 20], { limit: 50 })] as const;
    expect(defaultPageFindings([await walkOf([20, 20, 20, 10]), await walkOf([20, 20, 20, 10])], short)[0]?.verdict).toBe('pass');
  });

  test('other rows on a first page of 50 fail when each pair agrees; ties in another order pass', async () => {
    const other = async () => {
      const table = { '': page(rows(100, 50), 'c1'), c1: page(rows(0, 50), 'c2'), c2: page(rows(50, 50), 'c3'), c3: page(rows(150, 20), null) };
      return walkLedger(tableFetcher(table), {}, { maxPages: 10 });
    };
    expect(defaultPageFindings([await other(), await other()], await at50())[0]).toMatchObject({ verdict: 'fail', actual: expect.stringContaining('50 rows limit=50 did not list first') });
    // Row 49 and row 300 share an instant: listed one for the other, the page is the same up to ties.
    const tied = row(300, { timestamp: (rows(49, 1)[0] as { timestamp: string }).timestamp });
    const swapped = async () => walkLedger(tableFetcher({ '': page([...rows(0, 49), tied], 'c1'), c1: page(rows(49, 50), 'c2'), c2: page(rows(99, 50), 'c3'), c3: page(rows(149, 21), null) }), {}, { maxPages: 10 });
    expect(defaultPageFindings([await swapped(), await swapped()], await at50())[0]?.verdict).toBe('pass');
  });

  test('a refused walk without limit fails; a 503 is not judged', async () => {
    const refused = async (status: number) => walkLedger(tableFetcher({ '': errorExchange(status, status === 503 ? 'upstream.unavailable' : 'request.validation_failed', status === 503 ? 'transient' : 'permanent') }), {}, { maxPages: 2 });
    expect(defaultPageFindings([await refused(400), await refused(400)], await at50())[0]?.verdict).toBe('fail');
    expect(defaultPageFindings([await refused(503), await refused(503)], await at50())[0]?.verdict).toBe('inconclusive');
  });
});

test('walk-complete id is the one the window checks use', () => {
  expect(WALK_COMPLETE).toBe('ledger/4.1/walk-complete');
});

describe('tiesNotReachedFindings', () => {
  const at = (n: number, timestamp: string) => rowOf(row(n, { timestamp }));

  test('a ledger with rows sharing a timestamp reached the boundary between them: nothing to say', () => {
    const known = knownRowsOf([at(1, '2025-02-01T00:00:00Z'), at(2, '2025-02-02T10:00:00Z'), at(3, '2025-02-02T10:00:00Z'), at(4, '2025-02-03T00:00:00Z')])!;
    expect(tiesNotReachedFindings(known)).toEqual([]);
  });

  test('a ledger without ties says the boundary between tied rows was not reached, as a note on a pass', () => {
    // A millisecond apart is another instant, and the newest row is not among the known ones.
    const known = knownRowsOf([at(1, '2025-02-02T10:00:00Z'), at(2, '2025-02-02T10:00:00.001Z'), at(3, '2025-02-03T00:00:00Z')])!;
    const [finding, ...rest] = tiesNotReachedFindings(known);
    expect(rest).toEqual([]);
    expect(finding).toMatchObject({ requirement: WALK_COMPLETE, verdict: 'pass', note: expect.stringMatching(/^not reached: a page boundary between rows that share a timestamp \(none of the 2 known rows/) });
  });
});
