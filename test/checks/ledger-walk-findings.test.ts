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
  walkCompleteFindings,
  walkEndFindings,
} from '../../lib/checks/ledger-walk-findings.ts';
import { readPage, rowOf } from '../../lib/checks/ledger-page.ts';
import { WALK_COMPLETE } from '../../lib/checks/ledger-window-rows.ts';
import { errorExchange, ledgerExchange, page, row, tableFetcher } from './ledger-fixtures.ts';

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
  const rows = (from: number, count: number) => Array.from({ length: count }, (_, i) => row(from + i));
  const pageOf = (body: unknown) => readPage(ledgerExchange(body));
  const full = pageOf(page(rows(0, 50), 'c'));

  test('limit=50 full and leading on twice: the page without limit holds the same 50 rows, in any order', () => {
    expect(defaultPageFindings(pageOf(page(rows(0, 50).reverse(), 'x')), full, full)[0]).toMatchObject({ requirement: LIMIT_DEFAULT, verdict: 'pass' });
  });

  test('a page of 20 rows without limit, where limit=50 serves 50 and leads on, fails', () => {
    expect(defaultPageFindings(pageOf(page(rows(0, 20), 'x')), full, full)[0]).toMatchObject({ verdict: 'fail', actual: 'the page without limit holds 20 rows' });
  });

  test('50 other rows fail when limit=50 lists the same twice; compare the count only when it does not', () => {
    const other = pageOf(page(rows(100, 50), 'x'));
    expect(defaultPageFindings(other, full, full)[0]?.verdict).toBe('fail');
    const again = pageOf(page(rows(200, 50), 'c'));
    expect(defaultPageFindings(other, full, again)[0]).toMatchObject({ verdict: 'pass', note: expect.stringContaining('count was compared') });
  });

  test('a server that does not fill its pages at limit=50 leaves nothing to compare', () => {
    const capped = pageOf(page(rows(0, 25), 'c'));
    expect(defaultPageFindings(pageOf(page(rows(0, 20), 'x')), capped, capped)[0]).toMatchObject({ verdict: 'pass', note: expect.stringContaining('does not fill its pages') });
    const last = pageOf(page(rows(0, 50), null));
    expect(defaultPageFindings(pageOf(page(rows(0, 20), 'x')), last, last)[0]?.verdict).toBe('pass');
  });

  test('a refused page without limit fails; a 503 is not judged', () => {
    expect(defaultPageFindings(readPage(errorExchange(400)), full, full)[0]?.verdict).toBe('fail');
    expect(defaultPageFindings(readPage(errorExchange(503, 'upstream.unavailable', 'transient')), full, full)[0]?.verdict).toBe('inconclusive');
  });
});

test('walk-complete id is the one the window checks use', () => {
  expect(WALK_COMPLETE).toBe('ledger/4.1/walk-complete');
});
