import fc from 'fast-check';
import { LIMIT_EDGES, type EdgeFix, type EdgeValue } from '../domains/ledger-query-domains.ts';

/**
 * A `limit` value at an edge of its domain (lib/domains/ledger-query-domains.ts) with what the spec
 * fixes for it: `accept` (1, 2, 50, 199, 200), `refuse` (out of range or not an integer in every
 * reading: 0, 201, `0.0`, `201.0`, `2e3`, ...) or `open` (`007`, `+5`, `5.0`, `1e2`, spaces, empty).
 */
export function limitEdge(fix: EdgeFix): fc.Arbitrary<EdgeValue> {
  const edges = LIMIT_EDGES.filter((e) => e.fix === fix);
  if (edges.length === 0) throw new RangeError(`limitEdge: the limit domain has no ${fix} edge`);
  return fc.constantFrom(...edges);
}
