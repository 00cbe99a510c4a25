import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { GeneratedRows } from '../../lib/reference/ledger-generated.ts';
import { compareRows, LedgerStore, type LedgerScan, type StoredOperation } from '../../lib/reference/ledger-store.ts';

const DAY = 86_400_000;
const END = Date.parse('2025-03-01T12:34:56.789Z');
const KINDS = [
  { feature: 'deal_agent', operationType: 'agent_message', weight: 5 },
  { feature: 'deal_agent_batch', operationType: 'batch_run', weight: 1 },
  { feature: 'enrichment', operationType: 'enrichment_lookup', weight: 3 },
];

function generated(count: number, spanMs = 30 * DAY): GeneratedRows {
  return new GeneratedRows({ workspace: 'ws_1', count, endMs: END, spanMs, kinds: KINDS });
}

describe('generated rows', () => {
  const g = generated(5_000);
  const rows = Array.from({ length: g.count }, (_, i) => g.row(i));

  test('are a pure function of their index, in time and operation_uuid order, inside their span', () => {
    expect(g.row(1234)).toEqual(generated(5_000).row(1234));
    for (let i = 1; i < rows.length; i++) expect(compareRows(rows[i - 1]!, rows[i]!), `row ${i}`).toBeLessThan(0);
    expect(rows[0]!.at).toBeGreaterThanOrEqual(END - 30 * DAY);
    expect(rows[rows.length - 1]!.at).toBeLessThan(END);
  });

  test('hold UTC midnights, shared timestamps, whole seconds, milliseconds and every feature', () => {
    const midnights = rows.filter((r) => r.at % DAY === 0).length;
    expect(midnights).toBeGreaterThanOrEqual(29);
    const shared = rows.filter((r, i) => i > 0 && rows[i - 1]!.at === r.at).length;
    expect(shared).toBeGreaterThan(50);
    expect(rows.some((r) => r.at % 1000 === 0 && r.at % DAY !== 0)).toBe(true);
    expect(rows.some((r) => r.at % 1000 !== 0)).toBe(true);
    expect(new Set(rows.map((r) => r.feature))).toEqual(new Set(KINDS.map((k) => k.feature)));
    expect(rows.some((r) => r.credits === 0)).toBe(true);
  });

  test('firstFrom finds the first index at or after an instant by binary search', () => {
    for (const i of [0, 1, 17, 2_500, 4_999]) {
      const at = rows[i]!.at;
      expect(g.firstFrom(at, false)).toBe(rows.findIndex((r) => r.at >= at));
      const after = rows.findIndex((r) => r.at > at);
      expect(g.firstFrom(at, true)).toBe(after === -1 ? g.count : after);
    }
    expect(g.firstFrom(END, false)).toBe(g.count);
  });

  // What a million rows cost to set up is measured by `npm run bench` (its costs table).
  test('a million rows answer a window by index', () => {
    const big = generated(1_000_000);
    const hour = big.firstFrom(END - 3_600_000, false);
    expect(big.count - hour).toBeGreaterThan(1_300);
  });
});

/** The rows a scan should give, by brute force. */
function expected(all: StoredOperation[], q: LedgerScan): StoredOperation[] {
  const sign = q.order === 'asc' ? 1 : -1;
  const after = q.after;
  return all
    .filter((r) => q.fromMs === null || (q.fromStrict ? r.at > q.fromMs : r.at >= q.fromMs))
    .filter((r) => q.toMs === null || (q.toInclusive ? r.at <= q.toMs : r.at < q.toMs))
    .filter((r) => q.match(r.feature))
    .filter((r) => after === undefined || (after.skipTies ? sign * (r.at - after.at) > 0 : sign * compareRows(r, { at: after.at, operation_uuid: after.uuid }) > 0))
    .sort((a, b) => sign * compareRows(a, b));
}

describe('the store', () => {
  const store = new LedgerStore();
  store.generate({ workspace: 'ws_1', count: 600, endMs: END, spanMs: 2 * DAY, kinds: KINDS });
  // Stored rows interleave with the generated ones, some on the very same instants.
  const g = generated(600, 2 * DAY);
  for (let i = 0; i < 150; i++) {
    const at = i % 5 === 0 ? g.at(i * 4) : END - 2 * DAY + Math.floor((i * 2 * DAY) / 150);
    store.append('ws_1', { operation_type: 'x', feature: i % 3 === 0 ? 'enrichment' : 'deal_agent', credits: 1, metadata: {} }, at);
  }
  const all = [...store.rows('ws_1'), ...Array.from({ length: 600 }, (_, i) => g.row(i))];

  test('keeps stored rows in (timestamp, operation_uuid) order whatever order they come in', () => {
    const stored = store.rows('ws_1');
    for (let i = 1; i < stored.length; i++) expect(compareRows(stored[i - 1]!, stored[i]!)).toBeLessThan(0);
  });

  test('scans merge stored and generated rows exactly as filtering and sorting them all would', () => {
    const instant = fc.integer({ min: END - 2 * DAY - 1000, max: END + 1000 });
    const scan = fc.record({
      from: fc.option(instant, { nil: null }),
      to: fc.option(instant, { nil: null }),
      fromStrict: fc.boolean(),
      toInclusive: fc.boolean(),
      feature: fc.constantFrom(null, 'deal_agent', 'enrichment', 'deal', 'nothing'),
      prefix: fc.boolean(),
      order: fc.constantFrom('asc' as const, 'desc' as const),
      after: fc.option(fc.record({ index: fc.nat({ max: all.length - 1 }), skipTies: fc.boolean() }), { nil: undefined }),
    });
    fc.assert(
      fc.property(scan, (s) => {
        const match = (f: string): boolean => s.feature === null || (s.prefix ? f.startsWith(s.feature) : f === s.feature);
        const q: LedgerScan = { workspaces: ['ws_1'], fromMs: s.from, fromStrict: s.fromStrict, toMs: s.to, toInclusive: s.toInclusive, match, order: s.order };
        if (s.after !== undefined) {
          const pos = all[s.after.index]!;
          q.after = { at: pos.at, uuid: pos.operation_uuid, skipTies: s.after.skipTies };
        }
        const got = [...store.scan(q)].map((r) => r.operation_uuid);
        expect(got).toEqual(expected(all, q).map((r) => r.operation_uuid));
      }),
      { numRuns: 150 },
    );
  });
});
