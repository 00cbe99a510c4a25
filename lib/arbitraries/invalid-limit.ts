import fc from 'fast-check';
import { LEDGER_LIMIT_MAX, LEDGER_LIMIT_MIN } from '../spec-constants.ts';

/** Text no reader takes for an integer. */
const NOT_NUMBERS = ['abc', 'ten', 'NaN', 'Infinity', 'null', 'true', '1O', '5x', '-', '.'] as const;

/**
 * A `limit` value (as sent in the query) that §8.3 rules out: 0, above 200, negative, a fraction
 * or not a number. Spellings of a valid integer that a lenient reader may take (`05`, `5.0`,
 * `1e2`, `+5`, a space) and the empty value are left out on purpose: the spec does not say how the
 * integer is written.
 */
export function invalidLimit(): fc.Arbitrary<string> {
  return fc.oneof(
    fc.constantFrom(String(LEDGER_LIMIT_MIN - 1), String(LEDGER_LIMIT_MAX + 1)),
    fc.integer({ min: LEDGER_LIMIT_MAX + 1, max: 1_000_000 }).map(String),
    fc.constant('99999999999999999999'),
    fc.integer({ min: -1000, max: -1 }).map(String),
    fc.tuple(fc.integer({ min: 1, max: 199 }), fc.constantFrom('5', '25', '75', '001')).map(([n, f]) => `${n}.${f}`),
    fc.constantFrom(...NOT_NUMBERS),
  );
}
