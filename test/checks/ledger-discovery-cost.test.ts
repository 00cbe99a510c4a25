import { describe, expect, test } from 'vitest';
import { discoverLedger, KNOWN_ROWS_MAX, KNOWN_ROWS_MIN, pagesFor } from '../../lib/checks/ledger-discovery.ts';
import { pagedServer } from './ledger-fixtures.ts';

const DAY = 86_400_000;
const NOW = Date.parse('2025-03-01T12:00:00Z');

/** `count` rows spread evenly over the `days` before NOW. */
const evenly = (count: number, days: number) => (i: number) => NOW - days * DAY + Math.floor((i * days * DAY) / count);

describe('discovery cost does not grow with the ledger', () => {
  test.each([
    ['desc', undefined],
    ['asc', undefined],
    ['desc', 25],
    ['asc', 25],
    ['scattered', undefined],
  ] as const)('order %s, page cap %s: 1k, 100k and 1M rows', async (order, pageCap) => {
    const requests: number[] = [];
    for (const size of [1_000, 100_000, 1_000_000]) {
      const server = pagedServer({ instantOf: evenly(size, 30), count: size, now: NOW, order, ...(pageCap === undefined ? {} : { pageCap }) });
      const sample = await discoverLedger(server, () => NOW);
      expect(sample.known?.rows.length, `${size} rows`).toBeGreaterThanOrEqual(KNOWN_ROWS_MIN);
      expect(sample.known?.rows.length, `${size} rows`).toBeLessThanOrEqual(KNOWN_ROWS_MAX);
      requests.push(server.requests);
    }
    // In time order the cost is the same for every size; in any order it is bounded.
    if (order !== 'scattered') expect(new Set(requests).size).toBe(1);
    expect(Math.max(...requests)).toBeLessThanOrEqual(pageCap === undefined ? 30 : 40);
  });
});

test('walk budgets follow the page size the target serves', async () => {
  const capped = await discoverLedger(pagedServer({ instantOf: evenly(100_000, 30), count: 100_000, now: NOW, pageCap: 25 }), () => NOW);
  expect(capped).toMatchObject({ pageRows: 25, pageFill: 25 / 200 });
  // 200 rows at limit=200 take 8 pages of 25 and an empty last one; the budget has room to spare.
  expect(pagesFor(capped, 200, 200)).toBeGreaterThanOrEqual(9);
  const full = await discoverLedger(pagedServer({ instantOf: evenly(100_000, 30), count: 100_000, now: NOW }), () => NOW);
  expect(full.pageFill).toBe(1);
  expect(pagesFor(full, 200, 200)).toBeLessThanOrEqual(7);
});
