import { FEATURE_LENGTH_MAX, FEATURE_LENGTH_MIN, LEDGER_LIMIT_DEFAULT, LEDGER_LIMIT_MAX, LEDGER_LIMIT_MIN } from '../spec-constants.ts';
import type { InputDomain } from './input-domain.ts';

/**
 * The query parameters of GET /credits/operations (§4.1, §8.3) as domains, and the edges the
 * generators draw from. Each edge says what the spec fixes for it: `accept` and `refuse` are what
 * every reading of the sentence does (a MUST); `should-accept` is what the sentence says but a
 * reading narrows (a SHOULD); `open` is what no sentence decides (INFO, the register says why).
 * The arbitraries in lib/arbitraries take their values from here, never from lists of their own.
 */
export type EdgeFix = 'accept' | 'refuse' | 'should-accept' | 'open';

export interface EdgeValue {
  /** The value as the parameter carries it, before percent-encoding. */
  text: string;
  /** The edge it stands for, as the domain table names it. */
  edge: string;
  fix: EdgeFix;
}

const ROUTE = 'GET /credits/operations';

/** Register headings, so that a domain's open points and docs/ambiguity-register.md name the same entries. */
export const REGISTER = {
  limitSpellings: '`limit` spellings',
  featureLength: '`feature` length in characters, code points, UTF-16 units or bytes',
  featureEmpty: '`feature=` empty',
  repeated: 'Repeated parameters',
  rawPlus: 'A raw `+` in a query string',
  offsetsSent: 'Offsets sent',
  invalidBound: 'What counts as an invalid bound',
  oneBound: 'One bound only',
  zone: 'Which instant a date alone, or a date-time without offset, stands for',
  cursorFormat: 'Cursor format',
  cursorGarbage: 'Cursors the server never issued',
  cursorEmpty: 'An empty `cursor=`',
} as const;

// ---- limit (§4.1 "integer | 1 to 200, default 50", §8.3 "integer 1 to 200, default 50")

/**
 * Spellings of `limit`. Refused are only those every reading refuses: out of range whether read as
 * a decimal integer, a number, or not at all (`0.0`, `201.0`, `2e3`, `0201`). A valid integer
 * written so that a lenient reader takes it and a strict one refuses it is open.
 */
export const LIMIT_EDGES: readonly EdgeValue[] = [
  { text: String(LEDGER_LIMIT_MIN), edge: 'min', fix: 'accept' },
  { text: String(LEDGER_LIMIT_MIN + 1), edge: 'min+1', fix: 'accept' },
  { text: String(LEDGER_LIMIT_DEFAULT), edge: 'default', fix: 'accept' },
  { text: String(LEDGER_LIMIT_MAX - 1), edge: 'max-1', fix: 'accept' },
  { text: String(LEDGER_LIMIT_MAX), edge: 'max', fix: 'accept' },
  { text: String(LEDGER_LIMIT_MIN - 1), edge: 'min-1', fix: 'refuse' },
  { text: String(LEDGER_LIMIT_MAX + 1), edge: 'max+1', fix: 'refuse' },
  { text: '-1', edge: 'negative', fix: 'refuse' },
  { text: '1.5', edge: 'fraction', fix: 'refuse' },
  ...['abc', 'ten', 'NaN', 'Infinity', 'null', 'true', '1O', '5x', '-', '.'].map((text): EdgeValue => ({ text, edge: 'not a number', fix: 'refuse' })),
  { text: '99999999999999999999', edge: 'beyond 64 bits', fix: 'refuse' },
  { text: '0.0', edge: 'zero as a fraction', fix: 'refuse' },
  { text: '-0', edge: 'signed zero', fix: 'refuse' },
  { text: '000', edge: 'zero with leading zeros', fix: 'refuse' },
  { text: `${LEDGER_LIMIT_MAX + 1}.0`, edge: 'max+1 as a fraction', fix: 'refuse' },
  { text: `0${LEDGER_LIMIT_MAX + 1}`, edge: 'max+1 with a leading zero', fix: 'refuse' },
  { text: '2e3', edge: 'out of range in exponent form', fix: 'refuse' },
  { text: '007', edge: 'leading zeros', fix: 'open' },
  { text: '+5', edge: 'plus sign', fix: 'open' },
  { text: '5.0', edge: 'integer as a fraction', fix: 'open' },
  { text: '1e2', edge: 'exponent form', fix: 'open' },
  { text: ' 5', edge: 'leading space', fix: 'open' },
  { text: '5 ', edge: 'trailing space', fix: 'open' },
  { text: '', edge: 'empty', fix: 'open' },
];

