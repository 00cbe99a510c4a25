import { describe, expect, test } from 'vitest';
import { disjointFindings, foreignCursorFindings, replayFindings } from '../../lib/checks/ledger-cursor-findings.ts';
import { featureFilterFindings } from '../../lib/checks/ledger-feature-filter.ts';
import { defaultWindowPinnedFindings, rowsAddedSince, stableUnderGrowthFindings } from '../../lib/checks/ledger-growth.ts';
import { readPage, rowOf } from '../../lib/checks/ledger-page.ts';
import { walkLedger } from '../../lib/checks/ledger-walk.ts';
import { errorExchange, ledgerExchange, page, row, tableFetcher } from './ledger-fixtures.ts';

const walkOf = (table: Record<string, unknown>) => walkLedger(tableFetcher(table), {}, { maxPages: 10 });

describe('replayFindings', () => {
  test('the same rows in another order and with a new next_cursor pass', () => {
    const a = readPage(ledgerExchange(page([row(1), row(2)], 'x')));
    const b = readPage(ledgerExchange(page([row(2), row(1)], 'y')));
    expect(replayFindings(a, b)[0]?.verdict).toBe('pass');
  });

  test('other rows or a refusal the second time fail', () => {
    const a = readPage(ledgerExchange(page([row(1), row(2)], 'x')));
    expect(replayFindings(a, readPage(ledgerExchange(page([row(2), row(3)], 'y'))))[0]?.verdict).toBe('fail');
    expect(replayFindings(a, readPage(errorExchange(400)))[0]?.verdict).toBe('fail');
  });
});

describe('workspaces', () => {
  const own = new Set([rowOf(row(1)).key, rowOf(row(2)).key]);

  test('a foreign cursor refused, or answered with other rows, passes; with own rows fails', () => {
    const refused = errorExchange(400);
    expect(foreignCursorFindings(refused, readPage(refused), own)[0]?.verdict).toBe('pass');
    const theirs = ledgerExchange(page([row(9)], null));
    expect(foreignCursorFindings(theirs, readPage(theirs), own)[0]?.verdict).toBe('pass');
    const leak = ledgerExchange(page([row(2)], null));
    expect(foreignCursorFindings(leak, readPage(leak), own)[0]?.verdict).toBe('fail');
  });

  test('a shared operation fails workspaces-disjoint', async () => {
    expect(disjointFindings(await walkOf({ '': page([row(7), row(8)], null) }), own)[0]?.verdict).toBe('pass');
    expect(disjointFindings(await walkOf({ '': page([row(7)], 'c'), c: page([row(1)], null) }), own)[0]?.verdict).toBe('fail');
  });
});

describe('featureFilterFindings', () => {
  test('another feature on a later page fails, as does a missing row of the feature', async () => {
    const f = 'deal_agent';
    const ok = await walkOf({ '': page([row(1)], 'c'), c: page([row(2)], null) });
    expect(featureFilterFindings(ok, f, [rowOf(row(1)), rowOf(row(2))])[0]?.verdict).toBe('pass');
    const leaking = await walkOf({ '': page([row(1)], 'c'), c: page([row(2, { feature: 'deal_agent_batch' })], null) });
    expect(featureFilterFindings(leaking, f, undefined)[0]?.actual).toContain('page 2');
    expect(featureFilterFindings(ok, f, [rowOf(row(1)), rowOf(row(2)), rowOf(row(3))])[0]?.verdict).toBe('fail');
  });
});

describe('growth', () => {
  const original = [row(1), row(2), row(3)].map(rowOf);
  const added = [rowOf(row(9))];

  test('each original row once, the added row or not: passes', async () => {
    expect(stableUnderGrowthFindings(await walkOf({ '': page([row(1), row(2)], 'c'), c: page([row(3), row(9)], null) }), original, added)[0]?.verdict).toBe('pass');
    expect(stableUnderGrowthFindings(await walkOf({ '': page([row(1), row(2)], 'c'), c: page([row(3)], null) }), original, added)[0]?.verdict).toBe('pass');
  });

  test('a repeated or a skipped original row fails', async () => {
    expect(stableUnderGrowthFindings(await walkOf({ '': page([row(1), row(2)], 'c'), c: page([row(2), row(3)], null) }), original, added)[0]?.verdict).toBe('fail');
    expect(stableUnderGrowthFindings(await walkOf({ '': page([row(1), row(2)], 'c'), c: page([row(9)], null) }), original, added)[0]?.verdict).toBe('fail');
  });

  test('no added row: inconclusive', async () => {
    expect(stableUnderGrowthFindings(await walkOf({ '': page([row(1), row(2), row(3)], null) }), original, [])[0]?.verdict).toBe('inconclusive');
  });

  test('rowsAddedSince keeps new rows at least as new as the earlier walk, not late ones', async () => {
    const before = await walkOf({ '': page([row(1, { timestamp: '2025-02-20T10:00:00Z' })], null) });
    const after = await walkOf({
      '': page([row(1, { timestamp: '2025-02-20T10:00:00Z' }), row(8, { timestamp: '2025-02-19T10:00:00Z' }), row(9, { timestamp: '2025-02-21T10:00:00Z' })], null),
    });
    expect(rowsAddedSince(before, after).map((r) => r.key)).toEqual([rowOf(row(9)).key]);
  });

  test('an added row in a walk of the default window fails default-window-pinned', async () => {
    expect(defaultWindowPinnedFindings(await walkOf({ '': page([row(1)], 'c'), c: page([row(9)], null) }), added)[0]?.verdict).toBe('fail');
    expect(defaultWindowPinnedFindings(await walkOf({ '': page([row(1)], 'c'), c: page([row(2)], null) }), added)[0]?.verdict).toBe('pass');
  });
});
