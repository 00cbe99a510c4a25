/**
 * The Gregorian calendar's edge for `from` and `to` (§4.1: "Parsed from `YYYY-MM-DD` or RFC
 * 3339"; RFC 3339 §5.7 gives February 29 to years divisible by 4, except centuries not divisible
 * by 400). Random dates rarely land on it, so the checks send it every run.
 */

/** February 29 of years that have one: a plain year, and a century divisible by 400. Each with the next day, as a window. */
export const LEAP_DAY_WINDOWS: readonly { from: string; to: string }[] = [
  { from: '2024-02-29', to: '2024-03-01' },
  { from: '2000-02-29', to: '2000-03-01' },
];

/** February 29 of years that have none: a plain year, and centuries not divisible by 400 (both forms). */
export const COMMON_YEAR_LEAP_DAYS: readonly string[] = ['2023-02-29', '2100-02-29T10:00:00Z', '1900-02-29'];
