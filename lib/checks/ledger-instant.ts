/**
 * Instants as the ledger writes and reads them, exact to the last fraction digit: the harness
 * passes a row's own timestamp back as a bound, or writes that instant again with an offset, so
 * nothing may be lost to millisecond rounding. (The reference has a date reader of its own.)
 */
export interface Instant {
  /** Whole seconds since 1970-01-01T00:00:00Z. */
  seconds: number;
  /** Digits of the fraction of a second, trailing zeros removed ('' for a whole second). */
  fraction: string;
}

const DAY_S = 86_400;
/**
 * The widest offsets in use, east and west of UTC (UTC+14:00 and UTC-12:00): a bound written
 * without an instant of its own is read in some zone, so within these of its wall-clock digits.
 */
export const ZONE_EAST_MAX_S = 14 * 3600;
export const ZONE_WEST_MAX_S = 12 * 3600;
const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(Z|[+-]\d{2}:\d{2})$/;

function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return isLeapYear(year) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/** Days since 1970-01-01 of a Gregorian date. */
function epochDay(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * ((month + 9) % 12) + 2) / 5) + day - 1;
  return era * 146_097 + yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy - 719_468;
}

/** The Gregorian date of a day number (inverse of epochDay). */
function civilDate(days: number): [number, number, number] {
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const doe = z - era * 146_097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36_524) - Math.floor(doe / 146_096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  return [era * 400 + yoe + (month <= 2 ? 1 : 0), month, day];
}

function trimFraction(digits: string | undefined): string {
  return (digits ?? '').replace(/0+$/, '');
}

/**
 * An RFC 3339 date-time with `Z` or a `±hh:mm` offset read as an instant; undefined for any other
 * text or an impossible date. A leap second (`:60`) is the instant one second after `:59`.
 */
export function parseRfc3339(text: string): Instant | undefined {
  const m = RFC3339.exec(text);
  if (m === null) return undefined;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month) || hour > 23 || minute > 59 || second > 60) return undefined;
  const zone = m[8]!;
  let offsetS = 0;
  if (zone !== 'Z') {
    const oh = Number(zone.slice(1, 3));
    const om = Number(zone.slice(4, 6));
    if (oh > 23 || om > 59) return undefined;
    offsetS = (zone.startsWith('-') ? -1 : 1) * (oh * 3600 + om * 60);
  }
  const seconds = epochDay(year, month, day) * DAY_S + hour * 3600 + minute * 60 + second - offsetS;
  return { seconds, fraction: trimFraction(m[7]) };
}

export function compareInstants(a: Instant, b: Instant): number {
  if (a.seconds !== b.seconds) return a.seconds - b.seconds;
  const width = Math.max(a.fraction.length, b.fraction.length);
  const fa = a.fraction.padEnd(width, '0');
  const fb = b.fraction.padEnd(width, '0');
  return fa < fb ? -1 : fa > fb ? 1 : 0;
}

export function addSeconds(instant: Instant, seconds: number): Instant {
  return { seconds: instant.seconds + seconds, fraction: instant.fraction };
}

export function instantFromMs(ms: number): Instant {
  // Whole milliseconds: an instant worked out from a midpoint (a clock offset) may carry a half,
  // which written out would be no timestamp at all (`…:04.504.5Z`).
  const whole = Math.floor(ms);
  const seconds = Math.floor(whole / 1000);
  return { seconds, fraction: trimFraction(String(whole - seconds * 1000).padStart(3, '0')) };
}

/** Milliseconds since the epoch, the fraction cut at the millisecond (for tolerances, never for boundaries). */
export function instantToMs(instant: Instant): number {
  return instant.seconds * 1000 + Number(instant.fraction.slice(0, 3).padEnd(3, '0'));
}

export interface InstantFormat {
  /** `Z` (default), a `±hh:mm` offset in minutes east of UTC, or `none` for a date-time without offset. */
  zone?: 'Z' | 'none' | number;
  /** Fraction digits to write: at least this many (zeros appended), never fewer than the instant needs. */
  minFractionDigits?: number;
}

function pad(n: number, width = 2): string {
  return String(n).padStart(width, '0');
}

/** Writes an instant as RFC 3339 in the zone asked for, keeping every fraction digit it carries. */
export function formatInstant(instant: Instant, format: InstantFormat = {}): string {
  const zone = format.zone ?? 'Z';
  const offsetS = typeof zone === 'number' ? zone * 60 : 0;
  const local = instant.seconds + offsetS;
  const days = Math.floor(local / DAY_S);
  const inDay = local - days * DAY_S;
  const [year, month, day] = civilDate(days);
  const fraction = instant.fraction.padEnd(format.minFractionDigits ?? 0, '0');
  const time = `${pad(Math.floor(inDay / 3600))}:${pad(Math.floor((inDay % 3600) / 60))}:${pad(inDay % 60)}${fraction === '' ? '' : `.${fraction}`}`;
  let suffix = '';
  if (zone === 'Z') suffix = 'Z';
  else if (typeof zone === 'number') suffix = `${zone < 0 ? '-' : '+'}${pad(Math.floor(Math.abs(zone) / 60))}:${pad(Math.abs(zone) % 60)}`;
  return `${pad(year, 4)}-${pad(month)}-${pad(day)}T${time}${suffix}`;
}

/** `YYYY-MM-DD` of the UTC day an instant falls in. */
export function utcDateOf(instant: Instant): string {
  const [year, month, day] = civilDate(Math.floor(instant.seconds / DAY_S));
  return `${pad(year, 4)}-${pad(month)}-${pad(day)}`;
}

/** 00:00:00Z of the UTC day an instant falls in. */
export function startOfUtcDay(instant: Instant): Instant {
  return { seconds: Math.floor(instant.seconds / DAY_S) * DAY_S, fraction: '' };
}

export function isUtcMidnight(instant: Instant): boolean {
  return instant.fraction === '' && instant.seconds % DAY_S === 0;
}

/** The forms §4.1 accepts for `from` and `to`: RFC 3339 with `Z`, with an offset, without one, and `YYYY-MM-DD`. */
export type BoundForm = 'z' | 'offset' | 'offsetless' | 'date';

/**
 * The instants a bound can stand for, whatever the server: one for `Z` and `±hh:mm`; for a
 * date-time without offset its wall-clock time, and for a date 00:00 of it, read in any zone in
 * use (the spec names none), so from 14 hours before to 12 hours after the UTC reading.
 */
export interface BoundReading {
  form: BoundForm;
  earliest: Instant;
  latest: Instant;
}

const OFFSETLESS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?$/;
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/** Seconds a bound of this form may stand before and after its UTC reading. */
export function formReach(form: BoundForm): { before: number; after: number } {
  return form === 'offsetless' || form === 'date' ? { before: ZONE_EAST_MAX_S, after: ZONE_WEST_MAX_S } : { before: 0, after: 0 };
}

/** How a bound's text reads in every accepted form; undefined for text no accepted form takes. */
export function readBound(text: string): BoundReading | undefined {
  const form: BoundForm = DATE_ONLY.test(text) ? 'date' : OFFSETLESS.test(text) ? 'offsetless' : text.endsWith('Z') ? 'z' : 'offset';
  const utc = parseRfc3339(form === 'date' ? `${text}T00:00:00Z` : form === 'offsetless' ? `${text}Z` : text);
  if (utc === undefined) return undefined;
  const reach = formReach(form);
  return { form, earliest: addSeconds(utc, -reach.before), latest: addSeconds(utc, reach.after) };
}
