import fc from 'fast-check';

function pad(n: number, width = 2): string {
  return String(n).padStart(width, '0');
}

function lastDay(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/** Year, month and day of a date that does not exist: day 0, a day past the month's end, month 0 or 13+. */
const impossibleDate: fc.Arbitrary<string> = fc
  .record({
    year: fc.integer({ min: 2000, max: 2035 }),
    month: fc.integer({ min: 1, max: 12 }),
    how: fc.constantFrom('day-past-end', 'day-zero', 'month-zero', 'month-past-end'),
    past: fc.integer({ min: 1, max: 9 }),
  })
  .map(({ year, month, how, past }) => {
    if (how === 'day-past-end') return `${pad(year, 4)}-${pad(month)}-${pad(Math.min(99, lastDay(year, month) + past))}`;
    if (how === 'day-zero') return `${pad(year, 4)}-${pad(month)}-00`;
    if (how === 'month-zero') return `${pad(year, 4)}-00-15`;
    return `${pad(year, 4)}-${pad(12 + past)}-15`;
  });

const validDate = fc.record({ year: fc.integer({ min: 2000, max: 2035 }), month: fc.integer({ min: 1, max: 12 }), day: fc.integer({ min: 1, max: 28 }) }).map(
  ({ year, month, day }) => `${pad(year, 4)}-${pad(month)}-${pad(day)}`,
);

/** A time of day past its range: hour 24 and on (24:00 is ISO 8601's end of day, not RFC 3339), minute 60+, second 61+. */
const impossibleTime: fc.Arbitrary<string> = fc.oneof(
  fc.integer({ min: 25, max: 99 }).map((h) => `${pad(h)}:00:00`),
  fc.integer({ min: 60, max: 99 }).map((m) => `12:${pad(m)}:00`),
  fc.integer({ min: 61, max: 99 }).map((s) => `12:30:${pad(s)}`),
);

/** An offset past its range: hour 24+ or minute 60+. */
const impossibleOffset: fc.Arbitrary<string> = fc.oneof(
  fc.integer({ min: 24, max: 99 }).map((h) => `+${pad(h)}:00`),
  fc.integer({ min: 60, max: 99 }).map((m) => `-05:${pad(m)}`),
);

/** Text no date reader takes for a date (words like `now` or `yesterday` are left out: some readers take them). */
const GARBAGE = ['not-a-date', 'abc', '~~~', '2024-01-15TT10:00:00Z', '2024-01-15T10:00:00ZZ', '2024-01-15T10:00:00Q', '2024--01-15', 'Z', '-'] as const;

/**
 * A `from` or `to` value that is neither a real `YYYY-MM-DD` date nor an RFC 3339 date-time:
 * impossible dates in both forms, times and offsets out of range, and garbage. Values some
 * readers take leniently and the spec may not forbid (a space for `T`, a lowercase `t`, `24:00`,
 * a leap second, the empty string) are left out on purpose.
 */
export function invalidInstantText(): fc.Arbitrary<string> {
  return fc.oneof(
    impossibleDate,
    fc.tuple(impossibleDate, fc.constantFrom('Z', '+02:00', '')).map(([d, zone]) => `${d}T10:00:00${zone}`),
    fc.tuple(validDate, impossibleTime, fc.constantFrom('Z', '+01:00', '')).map(([d, t, zone]) => `${d}T${t}${zone}`),
    fc.tuple(validDate, impossibleOffset).map(([d, o]) => `${d}T10:00:00${o}`),
    fc.constantFrom(...GARBAGE),
  );
}
