import { DEFAULT_WINDOW_DAYS, FEATURE_LENGTH_MAX, FEATURE_LENGTH_MIN, LEDGER_LIMIT_DEFAULT, LEDGER_LIMIT_MAX } from '../spec-constants.ts';
import type { ReferenceState } from './state.ts';
import type { CursorFormat } from './ledger-cursor.ts';

/**
 * Everything a defect or variant switch changes in GET /credits/operations, read once per request
 * so that the ledger code reads as the rules it implements, with each bend named.
 */
export interface LedgerBehaviour {
  // Window
  toInclusive: boolean;
  fromExclusive: boolean;
  equalBoundsRejected: boolean;
  reversedWindowAccepted: boolean;
  boundsComparedAsText: boolean;
  defaultWindowDays: number;
  /**
   * "The last 30 days" in calendar days of one zone (variants): the window starts at that zone's
   * midnight `daysBeforeToday` days before today's; null: 30 × 24 hours before the request.
   */
  defaultWindowCalendar: { zoneMs: number; daysBeforeToday: number } | null;
  defaultWindowSlides: boolean;
  // Bounds parsing
  offsetsIgnored: boolean;
  offsetsRejected: boolean;
  offsetlessRejected: boolean;
  dateOnlyRejected: boolean;
  /** A bound of this form is dropped as if not given (with neither left, the default window serves). */
  offsetlessIgnored: boolean;
  dateOnlyIgnored: boolean;
  invalidDateAccepted: boolean;
  invalidDate500: boolean;
  negativeZeroOffsetRejected: boolean;
  fractionMillisecondsOnly: boolean;
  upperCaseOnly: boolean;
  /** Defect: every February has 28 days (2024-02-29 is refused). */
  leapDayRefused: boolean;
  /** Defect: every fourth year is a leap year, century years too (2100-02-29 is taken). */
  centuryLeapDayAccepted: boolean;
  // Reading the query string
  /** Percent-escapes in lower-case hex are left undecoded. */
  percentHexUpperOnly: boolean;
  /** A raw `+` is a plus, as RFC 3986 reads it, rather than a space (form decoding). */
  plusLiteral: boolean;
  /** A parameter given twice: refused (the reference's choice), or the last one read. */
  repeatedParameters: 'refuse' | 'last';
  // limit and feature
  limitMax: number;
  limitZeroAccepted: boolean;
  limitClamped: boolean;
  defaultLimit: number;
  defaultLimitCursorSkips: boolean;
  extraRowPerPage: boolean;
  pageCap: number | null;
  featureMinLength: number;
  featureMaxLength: number;
  /** How `feature` length is counted: code points (the reference's choice), UTF-16 units, UTF-8 bytes, or the characters of its percent-encoded text. */
  featureLengthUnit: 'code-points' | 'utf16' | 'bytes' | 'encoded';
  /** `limit` read as any number text that is an integer (`007`, `+5`, `5.0`, `1e2`, spaces around). */
  limitLenient: boolean;
  featurePrefixMatch: boolean;
  featureEmptyIgnored: boolean;
  featureWithWindowRefused: boolean;
  featureDateWindow500: boolean;
  /** With `feature` and no bounds, the listing is not narrowed to the default window. */
  featureUnboundedDefault: boolean;
  /** A window that ends before the default window begins is read without its `to`. */
  oldWindowToIgnored: boolean;
  /** What a window with one bound gets: refused, its open side left open, or 30 days on that side. */
  oneBound: 'refused' | 'open' | '30-days';
  // Rows and pages as written
  timestampPlusZero: boolean;
  /** Only in the listings of a workspace other than the first (`ws_1`). */
  timestampPlusZeroElsewhere: boolean;
  timestampSomeOffset: boolean;
  creditsAsString: boolean;
  metadataSometimesNull: boolean;
  nextCursorOmitted: boolean;
  operationsKeyed: boolean;
  rateLimitHeadersDropped: boolean;
  refusalRequestIdMismatch: boolean;
  extraFields: boolean;
  /** Variant: `operation_uuid` is an opaque id of the server's own (`op_` and 20 hex digits), not a UUID. */
  opaqueOperationIds: boolean;
  /** Variant: timestamps carry six fraction digits, as a database with microsecond columns writes them. */
  microsecondTimestamps: boolean;
  rowsShuffled: boolean;
  shortPages: boolean;
  order: 'asc' | 'desc';
  // Cursors
  cursorOnLastPage: boolean;
  cursorToEmptyPage: boolean;
  keysetSkipsTies: boolean;
  offsetCursor: boolean;
  cursorCountsRemaining: boolean;
  cursorForgetsFeature: boolean;
  cursorGarbage500: boolean;
  cursorCrossWorkspace: boolean;
  cursorSingleUse: boolean;
  cursorReplayAdvances: boolean;
  cursorJsonAccepted: boolean;
  cursorUnsigned: boolean;
  cursorPlusAsSpace: boolean;
  serverSideCursors: boolean;
  cursorFormat: CursorFormat;
  workspacesShareRows: boolean;
}

const HOUR_MS = 3_600_000;

/** Defect `ledger-default-limit-20`: a page size many APIs default to. */
const DEFAULT_LIMIT_ELSEWHERE = 20;

