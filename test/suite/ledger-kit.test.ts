import { expect, test } from 'vitest';
import { fittingLimit } from '../../lib/suite/ledger-kit.ts';

test('a drawn limit is kept while the window fits its pages, and raised only as far as needed', () => {
  expect(fittingLimit(2, 10, 12)).toBe(2);
  // 66 rows in 12 pages: 7 rows a page leaves room for late rows and an empty last page.
  expect(fittingLimit(2, 66, 12)).toBe(7);
  expect(Math.ceil(66 / fittingLimit(1, 66, 12))).toBeLessThanOrEqual(10);
  expect(fittingLimit(1, 100_000, 40)).toBe(200);
});
