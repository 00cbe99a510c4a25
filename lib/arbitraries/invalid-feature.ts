import fc from 'fast-check';
import { FEATURE_LENGTH_MAX } from '../spec-constants.ts';

/**
 * A `feature` filter too long for §8.3: 65 characters and more (ASCII). The empty value, also out
 * of range, is not among them: many HTTP stacks read it as no parameter, so it is judged apart.
 */
export function invalidFeature(): fc.Arbitrary<string> {
  const unit = fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz_');
  return fc.string({ unit, minLength: FEATURE_LENGTH_MAX + 1, maxLength: FEATURE_LENGTH_MAX + 40 });
}
