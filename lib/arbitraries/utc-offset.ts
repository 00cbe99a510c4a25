import fc from 'fast-check';

/** Constraints of `utcOffset`. */
export interface UtcOffsetConstraints {
  /** Whether `+00:00` may come out. Default false: an offset of zero hides a server that ignores offsets. */
  includeZero?: boolean;
}

/**
 * An RFC 3339 `time-numoffset` in minutes east of UTC, from offsets in use: -12:00 to +14:00, on
 * whole, half and three-quarter hours. Offsets the grammar allows beyond these (+23:59) are left
 * out on purpose: a parser built on a time-zone table may refuse them and still read every real one.
 */
export function utcOffset(constraints: UtcOffsetConstraints = {}): fc.Arbitrary<number> {
  const includeZero = constraints.includeZero ?? false;
  return fc
    .tuple(fc.integer({ min: -12, max: 14 }), fc.constantFrom(0, 30, 45))
    .map(([hours, minutes]) => (hours < 0 ? hours * 60 - minutes : hours * 60 + minutes))
    .filter((m) => m >= -12 * 60 && m <= 14 * 60 && (includeZero || m !== 0));
}