export function ledgerBehaviour(state: ReferenceState): LedgerBehaviour {
  const d = (name: string): boolean => state.defects.has(`ledger-${name}`);
  const v = (name: string): boolean => state.variants.has(`ledger-${name}`);
  const featureOffByOne = d('feature-bounds-off-by-one');
  const slides = d('default-window-slides');
  const countsRemaining = d('cursor-counts-remaining');
  return {
    toInclusive: d('to-inclusive'),
    fromExclusive: d('from-exclusive'),
    equalBoundsRejected: d('equal-bounds-rejected'),
    reversedWindowAccepted: d('reversed-window-accepted'),
    boundsComparedAsText: d('bounds-compared-as-text'),
    defaultWindowDays: d('default-window-32-days') ? DEFAULT_WINDOW_DAYS + 2 : d('default-window-28-days') ? DEFAULT_WINDOW_DAYS - 2 : DEFAULT_WINDOW_DAYS,
    // The two extremes of a calendar reading: the 30 days before today and today, at UTC-12 (the
    // earliest start), and today and the 29 days before it, at UTC+14 (the latest).
    defaultWindowCalendar: v('default-window-calendar-early') ? { zoneMs: -12 * HOUR_MS, daysBeforeToday: 30 } : v('default-window-calendar-late') ? { zoneMs: 14 * HOUR_MS, daysBeforeToday: 29 } : null,
    defaultWindowSlides: slides,
    offsetsIgnored: d('offsets-ignored'),
    offsetsRejected: d('offsets-rejected'),
    offsetlessRejected: d('offsetless-rejected'),
    dateOnlyRejected: d('date-only-rejected'),
    offsetlessIgnored: d('offsetless-ignored'),
    dateOnlyIgnored: d('date-only-ignored'),
    invalidDateAccepted: d('invalid-date-accepted'),
    invalidDate500: d('invalid-date-500'),
    negativeZeroOffsetRejected: d('negative-zero-offset-rejected'),
    fractionMillisecondsOnly: d('fraction-milliseconds-only'),
    upperCaseOnly: d('bounds-upper-case-only'),
    leapDayRefused: d('leap-day-refused'),
    centuryLeapDayAccepted: d('century-leap-day-accepted'),
    percentHexUpperOnly: d('percent-hex-upper-case-only'),
    plusLiteral: v('query-plus-literal'),
    repeatedParameters: v('repeated-parameters-last') ? 'last' : 'refuse',
    limitMax: d('limit-200-rejected') ? LEDGER_LIMIT_MAX - 1 : LEDGER_LIMIT_MAX,
    limitZeroAccepted: d('limit-0-accepted'),
    limitClamped: d('limit-clamped'),
    defaultLimit: d('default-limit-100') ? 2 * LEDGER_LIMIT_DEFAULT : d('default-limit-20') ? DEFAULT_LIMIT_ELSEWHERE : LEDGER_LIMIT_DEFAULT,
    defaultLimitCursorSkips: d('default-limit-cursor-skips'),
    extraRowPerPage: d('page-one-row-too-long'),
    pageCap: state.ledgerShape.pageCap,
    featureMinLength: featureOffByOne ? FEATURE_LENGTH_MIN - 1 : FEATURE_LENGTH_MIN,
    featureMaxLength: featureOffByOne ? FEATURE_LENGTH_MAX - 1 : d('feature-too-long-accepted') ? Number.POSITIVE_INFINITY : FEATURE_LENGTH_MAX,
    featureLengthUnit: d('feature-length-encoded') ? 'encoded' : v('feature-length-utf16') ? 'utf16' : v('feature-length-bytes') ? 'bytes' : 'code-points',
    limitLenient: v('limit-lenient'),
    featurePrefixMatch: d('feature-prefix-match'),
    featureEmptyIgnored: d('feature-empty-ignored'),
    featureWithWindowRefused: d('feature-window-400'),
    featureDateWindow500: d('feature-date-window-500'),
    featureUnboundedDefault: d('feature-unbounded-default'),
    oldWindowToIgnored: d('old-window-to-ignored'),
    oneBound: d('one-bound-refused') ? 'refused' : v('one-bound-30-days') ? '30-days' : 'open',
    timestampPlusZero: d('timestamp-plus-zero-offset'),
    timestampPlusZeroElsewhere: d('other-workspace-offset-timestamps'),
    timestampSomeOffset: d('timestamp-some-offset'),
    creditsAsString: d('credits-string'),
    metadataSometimesNull: d('metadata-null'),
    nextCursorOmitted: d('next-cursor-omitted'),
    operationsKeyed: d('operations-keyed'),
    rateLimitHeadersDropped: d('no-rate-limit-headers'),
    refusalRequestIdMismatch: d('refusal-request-id-mismatch'),
    extraFields: v('extra-fields'),
    opaqueOperationIds: v('operation-ids-opaque'),
    microsecondTimestamps: v('timestamps-microseconds'),
    rowsShuffled: v('rows-shuffled'),
    shortPages: v('short-pages'),
    // The sliding-window and remaining-count defects list oldest first, so that rows appended
    // during a walk reach it.
    order: v('order-ascending') || slides || countsRemaining ? 'asc' : 'desc',
    cursorOnLastPage: d('cursor-on-last-page'),
    cursorToEmptyPage: d('cursor-to-empty-page'),
    keysetSkipsTies: d('keyset-skips-ties'),
    offsetCursor: d('offset-cursor'),
    cursorCountsRemaining: countsRemaining,
    cursorForgetsFeature: d('cursor-forgets-feature'),
    cursorGarbage500: d('cursor-garbage-500'),
    cursorCrossWorkspace: d('cursor-cross-workspace'),
    cursorSingleUse: v('cursor-single-use'),
    cursorReplayAdvances: d('cursor-replay-advances'),
    cursorJsonAccepted: v('cursor-json-accepted'),
    cursorUnsigned: d('cursor-unsigned'),
    cursorPlusAsSpace: d('cursor-plus-as-space'),
    serverSideCursors: v('cursor-server-side'),
    cursorFormat: d('cursor-plus-as-space') ? 'plus-separated' : v('cursor-reserved-characters') ? 'reserved-characters' : 'signed',
    workspacesShareRows: d('workspaces-share-rows'),
  };
}
