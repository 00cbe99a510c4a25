import fc from 'fast-check';
import { FEATURE_LENGTH_MAX } from '../spec-constants.ts';

/** A `feature` filter of a length §8.3 rules out: empty, or 65 characters and more (ASCII). */
export function invalidFeature(): fc.Arbitrary<string> {
  const unit = fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz_');
  return fc.oneof(fc.constant(''), fc.string({ unit, minLength: FEATURE_LENGTH_MAX + 1, maxLength: FEATURE_LENGTH_MAX + 40 }));
}
