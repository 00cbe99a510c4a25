import fc from 'fast-check';
import type { ModelQuery } from '../checks/ledger-query-model.ts';
import { firstValidTo, validFromCount, type QuerySpace } from '../checks/ledger-query-space.ts';
import { boundText } from './bound-text.ts';
import { featureEdge } from './feature-edge.ts';
import { validFeature } from './valid-feature.ts';
import { validLimit } from './valid-limit.ts';

/** Constraints of `ledgerQuery`. */
export interface LedgerQueryConstraints {
  /** How many instants past the first valid `to` a window may end at. Default 6: a few pages at small limits. */
  maxReach?: number;
}

/**
 * A valid GET /credits/operations query of the space: `from` and `to` each in any accepted form
 * (RFC 3339 with `Z`, with an offset, without one, or `YYYY-MM-DD`), making a window that is valid
 * in every reading, one of them alone, or neither (the default window, when the space holds it);
 * with or without a `feature` (a known one mostly, sometimes one no known row has, ASCII or at an
 * edge of the feature domain); with or without a `limit` (small ones often, for page boundaries).
 * Keys left out are absent, never undefined.
 */
export function ledgerQuery(space: QuerySpace, constraints: LedgerQueryConstraints = {}): fc.Arbitrary<ModelQuery> {
  const reach = Math.max(1, constraints.maxReach ?? 6);
  if (space.pairs.length === 0 && !space.defaultWindow) throw new RangeError('ledgerQuery: the space holds no valid window');
  const bounded = fc.constantFrom(...space.pairs).chain(([ff, tf]) =>
    fc.integer({ min: 0, max: validFromCount(space, ff, tf) - 1 }).chain((i) => {
      const from = space.instants[ff][i]!;
      const lo = firstValidTo(space, ff, tf, from);
      const hi = Math.min(space.instants[tf].length - 1, lo + reach - 1);
      return fc
        .integer({ min: lo, max: hi })
        .chain((j) => fc.tuple(boundText(from, { forms: [ff] }), boundText(space.instants[tf][j]!, { forms: [tf] })))
        .map(([f, t]): ModelQuery => ({ from: f.text, to: t.text }));
    }),
  );
  // One bound alone, the other side open: any instant of its form, on either side.
  const oneBound = fc.constantFrom(...new Set(space.pairs.flat())).chain((form) =>
    fc
      .tuple(fc.integer({ min: 0, max: space.instants[form].length - 1 }), fc.boolean())
      .chain(([i, asFrom]) => boundText(space.instants[form][i]!, { forms: [form] }).map((b): ModelQuery => (asFrom ? { from: b.text } : { to: b.text }))),
  );
  const windows = [
    ...(space.defaultWindow ? [{ weight: 1, arbitrary: fc.constant<ModelQuery>({}) }] : []),
    ...(space.pairs.length === 0 ? [] : [{ weight: 4, arbitrary: bounded }, { weight: 1, arbitrary: oneBound }]),
  ];
  const window = fc.oneof(...windows);
  const feature = fc.oneof(
    { weight: 2, arbitrary: fc.constant(undefined) },
    ...(space.features.length > 0 ? [{ weight: 3, arbitrary: fc.constantFrom(...space.features) }] : []),
    { weight: 1, arbitrary: validFeature({ maxLength: 16 }) },
    // Accepted in every reading of its length, and no known row's: multi-byte, astral, combining, spaced.
    { weight: 1, arbitrary: featureEdge('accept').map((e) => e.text) },
  );
  const limit = fc.oneof({ weight: 1, arbitrary: fc.constant(undefined) }, { weight: 2, arbitrary: validLimit({ max: 10 }) }, { weight: 1, arbitrary: validLimit() });
  return fc
    .tuple(window, feature, limit)
    .map(([w, f, l]): ModelQuery => ({ ...w, ...(f === undefined ? {} : { feature: f }), ...(l === undefined ? {} : { limit: l }) }));
}
