import fc from 'fast-check';
import { LEDGER_LIMIT_MAX } from '../spec-constants.ts';
import { limitEdge } from './limit-edge.ts';

/**
 * A `limit` value (as sent in the query) that §8.3 rules out in every reading: the domain's refused
 * edges (0, 201, negatives, fractions, words, `0.0`, `201.0`, `2e3`, ...), larger numbers,
 * negatives and fractions. Spellings of a valid integer that a lenient reader may take (`007`,
 * `5.0`, `1e2`, `+5`, a space) and the empty value are open, never drawn here.
 */
export function invalidLimit(): fc.Arbitrary<string> {
  return fc.oneof(
    limitEdge('refuse').map((e) => e.text),
    fc.integer({ min: LEDGER_LIMIT_MAX + 1, max: 1_000_000 }).map(String),
    fc.integer({ min: -1000, max: -1 }).map(String),
    fc.tuple(fc.integer({ min: 1, max: 199 }), fc.constantFrom('5', '25', '75', '001')).map(([n, f]) => `${n}.${f}`),
  );
}
