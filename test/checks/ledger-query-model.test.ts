import { describe, expect, test } from 'vitest';
import type { LedgerSample } from '../../lib/checks/ledger-discovery.ts';
import { compareInstants, formatInstant, parseRfc3339, readBound } from '../../lib/checks/ledger-instant.ts';
import { knownRowsOf } from '../../lib/checks/ledger-known-rows.ts';
import { rowOf } from '../../lib/checks/ledger-page.ts';
import { mayRowCount, modelFindings, modelWindow, mustRows, PARAMETER_COMBINATIONS, queryModelOf, type QueryModel } from '../../lib/checks/ledger-query-model.ts';
import { walkLedger, type LedgerQuery } from '../../lib/checks/ledger-walk.ts';
import { errorExchange, page, row, tableFetcher } from './ledger-fixtures.ts';

const at = (text: string) => parseRfc3339(text)!;
const NOW = Date.parse('2025-03-01T12:00:00Z');
const clock = { startMs: NOW, endMs: NOW };

/** Rows an hour apart on 2025-02-20 (01:00 to 22:00 UTC), the odd hours `deal_agent`, the even `enrichment`. */
const day = Array.from({ length: 22 }, (_, i) => row(i + 1, { timestamp: `2025-02-20T${String(i + 1).padStart(2, '0')}:00:00Z`, feature: i % 2 === 0 ? 'deal_agent' : 'enrichment' }));
const model: QueryModel = { regions: [{ from: at('2025-02-20T01:00:00Z'), to: at('2025-02-20T23:00:00Z'), rows: day.map(rowOf) }], clockOffsetMs: 0 };

async function walkOf(query: LedgerQuery, pages: unknown[][]) {
  const table: Record<string, unknown> = {};
  pages.forEach((rows, i) => (table[i === 0 ? '' : `c${i}`] = page(rows, i + 1 < pages.length ? `c${i + 1}` : null)));
  return walkLedger(tableFetcher(table), query, { maxPages: 10 });
}

function only(findings: { requirement: string; verdict: string }[]) {
  return findings.find((f) => f.requirement === PARAMETER_COMBINATIONS);
}

describe('readBound', () => {
  test('Z and offsets stand for one instant; dates and date-times without offset for any zone from UTC-12 to UTC+14', () => {
    expect(readBound('2025-02-20T10:00:00+05:30')).toEqual({ form: 'offset', earliest: at('2025-02-20T04:30:00Z'), latest: at('2025-02-20T04:30:00Z') });
    expect(readBound('2025-02-20T10:00:00.5Z')).toMatchObject({ form: 'z', earliest: at('2025-02-20T10:00:00.5Z') });
    expect(readBound('2025-02-20T10:00:00')).toEqual({ form: 'offsetless', earliest: at('2025-02-19T20:00:00Z'), latest: at('2025-02-20T22:00:00Z') });
    expect(readBound('2025-02-20')).toEqual({ form: 'date', earliest: at('2025-02-19T10:00:00Z'), latest: at('2025-02-20T12:00:00Z') });
    expect(readBound('2025-02-30')).toBeUndefined();
    expect(readBound('yesterday')).toBeUndefined();
  });
});

describe('modelWindow', () => {
  test('an exact window is its two instants; a zone-free side widens what may and narrows what must be listed', () => {
    expect(modelWindow({ from: '2025-02-20T05:00:00Z', to: '2025-02-20T08:00:00Z' }, clock)).toMatchObject({ mayFrom: at('2025-02-20T05:00:00Z'), mustTo: at('2025-02-20T08:00:00Z') });
    const w = modelWindow({ from: '2025-02-20T05:00:00Z', to: '2025-02-21' }, clock)!;
    expect(w).toMatchObject({ mayFrom: at('2025-02-20T05:00:00Z'), mustFrom: at('2025-02-20T05:00:00Z'), mustTo: at('2025-02-20T10:00:00Z'), mayTo: at('2025-02-21T12:00:00Z') });
    expect(w.text).toContain('any zone');
  });

  test('no bounds: the last 30 days at the request, calendar days in any zone and 300 s allowed', () => {
    const w = modelWindow({ feature: 'x' }, clock)!;
    expect(formatInstant(w.mayFrom)).toBe('2025-01-29T11:55:00Z');
    expect(formatInstant(w.mustFrom)).toBe('2025-01-31T12:05:00Z');
    expect(formatInstant(w.mustTo)).toBe('2025-03-01T11:55:00Z');
    expect(formatInstant(w.mayTo)).toBe('2025-03-01T12:05:00Z');
  });

  test('one bound alone keeps its side and requires no row; a bound no form reads is not judged', () => {
    const from = modelWindow({ from: '2025-02-20T03:00:00Z' }, clock)!;
    expect(compareInstants(from.mayFrom, readBound('2025-02-20T03:00:00Z')!.earliest)).toBe(0);
    expect(from.mayTo.seconds).toBeGreaterThan(Date.UTC(9999, 0) / 1000);
    expect(mustRows(model, from, undefined)).toEqual([]);
    expect(mayRowCount(model, from, undefined)).toBeGreaterThan(0);
    const to = modelWindow({ to: '2025-02-20' }, clock)!;
    // A date alone read in any zone: rows up to 12 hours past its UTC midnight may be before it.
    expect(compareInstants(to.mayTo, readBound('2025-02-20')!.latest)).toBe(0);
    expect(to.mayFrom.seconds).toBeLessThan(0);
    expect(mustRows(model, to, undefined)).toEqual([]);
    expect(to.text).toContain('with no from');
    expect(modelWindow({ from: 'soon' }, clock)).toBeUndefined();
    expect(modelWindow({ from: '2025-02-20', to: 'soon' }, clock)).toBeUndefined();
  });

  test('must and may rows follow the readings and the feature', () => {
    const w = modelWindow({ from: '2025-02-20T03:00:00Z', to: '2025-02-20T18:00:00' }, clock)!;
    // Every reading holds 03:00..03:59 at least (to read at UTC+14 is 04:00Z); some hold up to 23:59.
    expect(mustRows(model, w, undefined).map((r) => r.timestamp)).toEqual(['2025-02-20T03:00:00Z']);
    expect(mayRowCount(model, w, undefined)).toBe(20);
    expect(mayRowCount(model, w, 'enrichment')).toBe(10);
  });
});

