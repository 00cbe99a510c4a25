import fc from 'fast-check';
import { OFFSET_EDGES } from '../domains/ledger-query-domains.ts';

/** Constraints of `utcOffset`. */
export interface UtcOffsetConstraints {
  /** Whether `+00:00` may come out. Default false: an offset of zero hides a server that ignores offsets. */
  includeZero?: boolean;
}

/**
 * An RFC 3339 `time-numoffset` in minutes east of UTC, from offsets in use: the accepted offsets of
 * the domain table (lib/domains/ledger-query-domains.ts: the extremes −12:00 and +14:00, half and
 * quarter hours) often, and any of −12:00 to +14:00 on whole, half and three-quarter hours. Offsets
 * the grammar allows beyond these (+23:59) are the table's should-accept edges, never drawn here.
 */
export function utcOffset(constraints: UtcOffsetConstraints = {}): fc.Arbitrary<number> {
  const includeZero = constraints.includeZero ?? false;
  const edges = OFFSET_EDGES.filter((o) => o.fix === 'accept' && (includeZero || o.minutes !== 0)).map((o) => o.minutes);
  const anyInUse = fc
    .tuple(fc.integer({ min: -12, max: 14 }), fc.constantFrom(0, 30, 45))
    .map(([hours, minutes]) => (hours < 0 ? hours * 60 - minutes : hours * 60 + minutes))
    .filter((m) => m >= -12 * 60 && m <= 14 * 60 && (includeZero || m !== 0));
  return fc.oneof(fc.constantFrom(...edges), anyInUse);
}
