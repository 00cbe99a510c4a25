import { LEDGER_LIMIT_MIN } from '../spec-constants.ts';
import type { LedgerBehaviour } from './ledger-behaviour.ts';
import { parseBound, type BoundForm, type BoundQuirks } from './ledger-bound.ts';

const DAY_MS = 86_400_000;

/** The window of a listing, in Unix ms: `from` inclusive, `to` exclusive, null for an open side. */
export interface LedgerWindow {
  fromMs: number | null;
  toMs: number | null;
  /** Neither bound was given: the default window. */
  implicit: boolean;
}

/** The parameters of one GET /credits/operations, validated. */
export interface LedgerParameters {
  /** Absent when the request gave neither bound (the window then comes from the cursor or the default). */
  window: LedgerWindow | undefined;
  feature: string | undefined;
  limit: number;
  /** Whether the request named `limit` (else `limit` is the default). */
  limitGiven: boolean;
  cursor: string | undefined;
}

export type ParameterError = { parameter: string; reason: string };
export type ParsedParameters = { ok: true; parameters: LedgerParameters } | { ok: false; error: ParameterError };

const NAMES = ['from', 'to', 'feature', 'limit', 'cursor'] as const;

function boundQuirks(b: LedgerBehaviour): BoundQuirks {
  return {
    ignoreOffset: b.offsetsIgnored,
    rejectOffset: b.offsetsRejected,
    rejectDateOnly: b.dateOnlyRejected,
    rejectLocal: b.offsetlessRejected,
    overflowCalendar: b.invalidDateAccepted,
    throwOnGarbage: b.invalidDate500,
    rejectNegativeZero: b.negativeZeroOffsetRejected,
    fractionMillisecondsOnly: b.fractionMillisecondsOnly,
    upperCaseOnly: b.upperCaseOnly,
    ...(b.leapDayRefused ? { leapYears: 'none' as const } : b.centuryLeapDayAccepted ? { leapYears: 'every-fourth' as const } : {}),
  };
}

/** Defects `ledger-offsetless-ignored` and `ledger-date-only-ignored`: a bound of this form is read, then dropped. */
function ignored(form: BoundForm, b: LedgerBehaviour): boolean {
  return (form === 'date-time-local' && b.offsetlessIgnored) || (form === 'date' && b.dateOnlyIgnored);
}

/** > limit | integer | 1 to 200, default 50. | Page size. */
function parseLimit(text: string | undefined, b: LedgerBehaviour): { ok: true; limit: number } | { ok: false; reason: string } {
  if (text === undefined) return { ok: true, limit: b.defaultLimit };
  // Variant: any number text that is an integer, as Number() of the trimmed text reads it.
  if (b.limitLenient && text.trim() !== '' && Number.isInteger(Number(text.trim()))) text = String(Number(text.trim()));
  if (b.limitClamped) {
    const n = Number.parseInt(text, 10);
    return { ok: true, limit: Number.isNaN(n) ? b.defaultLimit : Math.min(b.limitMax, Math.max(LEDGER_LIMIT_MIN, n)) };
  }
  // Digits only: no sign, no fraction, no exponent, no spaces. Leading zeros are harmless.
  if (!/^[0-9]{1,6}$/.test(text)) return { ok: false, reason: `limit must be an integer from ${LEDGER_LIMIT_MIN} to ${b.limitMax}` };
  const n = Number(text);
  if (n === 0 && b.limitZeroAccepted) return { ok: true, limit: b.defaultLimit };
  if (n < LEDGER_LIMIT_MIN || n > b.limitMax) return { ok: false, reason: `limit must be an integer from ${LEDGER_LIMIT_MIN} to ${b.limitMax}` };
  return { ok: true, limit: n };
}

/** > feature | string | Length 1 to 64.  The reference counts code points; switches count otherwise. */
function featureLength(feature: string, rawQuery: string, b: LedgerBehaviour): number {
  switch (b.featureLengthUnit) {
    case 'utf16':
      return feature.length;
    case 'bytes':
      return Buffer.byteLength(feature, 'utf8');
    case 'encoded': {
      // Defect: the length of the value as it stands in the query, before percent-decoding.
      const raw = /(?:^|&)feature=([^&]*)/.exec(rawQuery.replace(/^\?/, ''));
      return raw === null ? [...feature].length : raw[1]!.length;
    }
    case 'code-points':
      return [...feature].length;
  }
}

/**
 * The query string as the reference decodes it: as a form (a raw `+` is a space), or with the
 * switches that read it otherwise.
 */
export function decodeQuery(rawQuery: string, b: LedgerBehaviour): URLSearchParams {
  let text = rawQuery.replace(/^\?/, '');
  // Variant: a raw `+` is a plus, as an RFC 3986 decoder reads it.
  if (b.plusLiteral) text = text.replace(/\+/g, '%2B');
  // Defect: an escape in lower-case hex stays as it is written (`%3a` is read as those three characters).
  if (b.percentHexUpperOnly) text = text.replace(/%(?=[0-9a-fA-F]{2})(?=.?[a-f])/g, '%25');
  return new URLSearchParams(text);
}

