import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { HISTORY_TILES, historyWindow } from '../../lib/arbitraries/history-window.ts';
import { DEFAULT_WINDOW_DAYS } from '../../lib/spec-constants.ts';

describe('historyWindow', () => {
  test('every window ends before the default window begins and lasts an hour to 30 days', () => {
    fc.assert(
      fc.property(historyWindow(), (w) => {
        expect(w.toDaysBack).toBeGreaterThan(DEFAULT_WINDOW_DAYS);
        expect(w.hours).toBeGreaterThanOrEqual(1);
        expect(w.hours).toBeLessThanOrEqual(30 * 24);
      }),
      { numRuns: 500, seed: 1 },
    );
  });

  test('draws mostly the months just past the default window, and sometimes years back', () => {
    const drawn = fc.sample(historyWindow(), { numRuns: 400, seed: 2 });
    const near = drawn.filter((w) => w.toDaysBack <= 3 * DEFAULT_WINDOW_DAYS).length;
    expect(near).toBeGreaterThan(drawn.length / 2);
    expect(drawn.some((w) => w.toDaysBack > 365)).toBe(true);
  });

  test('the tiles cover the 30 days before the default window, whole and in thirds', () => {
    expect(HISTORY_TILES).toContainEqual({ toDaysBack: DEFAULT_WINDOW_DAYS + 1, hours: 30 * 24 });
    const tens = HISTORY_TILES.filter((w) => w.hours === 10 * 24);
    const covered = new Set(tens.flatMap((w) => Array.from({ length: 10 }, (_, i) => w.toDaysBack + i)));
    for (let d = DEFAULT_WINDOW_DAYS + 1; d <= DEFAULT_WINDOW_DAYS + 30; d++) expect(covered.has(d), `day ${d} back`).toBe(true);
    expect(tens).toHaveLength(3);
  });
});