// ---- feature (§4.1 "Length 1 to 64", §8.3 "length 1 to 64")

/**
 * Units a `feature` is built of, each with a script or a property that trips length checks:
 * ASCII; two-byte Latin; right-to-left Hebrew and Arabic; three-byte CJK; an astral emoji (two
 * UTF-16 units, four bytes); and `e` with a combining acute (one grapheme, two code points).
 */
export const FEATURE_UNITS: ReadonlyArray<{ unit: string; name: string }> = [
  { unit: 'f', name: 'ASCII' },
  { unit: 'é', name: 'two-byte Latin' },
  { unit: 'ש', name: 'right-to-left Hebrew' },
  { unit: 'ع', name: 'right-to-left Arabic' },
  { unit: '日', name: 'three-byte CJK' },
  { unit: '😀', name: 'astral' },
  { unit: 'e\u0301', name: 'combining' },
];

/** A unit repeated to a count, with ASCII `f` appended to reach an exact byte length. */
function repeat(unit: string, count: number, pad = 0): string {
  return unit.repeat(count) + 'f'.repeat(pad);
}

/**
 * Features at the edges of "length 1 to 64": accepted where every reading (graphemes, code points,
 * UTF-16 units, UTF-8 bytes) lies in 1..64, so at most 64 bytes; refused where every reading
 * exceeds 64, so more than 64 graphemes; open between. The empty value has its own SHOULD.
 */
export const FEATURE_EDGES: readonly EdgeValue[] = [
  { text: repeat('f', FEATURE_LENGTH_MIN), edge: 'min', fix: 'accept' },
  { text: repeat('f', FEATURE_LENGTH_MIN + 1), edge: 'min+1', fix: 'accept' },
  { text: repeat('f', FEATURE_LENGTH_MAX - 1), edge: 'max-1', fix: 'accept' },
  { text: repeat('f', FEATURE_LENGTH_MAX), edge: 'max', fix: 'accept' },
  { text: repeat('é', 32), edge: 'two-byte, 64 bytes', fix: 'accept' },
  { text: repeat('ש', 32), edge: 'right-to-left Hebrew, 64 bytes', fix: 'accept' },
  { text: `deal_${repeat('ع', 29)}f`, edge: 'right-to-left Arabic after ASCII, 64 bytes', fix: 'accept' },
  { text: repeat('日', 21, 1), edge: 'three-byte, 64 bytes', fix: 'accept' },
  { text: repeat('😀', 16), edge: 'astral, 64 bytes', fix: 'accept' },
  { text: repeat('e\u0301', 21, 1), edge: 'combining, 64 bytes', fix: 'accept' },
  { text: ` ${repeat('f', 62)} `, edge: 'leading and trailing space', fix: 'accept' },
  { text: repeat('f', FEATURE_LENGTH_MAX + 1), edge: 'max+1', fix: 'refuse' },
  { text: repeat('é', FEATURE_LENGTH_MAX + 1), edge: 'two-byte, 65 characters', fix: 'refuse' },
  { text: repeat('😀', FEATURE_LENGTH_MAX + 1), edge: 'astral, 65 characters', fix: 'refuse' },
  { text: repeat('e\u0301', FEATURE_LENGTH_MAX + 1), edge: 'combining, 65 graphemes', fix: 'refuse' },
  { text: repeat('é', FEATURE_LENGTH_MAX), edge: 'two-byte, 64 characters (128 bytes)', fix: 'open' },
  { text: repeat('é', 33), edge: 'two-byte, 33 characters (66 bytes)', fix: 'open' },
  { text: repeat('😀', 32), edge: 'astral, 32 code points (64 UTF-16 units, 128 bytes)', fix: 'open' },
  { text: repeat('😀', 33), edge: 'astral, 33 code points (66 UTF-16 units)', fix: 'open' },
  { text: repeat('e\u0301', FEATURE_LENGTH_MAX), edge: 'combining, 64 graphemes (128 code points)', fix: 'open' },
];