/**
 * Reads the query string. Each parameter may appear once (a variant reads the last of several);
 * unknown parameters are ignored. When only one bound is given, the other side of the window is
 * open (the reference's choice).
 */
export function parseLedgerParameters(rawQuery: string, b: LedgerBehaviour): ParsedParameters {
  const search = decodeQuery(rawQuery, b);
  const one: Partial<Record<(typeof NAMES)[number], string>> = {};
  for (const name of NAMES) {
    const all = search.getAll(name);
    if (all.length > 1 && b.repeatedParameters === 'refuse') return { ok: false, error: { parameter: name, reason: `${name} is given ${all.length} times` } };
    if (all.length >= 1) one[name] = all[all.length - 1];
  }
  const limit = parseLimit(one.limit, b);
  if (!limit.ok) return { ok: false, error: { parameter: 'limit', reason: limit.reason } };

  // Defect: an empty value is read as no parameter at all.
  if (one.feature === '' && b.featureEmptyIgnored) delete one.feature;
  // > feature | string | Length 1 to 64. | Filter by feature.  (Length in Unicode code points.)
  if (one.feature !== undefined) {
    const length = featureLength(one.feature, rawQuery, b);
    if (length < b.featureMinLength || length > b.featureMaxLength) {
      return { ok: false, error: { parameter: 'feature', reason: `feature must be ${b.featureMinLength} to ${b.featureMaxLength} characters long` } };
    }
  }

  let window: LedgerWindow | undefined;
  if (one.from !== undefined || one.to !== undefined) {
    const quirks = boundQuirks(b);
    let fromMs: number | null = null;
    let toMs: number | null = null;
    const forms: BoundForm[] = [];
    if (one.from !== undefined) {
      const parsed = parseBound(one.from, quirks);
      if (!parsed.ok) return { ok: false, error: { parameter: 'from', reason: parsed.reason } };
      forms.push(parsed.form);
      if (!ignored(parsed.form, b)) fromMs = parsed.ms;
    }
    if (one.to !== undefined) {
      const parsed = parseBound(one.to, quirks);
      if (!parsed.ok) return { ok: false, error: { parameter: 'to', reason: parsed.reason } };
      forms.push(parsed.form);
      if (!ignored(parsed.form, b)) toMs = parsed.ms;
    }
    // Defects: a filter that fails, or is refused, over a window.
    if (one.feature !== undefined && b.featureDateWindow500 && forms.includes('date')) throw new Error('feature filter over a date window');
    if (one.feature !== undefined && b.featureWithWindowRefused) {
      return { ok: false, error: { parameter: 'feature', reason: 'feature cannot be combined with from or to' } };
    }
    // > When `to` is earlier than `from`, the response is 400.
    // Defect `ledger-bounds-compared-as-text`: the two texts are compared instead of the instants.
    const reversed = b.boundsComparedAsText ? one.from !== undefined && one.to !== undefined && one.to < one.from : fromMs !== null && toMs !== null && toMs < fromMs;
    if (reversed && !b.reversedWindowAccepted) {
      return { ok: false, error: { parameter: 'to', reason: 'to is earlier than from' } };
    }
    if (fromMs !== null && toMs !== null && toMs === fromMs && b.equalBoundsRejected) {
      return { ok: false, error: { parameter: 'to', reason: 'to must be later than from' } };
    }
    // > Query parameters (all optional): one bound alone is a valid query; the reference leaves
    // the other side open.
    if (forms.length === 1 && b.oneBound === 'refused') return { ok: false, error: { parameter: one.from === undefined ? 'to' : 'from', reason: 'from and to go together' } };
    if (forms.length === 1 && b.oneBound === '30-days') {
      if (fromMs !== null) toMs = fromMs + b.defaultWindowDays * DAY_MS;
      else if (toMs !== null) fromMs = toMs - b.defaultWindowDays * DAY_MS;
    }
    // With both bounds dropped (a defect), the request reads as one without bounds.
    if (fromMs !== null || toMs !== null || !forms.some((f) => ignored(f, b))) window = { fromMs, toMs, implicit: false };
  }
  return { ok: true, parameters: { window, feature: one.feature, limit: limit.limit, limitGiven: one.limit !== undefined, cursor: one.cursor } };
}

/** > When neither bound is given, the window is the last 30 days. */
export function defaultWindow(now: number, b: LedgerBehaviour): LedgerWindow {
  const calendar = b.defaultWindowCalendar;
  if (calendar !== null) {
    const todayStarts = Math.floor((now + calendar.zoneMs) / DAY_MS) * DAY_MS - calendar.zoneMs;
    return { fromMs: todayStarts - calendar.daysBeforeToday * DAY_MS, toMs: now, implicit: true };
  }
  return { fromMs: now - b.defaultWindowDays * DAY_MS, toMs: now, implicit: true };
}
