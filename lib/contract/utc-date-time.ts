/**
 * §2.1 timestamp: "Always output as full ISO 8601 with a trailing `Z`."
 *
 * The accepted text is the RFC 3339 `date-time` production narrowed to UTC written as `Z`:
 * `YYYY-MM-DDTHH:MM:SS(.fraction)?Z`, uppercase `T` and `Z`, ASCII digits only. "Full" rules out
 * the reduced ISO 8601 forms (no seconds, week dates, ordinal dates, basic format without
 * separators); "trailing Z" rules out every numeric offset, `+00:00` included.
 */
// Without the `u` flag `\d` is ASCII 0-9 only, so non-ASCII digits never match.
const UTC_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.\d+)?Z$/;

function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return isLeapYear(year) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/** Whether `text` is a full ISO 8601 / RFC 3339 date-time in UTC with a trailing uppercase `Z`. */
export function isUtcDateTime(text: string): boolean {
  const m = UTC_DATE_TIME.exec(text);
  if (m === null) return false;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  if (month < 1 || month > 12) return false;
  if (day < 1 || day > daysInMonth(year, month)) return false;
  if (hour > 23 || minute > 59) return false;
  // RFC 3339 §5.7: time-second may be 60 for a leap second, which UTC inserts only as the last
  // second of a day, 23:59:60Z. The grammar does not restrict the date (the leap-second table
  // is outside it, RFC 3339 Appendix D), so 23:59:60Z is accepted on any date.
  if (second === 60) return hour === 23 && minute === 59;
  return second <= 59;
}
