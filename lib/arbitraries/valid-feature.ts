import fc from 'fast-check';
import { FEATURE_LENGTH_MAX, FEATURE_LENGTH_MIN } from '../spec-constants.ts';

/** Constraints of `validFeature`; defaults are the spec's lengths (§8.3). */
export interface ValidFeatureConstraints {
  minLength?: number;
  maxLength?: number;
}

const CHARS = 'abcdefghijklmnopqrstuvwxyz0123456789_';

/**
 * A `feature` filter of an accepted length, in lowercase ASCII letters, digits and `_` (so that
 * every way of counting length agrees), the shortest and longest often.
 */
export function validFeature(constraints: ValidFeatureConstraints = {}): fc.Arbitrary<string> {
  const min = Math.max(FEATURE_LENGTH_MIN, constraints.minLength ?? FEATURE_LENGTH_MIN);
  const max = Math.min(FEATURE_LENGTH_MAX, constraints.maxLength ?? FEATURE_LENGTH_MAX);
  const unit = fc.constantFrom(...CHARS);
  return fc.oneof(
    fc.constantFrom(min, max).chain((n) => fc.string({ unit, minLength: n, maxLength: n })),
    fc.string({ unit, minLength: min, maxLength: max }),
  );
}
