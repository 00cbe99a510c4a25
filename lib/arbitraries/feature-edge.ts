import fc from 'fast-check';
import { FEATURE_EDGES, FEATURE_UNITS, type EdgeValue } from '../domains/ledger-query-domains.ts';
import { lengthReadings, lengthVerdict } from '../domains/length-readings.ts';
import { FEATURE_LENGTH_MAX, FEATURE_LENGTH_MIN } from '../spec-constants.ts';

const FIX_OF = { inside: 'accept', outside: 'refuse', open: 'open' } as const;

/** What the spec fixes for a feature text: accepted, refused, or open where readings of its length differ. */
export function featureFix(text: string): 'accept' | 'refuse' | 'open' {
  return FIX_OF[lengthVerdict(text, FEATURE_LENGTH_MIN, FEATURE_LENGTH_MAX)];
}

/**
 * One unit of the domain's table repeated, the count chosen near where the readings of length
 * cross 64 (bytes at 64, graphemes at 65, the code point and UTF-16 readings between), sometimes
 * with spaces around it; its fix computed from its readings, not assumed.
 */
const builtFeature: fc.Arbitrary<EdgeValue> = fc
  .record({ u: fc.constantFrom(...FEATURE_UNITS), near: fc.constantFrom('bytes', 'graphemes', 'code points', 'utf-16'), delta: fc.integer({ min: -2, max: 2 }), spaced: fc.boolean() })
  .map(({ u, near, delta, spaced }) => {
    const one = lengthReadings(u.unit);
    const per = near === 'bytes' ? one.utf8Bytes : near === 'graphemes' ? one.graphemes : near === 'code points' ? one.codePoints : one.utf16Units;
    const count = Math.max(1, Math.floor(FEATURE_LENGTH_MAX / per) + delta);
    const text = spaced ? ` ${u.unit.repeat(count)} ` : u.unit.repeat(count);
    return { text, edge: `${u.name} ×${count}${spaced ? ' in spaces' : ''} (near the ${near} edge)`, fix: featureFix(text) };
  });

/**
 * A `feature` at an edge of "length 1 to 64" with the given fix: the domain's own edges (ASCII 1,
 * 2, 63, 64, 65; multi-byte, right-to-left, astral and combining texts at 64 bytes and 65
 * graphemes; spaces around), and texts built near the edges of each reading. The empty value is
 * judged apart (a SHOULD).
 */
export function featureEdge(fix: 'accept' | 'refuse' | 'open'): fc.Arbitrary<EdgeValue> {
  const table = FEATURE_EDGES.filter((e) => e.fix === fix);
  return fc.oneof({ weight: 2, arbitrary: fc.constantFrom(...table) }, { weight: 1, arbitrary: builtFeature.filter((e) => e.fix === fix) });
}
