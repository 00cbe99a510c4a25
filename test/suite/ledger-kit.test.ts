import { expect, test } from 'vitest';
import { fittingLimit, walkWhole } from '../../lib/suite/ledger-kit.ts';
import { page, pagedServer, tableFetcher } from '../checks/ledger-fixtures.ts';

test('a drawn limit is kept while the window fits its pages, and raised only as far as needed', () => {
  expect(fittingLimit(2, 10, 12)).toBe(2);
  // 66 rows in 12 pages: 7 rows a page leaves room for late rows and an empty last page.
  expect(fittingLimit(2, 66, 12)).toBe(7);
  expect(Math.ceil(66 / fittingLimit(1, 66, 12))).toBeLessThanOrEqual(10);
  expect(fittingLimit(1, 100_000, 40)).toBe(200);
});

test('a walk to the end goes past its page estimate while pages hold rows, up to a page per known row', async () => {
  // Pages of one row each, though discovery saw them full: the estimate (9 pages) falls short.
  const oneRow = pagedServer({ instantOf: (i) => Date.parse('2025-02-20T10:00:00Z') + i * 1000, count: 30, now: Date.parse('2025-03-01T12:00:00Z'), pageCap: 1 });
  const walk = await walkWhole(oneRow, { from: '2025-02-20T00:00:00Z', to: '2025-02-21T00:00:00Z' }, { pageFill: 1 }, 30);
  expect(walk.end).toBe('last-page');
  expect(walk.rows).toHaveLength(30);
  // Empty pages that lead on are not progress: the walk stops at its estimate.
  const empty = tableFetcher(Object.fromEntries(Array.from({ length: 40 }, (_, i) => [i === 0 ? '' : `c${i}`, page([], `c${i + 1}`)])));
  const stuck = await walkWhole(empty, {}, { pageFill: 1 }, 30);
  expect(stuck).toMatchObject({ end: 'page-cap' });
  expect(stuck.pages).toHaveLength(6);
});
