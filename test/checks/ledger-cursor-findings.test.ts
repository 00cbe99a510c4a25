import { describe, expect, test } from 'vitest';
import { disjointFindings, foreignCursorFindings, replayFindings } from '../../lib/checks/ledger-cursor-findings.ts';
import { unissuedCursorFindings } from '../../lib/checks/ledger-acceptance.ts';
import { featureFilterFindings } from '../../lib/checks/ledger-feature-filter.ts';
import { parseRfc3339 } from '../../lib/checks/ledger-instant.ts';
import { defaultWindowPinnedFindings, NO_REPEAT_UNDER_GROWTH, rowsAddedSince, STABLE_UNDER_GROWTH, stableUnderGrowthFindings } from '../../lib/checks/ledger-growth.ts';
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

  test('other rows the second time fail; a refusal with 400 and the envelope (a cursor valid once) passes', () => {
    const a = readPage(ledgerExchange(page([row(1), row(2)], 'x')));
    expect(replayFindings(a, readPage(ledgerExchange(page([row(2), row(3)], 'y'))))[0]?.verdict).toBe('fail');
    expect(replayFindings(a, readPage(errorExchange(400)))[0]).toMatchObject({ verdict: 'pass', note: expect.stringContaining('valid once') });
    expect(replayFindings(a, readPage(errorExchange(500, 'system.internal', 'transient')))[0]?.verdict).toBe('fail');
  });
});

describe('unissuedCursorFindings', () => {
  const window = { from: parseRfc3339('2025-02-20T00:00:00Z')!, to: parseRfc3339('2025-02-21T00:00:00Z')! };
  const verdicts = (findings: { requirement: string; verdict: string }[]) => Object.fromEntries(findings.map((f) => [f.requirement, f.verdict]));

  test('a refusal passes and is judged for envelope and request_id; a 500 fails', () => {
    expect(verdicts(unissuedCursorFindings('ledger/4.1/cursor-garbage-400', errorExchange(400), window))).toMatchObject({
      'ledger/4.1/cursor-garbage-400': 'pass',
      'errors/7/envelope': 'pass',
      'errors/7/request-id-header': 'pass',
    });
    expect(unissuedCursorFindings('ledger/4.1/cursor-garbage-400', errorExchange(500, 'system.internal', 'transient'), window)[0]?.verdict).toBe('fail');
  });

  test('read leniently as a position of the listing (`{}` as the start) passes with a note; rows outside the window fail', () => {
    const inside = ledgerExchange(page([row(1, { timestamp: '2025-02-20T10:00:00Z' })], 'x'));
    expect(unissuedCursorFindings('ledger/4.1/cursor-garbage-400', inside, window)[0]).toMatchObject({ verdict: 'pass', note: expect.stringContaining('leniently') });
    const outside = ledgerExchange(page([row(1, { timestamp: '2025-02-22T10:00:00Z' })], 'x'));
    expect(unissuedCursorFindings('ledger/4.1/cursor-garbage-400', outside, window)[0]?.verdict).toBe('fail');
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

  test('a refused filter fails (it is a valid one); a 503 or a 429 is not judged', async () => {
    expect(featureFilterFindings(await walkOf({ '': errorExchange(400) }), 'deal_agent', undefined)[0]?.verdict).toBe('fail');
    expect(featureFilterFindings(await walkOf({ '': errorExchange(503, 'upstream.unavailable', 'transient') }), 'deal_agent', undefined)[0]?.verdict).toBe('inconclusive');
    expect(featureFilterFindings(await walkOf({ '': errorExchange(429, 'rate_limit.exceeded', 'rate_limited') }), 'deal_agent', undefined)[0]?.verdict).toBe('inconclusive');
  });
});

describe('growth', () => {
  const original = [row(1), row(2), row(3)].map(rowOf);
  const added = [rowOf(row(9))];

  const verdicts = (findings: { requirement: string; verdict: string }[]) => Object.fromEntries(findings.map((f) => [f.requirement, f.verdict]));

  test('each original row once, the added row or not: passes', async () => {
    const both = { [STABLE_UNDER_GROWTH]: 'pass', [NO_REPEAT_UNDER_GROWTH]: 'pass' };
    expect(verdicts(stableUnderGrowthFindings(await walkOf({ '': page([row(1), row(2)], 'c'), c: page([row(3), row(9)], null) }), original, added))).toEqual(both);
    expect(verdicts(stableUnderGrowthFindings(await walkOf({ '': page([row(1), row(2)], 'c'), c: page([row(3)], null) }), original, added))).toEqual(both);
  });

  test('a skipped original row fails the MUST; a repeated one only the SHOULD (offset cursors repeat rows)', async () => {
    const repeated = await walkOf({ '': page([row(1), row(2)], 'c'), c: page([row(2), row(3)], null) });
    expect(verdicts(stableUnderGrowthFindings(repeated, original, added))).toEqual({ [STABLE_UNDER_GROWTH]: 'pass', [NO_REPEAT_UNDER_GROWTH]: 'fail' });
    const skipped = await walkOf({ '': page([row(1), row(2)], 'c'), c: page([row(9)], null) });
    expect(verdicts(stableUnderGrowthFindings(skipped, original, added))).toEqual({ [STABLE_UNDER_GROWTH]: 'fail', [NO_REPEAT_UNDER_GROWTH]: 'pass' });
  });

  test('no added row: inconclusive', async () => {
    const findings = stableUnderGrowthFindings(await walkOf({ '': page([row(1), row(2), row(3)], null) }), original, []);
    expect(findings.map((f) => f.verdict)).toEqual(['inconclusive', 'inconclusive']);
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

  test('a walk of the default window stopped for its budget is judged on the pages read', async () => {
    const busy = await walkLedger(tableFetcher({ '': page([row(1)], 'c'), c: page([row(2)], 'd') }), {}, { maxPages: 2 });
    expect(defaultWindowPinnedFindings(busy, added)[0]).toMatchObject({ verdict: 'pass', note: expect.stringContaining('2 pages read') });
  });
});