describe('modelFindings', () => {
  const query = { from: '2025-02-20T05:00:00Z', to: '2025-02-20T08:00:00Z', feature: 'deal_agent', limit: 1 };
  const window = modelWindow(query, clock)!;
  const five = day[4]!;
  const seven = day[6]!;

  test('exactly the rows of the window with the feature, in any order and over any pages, passes', async () => {
    expect(only(modelFindings(await walkOf(query, [[seven], [five]]), window, model))?.verdict).toBe('pass');
  });

  test('a row outside every reading fails, naming the page, which comes last in the evidence', async () => {
    const walk = await walkOf(query, [[seven], [five, day[9]!]]);
    const f = modelFindings(walk, window, model)[0]!;
    expect(f).toMatchObject({ verdict: 'fail', actual: expect.stringContaining('page 2 lists 1 rows outside') });
    expect(f.exchanges).toHaveLength(2);
  });

  test('a row of another feature, a duplicate and a missing known row each fail', async () => {
    expect(only(modelFindings(await walkOf(query, [[seven, day[5]!], [five]]), window, model))?.verdict).toBe('fail');
    expect(modelFindings(await walkOf(query, [[seven], [seven, five]]), window, model)[0]?.actual).toContain('more than once');
    expect(modelFindings(await walkOf(query, [[seven]]), window, model)[0]?.actual).toContain('missing 1');
  });

  test('a row listed twice in the default window, which grows while it is walked, is noted, not failed', async () => {
    const growing = modelWindow({}, clock)!;
    const f = only(modelFindings(await walkOf({}, [day.slice(0, 11), day.slice(10)]), growing, model));
    expect(f).toMatchObject({ verdict: 'pass', note: expect.stringContaining('1 rows listed twice while the window grew') });
  });

  test('a row inside the window the model does not know is allowed and noted', async () => {
    const late = row(99, { timestamp: '2025-02-20T06:30:00Z' });
    const f = only(modelFindings(await walkOf(query, [[five, late, seven]]), window, model));
    expect(f).toMatchObject({ verdict: 'pass', note: expect.stringContaining('1 rows discovery did not list') });
  });

  test('a refused valid combination fails; a 503 or a 429 leaves it unjudged', async () => {
    const refused = await walkLedger(tableFetcher({ '': errorExchange(400) }), query, { maxPages: 2 });
    expect(modelFindings(refused, window, model)[0]).toMatchObject({ verdict: 'fail', actual: expect.stringContaining('the first page') });
    const down = await walkLedger(tableFetcher({ '': errorExchange(503, 'upstream.unavailable', 'transient') }), query, { maxPages: 2 });
    expect(modelFindings(down, window, model)[0]?.verdict).toBe('inconclusive');
    const cursor = await walkLedger(tableFetcher({ '': page([seven], 'c1'), c1: errorExchange(400) }), query, { maxPages: 3 });
    expect(modelFindings(cursor, window, model)[0]?.actual).toContain('page 2 (a next_cursor passed back)');
  });

  test('a walk stopped by its budget judges the rows it saw only', async () => {
    const capped = await walkLedger(tableFetcher({ '': page([seven], 'c1'), c1: page([five], 'c2') }), query, { maxPages: 1 });
    expect(only(modelFindings(capped, window, model))).toMatchObject({ verdict: 'pass', note: expect.stringContaining('missing row is not judged') });
  });

  test('a date window read in another zone passes; the default window served for it fails', async () => {
    const dates = { from: '2025-02-20', to: '2025-02-21' };
    const w = modelWindow(dates, clock)!;
    // Read at UTC-05:00: 05:00Z to 05:00Z the next day holds the rows from 05:00 on.
    expect(only(modelFindings(await walkOf(dates, [day.slice(4)]), w, model))?.verdict).toBe('pass');
    const served = [...day, row(50, { timestamp: '2025-02-28T09:00:00Z' })];
    expect(only(modelFindings(await walkOf(dates, [served]), w, model))?.verdict).toBe('fail');
  });
});

describe('queryModelOf', () => {
  test('the known window, and the last 30 days walked whole, each up to its newest row', async () => {
    const rows = [row(1, { timestamp: '2025-02-20T01:00:00Z' }), row(2, { timestamp: '2025-02-20T02:00:00Z' }), row(3, { timestamp: '2025-02-20T03:00:00Z' })];
    const explicitWalk = await walkOf({}, [rows]);
    const sample = {
      known: knownRowsOf(explicitWalk.rows),
      explicitWalk,
      explicitFrom: at('2025-01-30T11:00:00Z'),
      clockOffsetMs: 1500,
    } as unknown as LedgerSample;
    const m = queryModelOf(sample);
    expect(m.clockOffsetMs).toBe(1500);
    expect(m.regions.map((g) => [formatInstant(g.from), formatInstant(g.to), g.rows.length])).toEqual([
      ['2025-02-20T01:00:00Z', '2025-02-20T03:00:00Z', 2],
      ['2025-01-30T11:00:00Z', '2025-02-20T03:00:00Z', 2],
    ]);
  });
});
