import { describe, expect, test } from 'vitest';
import { allowedPairs, coveringArray, pairKey, pairsOf, type Allowed, type Dimension } from '../../lib/coverage/covering-array.ts';

const DIMS: Dimension[] = [
  { name: 'route', values: ['/me', '/ledger', '/messages', '/jobs/{id}', '/health'] },
  { name: 'method', values: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] },
  { name: 'token', values: ['none', 'bad', 'valid'] },
  { name: 'owner', values: ['none', 'own', 'other'] },
  { name: 'form', values: ['absent', 'json', 'sse', 'stream-true'] },
];

/** Owner only on routes with an id; the stream field only on a message POST. */
const ALLOWED: Allowed = (r) => {
  const withId = r['route'] === '/messages' || r['route'] === '/jobs/{id}';
  if (r['route'] !== undefined && r['owner'] !== undefined && withId !== (r['owner'] !== 'none')) return false;
  if (r['form'] === 'stream-true' && ((r['route'] !== undefined && r['route'] !== '/messages') || (r['method'] !== undefined && r['method'] !== 'POST'))) return false;
  return true;
};

const NEVER_TOGETHER = pairKey({ a: { dimension: 'owner', value: 'none' }, b: { dimension: 'form', value: 'stream-true' } });

function uncoveredPairs(rows: Array<Record<string, string>>, dims: Dimension[], allowed: Allowed): string[] {
  const covered = new Set(rows.flatMap((r) => pairsOf(r, dims)));
  return allowedPairs(dims, allowed).map(pairKey).filter((k) => !covered.has(k));
}

describe('coveringArray', () => {
  test('every allowed pair is in some row, and every row is complete and allowed', () => {
    const { rows, unplaceable } = coveringArray(DIMS, ALLOWED, 7);
    // The stream field needs the message route, which has an id: allowed as a pair, in no row.
    expect(unplaceable.map(pairKey)).toEqual([NEVER_TOGETHER]);
    expect(uncoveredPairs(rows, DIMS, ALLOWED)).toEqual([NEVER_TOGETHER]);
    for (const row of rows) {
      expect(Object.keys(row).sort()).toEqual(DIMS.map((d) => d.name).sort());
      expect(ALLOWED(row)).toBe(true);
    }
  });

  test('far fewer rows than the full product', () => {
    const { rows } = coveringArray(DIMS, ALLOWED, 7);
    expect(rows.length).toBeLessThan(5 * 7 * 3 * 3 * 4);
    // The two largest dimensions give the floor: every route with every method.
    expect(rows.length).toBeGreaterThanOrEqual(5 * 7);
  });

  test('the same seed gives the same rows; another seed may not', () => {
    expect(coveringArray(DIMS, ALLOWED, 42).rows).toEqual(coveringArray(DIMS, ALLOWED, 42).rows);
    for (const seed of [1, 2, 3]) expect(uncoveredPairs(coveringArray(DIMS, ALLOWED, seed).rows, DIMS, ALLOWED)).toEqual([NEVER_TOGETHER]);
  });

  test('a pair allowed alone that no complete row can hold is named unplaceable', () => {
    const dims: Dimension[] = [
      { name: 'a', values: ['x', 'y'] },
      { name: 'b', values: ['p', 'q'] },
      { name: 'c', values: ['1', '2'] },
    ];
    // a=x needs c=1, b=p needs c=2: the pair (a=x, b=p) is allowed alone but never in a row.
    const allowed: Allowed = (r) => !(r['a'] === 'x' && r['c'] === '2') && !(r['b'] === 'p' && r['c'] === '1');
    const { rows, unplaceable } = coveringArray(dims, allowed, 1);
    expect(unplaceable.map(pairKey)).toEqual([pairKey({ a: { dimension: 'a', value: 'x' }, b: { dimension: 'b', value: 'p' } })]);
    const left = uncoveredPairs(rows, dims, allowed);
    expect(left).toEqual(unplaceable.map(pairKey));
  });

  test('one dimension: one row per allowed value', () => {
    expect(coveringArray([{ name: 'a', values: ['x', 'y'] }], (r) => r['a'] !== 'y', 1).rows).toEqual([{ a: 'x' }]);
  });
});
