import fc from 'fast-check';
import { DEFAULT_WINDOW_DAYS } from '../spec-constants.ts';

/**
 * A window older than the last 30 days, where the rows the harness discovers never are: its `to`
 * so many days back (just past the default window, or up to a few years), and its length in hours.
 * §4.1 puts no limit on how far back a window may reach, so every row a server lists for it must
 * still lie inside it.
 */
export interface HistoryWindow {
  toDaysBack: number;
  hours: number;
}

const FAR_DAYS = 3 * 366;

/**
 * The 30 days just before the default window, whole and in three tiles of 10 days: where a
 * server's older rows begin, covered every run before the random windows.
 */
export const HISTORY_TILES: readonly HistoryWindow[] = [
  { toDaysBack: DEFAULT_WINDOW_DAYS + 1, hours: 30 * 24 },
  { toDaysBack: DEFAULT_WINDOW_DAYS + 1, hours: 10 * 24 },
  { toDaysBack: DEFAULT_WINDOW_DAYS + 11, hours: 10 * 24 },
  { toDaysBack: DEFAULT_WINDOW_DAYS + 21, hours: 10 * 24 },
];

export function historyWindow(): fc.Arbitrary<HistoryWindow> {
  // Mostly the months just past the default window, where a server's older rows begin; now and
  // then a year or three back.
  const toDaysBack = fc.oneof(
    { arbitrary: fc.integer({ min: DEFAULT_WINDOW_DAYS + 1, max: 3 * DEFAULT_WINDOW_DAYS }), weight: 3 },
    { arbitrary: fc.constantFrom(DEFAULT_WINDOW_DAYS + 1, 366, FAR_DAYS), weight: 1 },
    { arbitrary: fc.integer({ min: DEFAULT_WINDOW_DAYS + 1, max: FAR_DAYS }), weight: 1 },
  );
  const hours = fc.oneof(fc.constantFrom(1, 24, 10 * 24, 30 * 24), fc.integer({ min: 1, max: 30 * 24 }));
  return fc.record({ toDaysBack, hours });
}
