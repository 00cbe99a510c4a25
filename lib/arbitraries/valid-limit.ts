import fc from 'fast-check';
import { LEDGER_LIMIT_MAX, LEDGER_LIMIT_MIN } from '../spec-constants.ts';

/** Constraints of `validLimit`; defaults are the spec's range (§8.3). */
export interface ValidLimitConstraints {
  min?: number;
  max?: number;
}

/** A `limit` the spec accepts (an integer 1 to 200), the two ends often. */
export function validLimit(constraints: ValidLimitConstraints = {}): fc.Arbitrary<number> {
  const min = Math.max(LEDGER_LIMIT_MIN, constraints.min ?? LEDGER_LIMIT_MIN);
  const max = Math.min(LEDGER_LIMIT_MAX, constraints.max ?? LEDGER_LIMIT_MAX);
  return fc.oneof(fc.constantFrom(min, max), fc.integer({ min, max }));
}
