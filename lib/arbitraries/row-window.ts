import fc from 'fast-check';

/** A window between two known timestamps, as indices into the ascending list of distinct instants. */
export interface RowWindow {
  /** Index of the instant written as `from` (inclusive). */
  start: number;
  /** Index of the instant written as `to` (exclusive); always after `start`. */
  end: number;
}

/** Constraints of `rowWindow`. */
export interface RowWindowConstraints {
  /** Fewest distinct instants the window spans (end - start). Default 1. */
  minSpan?: number;
  /** Most distinct instants the window spans. Default 8: a few pages at small limits. */
  maxSpan?: number;
  /** Indices the window should often contain (instants shared by several rows); half the windows do. */
  focus?: readonly number[];
}

/**
 * A window whose bounds are both instants of rows the harness has seen, so that every bound is hit
 * by a row. `count` is the number of distinct instants; it must be at least minSpan + 1.
 */
export function rowWindow(count: number, constraints: RowWindowConstraints = {}): fc.Arbitrary<RowWindow> {
  const minSpan = Math.max(1, constraints.minSpan ?? 1);
  const maxSpan = Math.max(minSpan, Math.min(constraints.maxSpan ?? 8, count - 1));
  if (count < minSpan + 1) throw new RangeError(`rowWindow needs at least ${minSpan + 1} instants, got ${count}`);
  const anywhere = fc
    .integer({ min: minSpan, max: maxSpan })
    .chain((span) => fc.integer({ min: 0, max: count - 1 - span }).map((start) => ({ start, end: start + span })));
  const focus = (constraints.focus ?? []).filter((i) => i >= 0 && i < count);
  if (focus.length === 0) return anywhere;
  // Around a focus instant: the window starts at it or a little before it, so the shared
  // timestamp falls on or inside the window and, at small limits, across a page boundary.
  const around = fc
    .record({ at: fc.constantFrom(...focus), span: fc.integer({ min: minSpan, max: maxSpan }), lead: fc.nat({ max: 3 }) })
    .map(({ at, span, lead }) => {
      const start = Math.max(0, Math.min(at - Math.min(lead, span - 1), count - 1 - span));
      return { start, end: Math.min(count - 1, start + span) };
    })
    .filter((w) => w.end > w.start);
  return fc.oneof(anywhere, around);
}