// ---- from and to (§4.1 "Parsed from `YYYY-MM-DD` or RFC 3339, with or without offset.")

/**
 * RFC 3339 `time-numoffset` edges, in minutes east of UTC. Offsets in use (UTC−12:00 to UTC+14:00,
 * on whole, half and three-quarter hours), `+00:00` and `-00:00` (RFC 3339 §4.3: UTC, the local
 * offset unknown) are read by every date library: accepted. `±23:59` and the rest past the offsets
 * in use are RFC 3339 too, but a parser built on zone rules (Java's ZoneOffset stops at ±18:00)
 * may refuse them: should-accept.
 */
export const OFFSET_EDGES: ReadonlyArray<EdgeValue & { minutes: number }> = [
  { text: '+00:00', minutes: 0, edge: 'zero', fix: 'accept' },
  { text: '-00:00', minutes: 0, edge: 'negative zero', fix: 'accept' },
  { text: '+01:00', minutes: 60, edge: 'one hour east', fix: 'accept' },
  { text: '-05:00', minutes: -300, edge: 'five hours west', fix: 'accept' },
  { text: '+05:30', minutes: 330, edge: 'half hour', fix: 'accept' },
  { text: '-09:30', minutes: -570, edge: 'half hour west', fix: 'accept' },
  { text: '+05:45', minutes: 345, edge: 'quarter hour', fix: 'accept' },
  { text: '+12:45', minutes: 765, edge: 'quarter hour, far east', fix: 'accept' },
  { text: '+14:00', minutes: 840, edge: 'easternmost in use', fix: 'accept' },
  { text: '-12:00', minutes: -720, edge: 'westernmost in use', fix: 'accept' },
  { text: '+23:59', minutes: 1439, edge: 'grammar maximum', fix: 'should-accept' },
  { text: '-23:59', minutes: -1439, edge: 'grammar minimum', fix: 'should-accept' },
  { text: '+18:01', minutes: 1081, edge: 'past ±18:00', fix: 'should-accept' },
];

/**
 * Fraction-of-second digits (RFC 3339 `time-secfrac = "." 1*DIGIT`). None to nine (what every
 * date library reads, down to nanoseconds) are accepted; more are RFC 3339 but past what many
 * libraries keep: should-accept.
 */
export const FRACTION_EDGES: ReadonlyArray<{ digits: number; edge: string; fix: EdgeFix }> = [
  { digits: 0, edge: 'no fraction', fix: 'accept' },
  { digits: 1, edge: 'one digit', fix: 'accept' },
  { digits: 2, edge: 'two digits', fix: 'accept' },
  { digits: 3, edge: 'milliseconds', fix: 'accept' },
  { digits: 6, edge: 'microseconds', fix: 'accept' },
  { digits: 9, edge: 'nanoseconds', fix: 'accept' },
  { digits: 12, edge: 'twelve digits', fix: 'should-accept' },
];

/**
 * The letters of a date-time. RFC 3339 §5.6: "the "T" and "Z" characters in this syntax may
 * alternatively be lower case", though a specification "MAY further limit" them to upper case and
 * generators "SHOULD use upper case letters": lower case is should-accept.
 */
export const LETTER_EDGES: ReadonlyArray<{ t: 'T' | 't'; z: 'Z' | 'z'; edge: string; fix: EdgeFix }> = [
  { t: 'T', z: 'Z', edge: 'upper case', fix: 'accept' },
  { t: 't', z: 'z', edge: 'lower case t and z', fix: 'should-accept' },
  { t: 't', z: 'Z', edge: 'lower case t', fix: 'should-accept' },
];

