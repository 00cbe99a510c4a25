import fc from 'fast-check';
import { formatInstant, type Instant } from '../checks/ledger-instant.ts';
import { FRACTION_EDGES, LETTER_EDGES, OFFSET_EDGES, QUERY_ENCODINGS, type EdgeFix, type QueryEncoding } from '../domains/ledger-query-domains.ts';

/** One instant written at edges of the RFC 3339 domain of `from` and `to`. */
export interface BoundSpelling {
  /** The value, before percent-encoding. */
  text: string;
  /** The instant it stands for: the one asked for, its fraction rounded to the digits written. */
  instant: Instant;
  /** The edges it stands on: offset, fraction digits, letters. */
  edges: string[];
  /** The strictest fix of its edges: `accept` only when every edge is. */
  fix: EdgeFix;
}

type Offset = (typeof OFFSET_EDGES)[number];
type Fraction = (typeof FRACTION_EDGES)[number];
type Letters = (typeof LETTER_EDGES)[number];

const RANK: Record<EdgeFix, number> = { accept: 0, 'should-accept': 1, open: 2, refuse: 3 };

/** Which way an instant with more fraction digits than written goes: down for `from`, up for `to`, so that the window only widens. */
export type Rounding = 'down' | 'up';

/** The instant with at most `digits` fraction digits, rounded as asked. */
export function roundFraction(instant: Instant, digits: number, rounding: Rounding): Instant {
  if (instant.fraction.length <= digits) return instant;
  const kept = instant.fraction.slice(0, digits);
  const dropped = /[1-9]/.test(instant.fraction.slice(digits));
  if (rounding === 'down' || !dropped) return { seconds: instant.seconds, fraction: kept.replace(/0+$/, '') };
  const next = BigInt(kept === '' ? '0' : kept) + 1n;
  const carry = next.toString().length > digits || digits === 0;
  const fraction = carry ? '' : next.toString().padStart(digits, '0').replace(/0+$/, '');
  return { seconds: instant.seconds + (carry ? 1 : 0), fraction };
}

/**
 * The instant written with the given offset text (or `Z`), fraction digits and letters; when it
 * carries more fraction digits than that, rounded as asked (down by default).
 */
export function spellBound(instant: Instant, offset: Offset | 'Z', fraction: Fraction, letters: Letters, rounding: Rounding = 'down'): BoundSpelling {
  const cut = roundFraction(instant, fraction.digits, rounding);
  const zone = offset === 'Z' ? 'Z' : offset.minutes;
  const written = formatInstant(cut, { zone, minFractionDigits: fraction.digits });
  // formatInstant writes the offset from its minutes; `-00:00` has the minutes of `+00:00`.
  const body = offset === 'Z' ? written.slice(0, -1) : written.slice(0, -6);
  const text = `${body.replace('T', letters.t)}${offset === 'Z' ? letters.z : offset.text}`;
  const parts = [offset === 'Z' ? undefined : offset, fraction, letters].filter((p) => p !== undefined);
  const fix = parts.map((p) => p.fix).reduce((a, b) => (RANK[b] > RANK[a] ? b : a), 'accept' as EdgeFix);
  return { text, instant: cut, edges: [`offset ${offset === 'Z' ? 'Z' : offset.text}`, `fraction ${fraction.edge}`, `letters ${letters.edge}`], fix };
}

/** Constraints of `boundSpelling`. */
export interface BoundSpellingConstraints {
  /** The edges to draw from: `accept` (default) or `should-accept` (at least one such edge). */
  fix?: 'accept' | 'should-accept';
  /** How an instant with more fraction digits than drawn is rounded: `down` (default) for `from`, `up` for `to`. */
  rounding?: Rounding;
}

/**
 * An instant written at the edges of RFC 3339 that the domain table lists: with `Z` or an edge
 * offset (`+00:00`, `-00:00`, the offsets in use at their extremes, half and quarter hours; with
 * `should-accept`, `±23:59` and past `±18:00` too), none to nine fraction digits (twelve), upper
 * case letters (lower case).
 */
export function boundSpelling(instant: Instant, constraints: BoundSpellingConstraints = {}): fc.Arbitrary<BoundSpelling> {
  const fix = constraints.fix ?? 'accept';
  const allowed = (e: { fix: EdgeFix }): boolean => e.fix === 'accept' || (fix === 'should-accept' && e.fix === 'should-accept');
  const offset = fc.oneof(fc.constant('Z' as const), fc.constantFrom(...OFFSET_EDGES.filter(allowed)));
  const spelled = fc
    .tuple(offset, fc.constantFrom(...FRACTION_EDGES.filter(allowed)), fc.constantFrom(...LETTER_EDGES.filter(allowed)))
    .map(([o, f, l]) => spellBound(instant, o, f, l, constraints.rounding ?? 'down'));
  return fix === 'accept' ? spelled : spelled.filter((s) => s.fix === 'should-accept');
}

/** A query encoding of the domain table with the given fix (`%2B` and `%3A`, `:` raw, lower-case hex; a raw `+` is open). */
export function queryEncoding(fix: EdgeFix = 'accept'): fc.Arbitrary<QueryEncoding> {
  return fc.constantFrom(...QUERY_ENCODINGS.filter((e) => e.fix === fix));
}
