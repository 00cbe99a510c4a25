import fc from 'fast-check';
import { formatInstant, isUtcMidnight, utcDateOf, type BoundForm, type Instant } from '../checks/ledger-instant.ts';
import { utcOffset } from './utc-offset.ts';

/** One way of writing a bound for a given instant. */
export interface BoundText {
  text: string;
  form: BoundForm;
  /**
   * Whether the text stands for exactly that instant whatever the server: true for `Z` and
   * `±hh:mm`; false for a date-time without offset and a date alone, whose zone the spec leaves
   * open (written here for the UTC reading).
   */
  exact: boolean;
}

/** Constraints of `boundText`. */
export interface BoundTextConstraints {
  /** Forms to choose from. Default: all; `date` is offered only for an instant at 00:00:00Z. */
  forms?: readonly BoundForm[];
  /** Whether `+00:00` may come out for the `offset` form. Default true. */
  includeZeroOffset?: boolean;
}

/**
 * The given instant written as a bound, in every form §4.1 accepts ("Parsed from `YYYY-MM-DD` or
 * RFC 3339, with or without offset"): with `Z` or a `±hh:mm` offset, its fraction as is or padded
 * with zeros; without offset; or as a date when the instant is a UTC midnight.
 */
export function boundText(instant: Instant, constraints: BoundTextConstraints = {}): fc.Arbitrary<BoundText> {
  const wanted = constraints.forms ?? ['z', 'offset', 'offsetless', 'date'];
  const forms = wanted.filter((f) => f !== 'date' || isUtcMidnight(instant));
  if (forms.length === 0) throw new RangeError(`boundText: none of the forms ${wanted.join(', ')} can write ${formatInstant(instant)}`);
  const digits = fc.constantFrom(0, 3, 6);
  const choices: Record<BoundForm, fc.Arbitrary<BoundText>> = {
    z: digits.map((d) => ({ text: formatInstant(instant, { minFractionDigits: d }), form: 'z', exact: true })),
    offset: fc
      .tuple(utcOffset({ includeZero: constraints.includeZeroOffset ?? true }), digits)
      .map(([zone, d]) => ({ text: formatInstant(instant, { zone, minFractionDigits: d }), form: 'offset', exact: true })),
    offsetless: digits.map((d) => ({ text: formatInstant(instant, { zone: 'none', minFractionDigits: d }), form: 'offsetless', exact: false })),
    date: fc.constant({ text: utcDateOf(instant), form: 'date', exact: false }),
  };
  return fc.oneof(...forms.map((f) => choices[f]));
}