/** A way of percent-encoding a value into the query string. */
export interface QueryEncoding {
  name: 'percent-upper' | 'colon-raw' | 'percent-lower' | 'plus-raw';
  edge: string;
  fix: EdgeFix;
  encode(value: string): string;
}

/**
 * Encodings of a bound's value in the query. `%3A` and `:`, `%2B` and `%2b` are the same octets
 * (RFC 3986 §2.1, §2.2: hex digits are case-insensitive, `:` is allowed in a query): accepted as
 * the same value. A raw `+` is a space to a form decoder (HTML's application/x-www-form-urlencoded)
 * and a plus to an RFC 3986 one: open.
 */
export const QUERY_ENCODINGS: readonly QueryEncoding[] = [
  { name: 'percent-upper', edge: '`%2B` and `%3A`', fix: 'accept', encode: encodeURIComponent },
  { name: 'colon-raw', edge: '`:` unencoded', fix: 'accept', encode: (v) => encodeURIComponent(v).replace(/%3A/g, ':') },
  { name: 'percent-lower', edge: 'lower-case hex (`%2b`, `%3a`)', fix: 'accept', encode: (v) => encodeURIComponent(v).replace(/%[0-9A-F]{2}/g, (e) => e.toLowerCase()) },
  { name: 'plus-raw', edge: '`+` unencoded', fix: 'open', encode: (v) => encodeURIComponent(v).replace(/%2B/g, '+') },
];

