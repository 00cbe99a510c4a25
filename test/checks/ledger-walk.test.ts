import { describe, expect, test } from 'vitest';
import { advanceWalk, startWalk, walkLedger } from '../../lib/checks/ledger-walk.ts';
import { ledgerFetcher } from '../../lib/suite/ledger-kit.ts';
import { readPage, duplicateKeys, rowSetDifference, rowOf } from '../../lib/checks/ledger-page.ts';
import { errorExchange, ledgerExchange, page, row, tableFetcher } from './ledger-fixtures.ts';

describe('walkLedger', () => {
  test('follows next_cursor to a null cursor, repeating the query with each cursor', async () => {
    const fetch = tableFetcher({ '': page([row(1)], 'c1'), c1: page([row(2)], 'c2'), c2: page([], null) });
    const walk = await walkLedger(fetch, { from: '2025-01-01', limit: 1 }, { maxPages: 10 });
    expect(walk.end).toBe('last-page');
    expect(walk.rows.map((r) => r.key)).toEqual([row(1)['operation_uuid'], row(2)['operation_uuid']]);
    expect(walk.cursors).toEqual(['c1', 'c2']);
    expect(fetch.calls.every((c) => c.query.from === '2025-01-01' && c.query.limit === 1)).toBe(true);
  });

  test.each([
    ['a refused first page', { '': errorExchange(400) }, 'refused'],
    ['a refused cursor', { '': page([row(1)], 'c1'), c1: errorExchange(400) }, 'cursor-refused'],
    ['a cursor returned twice', { '': page([row(1)], 'c1'), c1: page([], 'c1') }, 'cursor-repeated'],
    ['an older cursor returned again', { '': page([row(1)], 'c1'), c1: page([row(2)], 'c2'), c2: page([], 'c1') }, 'cursor-repeated'],
    ['next_cursor missing', { '': { operations: [row(1)] } }, 'no-cursor-field'],
  ])('%s ends the walk', async (_what, table, end) => {
    expect((await walkLedger(tableFetcher(table), {}, { maxPages: 10 })).end).toBe(end);
  });

  test('stops at the page cap and can be advanced later', async () => {
    const fetch = tableFetcher({ '': page([row(1)], 'c1'), c1: page([row(2)], 'c2'), c2: page([row(3)], null) });
    const walk = await advanceWalk(fetch, startWalk({}), { maxPages: 1 });
    expect(walk.end).toBe('page-cap');
    const between: number[] = [];
    await advanceWalk(fetch, walk, { maxPages: 5, between: async (i) => void between.push(i) });
    expect(walk.end).toBe('last-page');
    expect(walk.rows).toHaveLength(3);
    expect(walk.cursors).toEqual(['c1', 'c2']);
    expect(between).toEqual([0]);
  });

  test('ledgerFetcher sends the cursor and the query through the client', async () => {
    const sent: unknown[] = [];
    const fetch = ledgerFetcher({ send: async (o) => (sent.push(o), ledgerExchange(page([], null))) }, 'primary');
    await fetch({ feature: 'f', limit: 3 }, 'a+b /c');
    expect(sent).toEqual([{ path: '/credits/operations', query: { from: undefined, to: undefined, feature: 'f', limit: 3, cursor: 'a+b /c' }, token: 'primary' }]);
  });
});

describe('ledger pages', () => {
  test('readPage reads rows and next_cursor, and refuses what is not a page', () => {
    const p = readPage(ledgerExchange(page([row(1, { timestamp: '2025-02-20T12:00:00+02:00' })], null)));
    expect(p.ok).toBe(true);
    expect(p.nextCursor).toBeNull();
    expect(p.rows[0]?.instant).toEqual({ seconds: Date.parse('2025-02-20T10:00:00Z') / 1000, fraction: '' });
    expect(readPage(ledgerExchange({ operations: {} })).ok).toBe(false);
    expect(readPage(errorExchange(400)).ok).toBe(false);
  });

  test('rows without uuid are keyed by their JSON; duplicates and differences by key', () => {
    const a = rowOf(row(1));
    const b = rowOf({ feature: 'x' });
    expect(b.key).toBe('{"feature":"x"}');
    expect(duplicateKeys([a, b, a])).toEqual([a.key]);
    expect(rowSetDifference([a], [b])).toEqual({ missing: [b], extra: [a] });
  });
});
