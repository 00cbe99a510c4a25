/**
 * The reference's reading of a window bound (§4.1 `from`, `to`): "Parsed from `YYYY-MM-DD` or
 * RFC 3339, with or without offset." Written apart from the harness's date code on purpose.
 *
 * Reference choices: a date alone is 00:00 UTC of that day; a date-time without offset is UTC;
 * `T`/`t` and `Z`/`z` are both read (RFC 3339 §5.6 allows lower case); a leap second (`:60`) is
 * the instant one second after `:59`; digits past milliseconds round up, because rows carry
 * milliseconds and a bound between two milliseconds must keep `from` inclusive and `to` exclusive.
 */
export type BoundForm = 'date' | 'date-time-utc' | 'date-time-offset' | 'date-time-local';

export type ParsedBound = { ok: true; ms: number; form: BoundForm } | { ok: false; reason: string };

/** How a defect switch bends the parser. */
export interface BoundQuirks {
  /** Reads the wall-clock digits as UTC and drops the offset. */
  ignoreOffset?: boolean;
  rejectOffset?: boolean;
  rejectDateOnly?: boolean;
  rejectLocal?: boolean;
  /** Lets calendar fields overflow (Feb 30 becomes Mar 1, hour 25 the next day). */
  overflowCalendar?: boolean;
  /** Throws on text it cannot read instead of refusing it. */
  throwOnGarbage?: boolean;
  /** Refuses `-00:00`, as ISO 8601 does (RFC 3339 §4.3 gives it a meaning). */
  rejectNegativeZero?: boolean;
  /** Reads a fraction of one to three digits only (a milliseconds pattern). */
  fractionMillisecondsOnly?: boolean;
  /** Reads `T` and `Z` in upper case only. */
  upperCaseOnly?: boolean;
  /** Which years have a February 29: none, or every fourth (the Julian rule, 2100 too). */
  leapYears?: 'none' | 'every-fourth';
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?([Zz]|[+-]\d{2}:\d{2})?$/;

const DAY_MS = 86_400_000;

function isLeap(year: number, quirks: BoundQuirks): boolean {
  if (quirks.leapYears === 'none') return false;
  if (quirks.leapYears === 'every-fourth') return year % 4 === 0;
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

function monthDays(year: number, month: number, quirks: BoundQuirks): number {
  return month === 2 ? (isLeap(year, quirks) ? 29 : 28) : [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/** Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's days_from_civil). */
function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const mp = (month + 9) % 12;
  const doy = Math.floor((153 * mp + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

/** Milliseconds of a fraction of a second, rounded up past the third digit. */
function fractionMs(digits: string | undefined): number {
  if (digits === undefined) return 0;
  const ms = Number(digits.slice(0, 3).padEnd(3, '0'));
  return /[1-9]/.test(digits.slice(3)) ? ms + 1 : ms;
}

function refuse(reason: string, quirks: BoundQuirks): ParsedBound {
  if (quirks.throwOnGarbage === true) throw new Error(`unreadable bound: ${reason}`);
  return { ok: false, reason };
}

export function parseBound(text: string, quirks: BoundQuirks = {}): ParsedBound {
  const date = DATE.exec(text);
  if (date !== null) {
    if (quirks.rejectDateOnly === true) return { ok: false, reason: 'a date without a time is not accepted' };
    const [year, month, day] = date.slice(1, 4).map(Number) as [number, number, number];
    if (quirks.overflowCalendar !== true && (month < 1 || month > 12 || day < 1 || day > monthDays(year, month, quirks))) {
      return refuse(`${text} is not a calendar date`, quirks);
    }
    return { ok: true, ms: quirks.overflowCalendar === true ? Date.UTC(year, month - 1, day) : daysFromCivil(year, month, day) * DAY_MS, form: 'date' };
  }
  const m = DATE_TIME.exec(text);
  if (m === null) return refuse('expected YYYY-MM-DD or an RFC 3339 date-time', quirks);
  if (quirks.upperCaseOnly === true && /[tz]/.test(text)) return { ok: false, reason: 'T and Z must be upper case' };
  if (quirks.fractionMillisecondsOnly === true && m[7] !== undefined && m[7].length > 3) return { ok: false, reason: 'fractions of a second take at most three digits' };
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  const zone = m[8];
  const form: BoundForm = zone === undefined ? 'date-time-local' : /^[Zz]$/.test(zone) ? 'date-time-utc' : 'date-time-offset';
  if (form === 'date-time-offset' && quirks.rejectOffset === true) return { ok: false, reason: 'a numeric offset is not accepted' };
  if (zone === '-00:00' && quirks.rejectNegativeZero === true) return { ok: false, reason: '-00:00 is not an offset' };
  if (form === 'date-time-local' && quirks.rejectLocal === true) return { ok: false, reason: 'a date-time needs an offset' };
  let offsetMinutes = 0;
  if (form === 'date-time-offset') {
    const sign = zone!.startsWith('-') ? -1 : 1;
    const oh = Number(zone!.slice(1, 3));
    const om = Number(zone!.slice(4, 6));
    if (quirks.overflowCalendar !== true && (oh > 23 || om > 59)) return refuse(`${zone} is not an offset`, quirks);
    offsetMinutes = quirks.ignoreOffset === true ? 0 : sign * (oh * 60 + om);
  }
  if (quirks.overflowCalendar !== true) {
    if (month < 1 || month > 12 || day < 1 || day > monthDays(year, month, quirks)) return refuse(`${text} is not a calendar date`, quirks);
    if (hour > 23 || minute > 59 || second > 60) return refuse(`${text} is not a time of day`, quirks);
  }
  const wallClock =
    (quirks.overflowCalendar === true ? Date.UTC(year, month - 1, day) : daysFromCivil(year, month, day) * DAY_MS) +
    ((hour * 60 + minute) * 60 + second) * 1000 +
    fractionMs(m[7]);
  return { ok: true, ms: wallClock - offsetMinutes * 60_000, form };
}