/** The domain table of the ledger's query parameters. */
export const LEDGER_QUERY_DOMAINS: readonly InputDomain[] = [
  {
    id: 'query:from',
    carrier: 'query',
    name: 'from',
    routes: [ROUTE],
    section: '4.1',
    quote: 'string (date or datetime) | Parsed from `YYYY-MM-DD` or RFC 3339, with or without offset. | Inclusive lower bound of the window.',
    valid: 'a real `YYYY-MM-DD` date, or an RFC 3339 date-time with `Z`, with a `±hh:mm` offset, or without offset; optional (with `to`, alone, or neither)',
    invalid: 'an impossible date, a time or offset out of range, text no date reader takes',
    edges: [
      'forms: `YYYY-MM-DD`, `Z`, `±hh:mm`, no offset',
      `offsets: ${OFFSET_EDGES.map((o) => `\`${o.text}\`${o.fix === 'should-accept' ? ' (SHOULD)' : ''}`).join(', ')}`,
      `fraction digits: ${FRACTION_EDGES.map((f) => `${f.digits}${f.fix === 'should-accept' ? ' (SHOULD)' : ''}`).join(', ')}`,
      `letters: ${LETTER_EDGES.map((l) => `\`${l.t}\`/\`${l.z}\`${l.fix === 'should-accept' ? ' (SHOULD)' : ''}`).join(', ')}`,
      `encodings: ${QUERY_ENCODINGS.map((e) => `${e.edge}${e.fix === 'open' ? ' (open)' : ''}`).join(', ')}`,
      'equal to `to` (an empty window); later than `to` (400); alone, in each form',
    ],
    open: [
      { point: 'the zone of a date or of a date-time without offset', register: REGISTER.zone },
      { point: 'how far the window reaches on the side a lone bound leaves open', register: REGISTER.oneBound },
      { point: 'lenient spellings (a space for `T`, `24:00`, a leap second, an empty value)', register: REGISTER.invalidBound },
      { point: 'a raw `+` in an offset', register: REGISTER.rawPlus },
      { point: 'the parameter given twice', register: REGISTER.repeated },
    ],
  },
  {
    id: 'query:to',
    carrier: 'query',
    name: 'to',
    routes: [ROUTE],
    section: '4.1',
    quote: 'string (date or datetime) | Same accepted formats. Must be >= `from`. | Exclusive upper bound of the window.',
    valid: 'the forms of `from`, at or after `from` as instants; optional (with `from`, alone, or neither)',
    invalid: 'the invalid values of `from`; an instant before `from` (400)',
    edges: ['the edges of `from`', 'equal to `from`; one instant before `from`; texts that sort the other way from their instants; alone, in each form'],
    open: [
      { point: 'the zone of a date or of a date-time without offset', register: REGISTER.zone },
      { point: 'how far the window reaches on the side a lone bound leaves open', register: REGISTER.oneBound },
      { point: 'the parameter given twice', register: REGISTER.repeated },
    ],
  },
  {
    id: 'query:feature',
    carrier: 'query',
    name: 'feature',
    routes: [ROUTE],
    section: '8.3',
    quote: '`feature` on the ledger: length 1 to 64.',
    valid: `a text whose every length reading (graphemes, code points, UTF-16 units, UTF-8 bytes) is ${FEATURE_LENGTH_MIN} to ${FEATURE_LENGTH_MAX}: so at most ${FEATURE_LENGTH_MAX} bytes`,
    invalid: `a text longer than ${FEATURE_LENGTH_MAX} in every reading: more than ${FEATURE_LENGTH_MAX} graphemes`,
    edges: [
      `lengths ${FEATURE_LENGTH_MIN}, ${FEATURE_LENGTH_MIN + 1}, ${FEATURE_LENGTH_MAX - 1}, ${FEATURE_LENGTH_MAX}, ${FEATURE_LENGTH_MAX + 1}; empty (SHOULD 400)`,
      `units: ${FEATURE_UNITS.map((u) => u.name).join(', ')}, at 64 bytes and at 65 graphemes`,
      'leading and trailing spaces',
      'lengths where readings differ (64 two-byte characters, 32 astral): open',
    ],
    open: [
      { point: 'the unit of length where readings differ', register: REGISTER.featureLength },
      { point: 'an empty value read as no filter', register: REGISTER.featureEmpty },
      { point: 'the parameter given twice', register: REGISTER.repeated },
    ],
  },
  {
    id: 'query:cursor',
    carrier: 'query',
    name: 'cursor',
    routes: [ROUTE],
    section: '4.1',
    quote: 'string | Opaque. | Pass back exactly the value returned earlier in `next_cursor`.',
    valid: 'a `next_cursor` the server returned, byte for byte, percent-encoded',
    invalid: 'nothing every reading refuses: a value never returned is refused or read leniently as a position of the same listing',
    edges: ['returned values with reserved characters', 'returned values altered (cut, extended, a character changed)', 'values never returned', 'passed twice'],
    open: [
      { point: 'its format', register: REGISTER.cursorFormat },
      { point: 'a value never returned', register: REGISTER.cursorGarbage },
      { point: 'an empty value', register: REGISTER.cursorEmpty },
      { point: 'the parameter given twice', register: REGISTER.repeated },
    ],
  },
  {
    id: 'query:limit',
    carrier: 'query',
    name: 'limit',
    routes: [ROUTE],
    section: '8.3',
    quote: '`limit` on the ledger: integer 1 to 200, default 50.',
    valid: `an integer ${LEDGER_LIMIT_MIN} to ${LEDGER_LIMIT_MAX} in decimal digits without a leading zero; absent reads as ${LEDGER_LIMIT_DEFAULT}`,
    invalid: `what every reading puts outside ${LEDGER_LIMIT_MIN}..${LEDGER_LIMIT_MAX} or outside the integers: ${LIMIT_EDGES.filter((e) => e.fix === 'refuse').map((e) => `\`${e.text}\``).join(', ')}`,
    edges: LIMIT_EDGES.filter((e) => e.fix !== 'refuse').map((e) => `${e.text === '' ? 'the empty value' : `\`${e.text}\``} (${e.edge}${e.fix === 'open' ? ', open' : ''})`),
    open: [
      { point: 'spellings of a valid integer and the empty value', register: REGISTER.limitSpellings },
      { point: 'the parameter given twice', register: REGISTER.repeated },
    ],
  },
];
