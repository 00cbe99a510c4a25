import { seededRandom } from '../seeded-random.ts';

/** One dimension of a covering array: its name and its values, in a fixed order. */
export interface Dimension {
  name: string;
  values: readonly string[];
}

/** An assignment of values to some dimensions (a row while it is built, or a pair). */
export type Assignment = Readonly<Record<string, string>>;

/**
 * Whether values may go together: false only when the values given already conflict. It is asked
 * of partial assignments (a pair, a row being built), so a dimension it is not given is free.
 */
export type Allowed = (assignment: Assignment) => boolean;

/** Two values of two dimensions that some row must hold together. */
export interface Pair {
  a: { dimension: string; value: string };
  b: { dimension: string; value: string };
}

export function pairKey(p: Pair): string {
  return `${p.a.dimension}=${p.a.value}\u0000${p.b.dimension}=${p.b.value}`;
}

export function pairLabel(p: Pair): string {
  return `${p.a.dimension} ${p.a.value} × ${p.b.dimension} ${p.b.value}`;
}

/** Every pair of values of two different dimensions that the constraints allow, dimensions in the order given. */
export function allowedPairs(dimensions: readonly Dimension[], allowed: Allowed): Pair[] {
  const out: Pair[] = [];
  dimensions.forEach((da, i) => {
    for (const db of dimensions.slice(i + 1)) {
      for (const va of da.values) {
        for (const vb of db.values) if (allowed({ [da.name]: va, [db.name]: vb })) out.push({ a: { dimension: da.name, value: va }, b: { dimension: db.name, value: vb } });
      }
    }
  });
  return out;
}

/**
 * The pairs some complete row can hold: allowed alone, and completed by values of every other
 * dimension that the constraints allow together (a pair the constraints allow only one at a time
 * is no cell any request can be).
 */
export function placeablePairs(dimensions: readonly Dimension[], allowed: Allowed): Pair[] {
  return allowedPairs(dimensions, allowed).filter((p) => complete({ [p.a.dimension]: p.a.value, [p.b.dimension]: p.b.value }, dimensions, allowed) !== undefined);
}

/** The pairs an assignment holds, over the dimensions it gives, keyed as `pairKey` keys them (dimensions in the order given). */
export function pairsOf(row: Assignment, dimensions: readonly Dimension[]): string[] {
  const named = dimensions.filter((d) => row[d.name] !== undefined);
  const out: string[] = [];
  named.forEach((da, i) => {
    for (const db of named.slice(i + 1)) out.push(pairKey({ a: { dimension: da.name, value: row[da.name]! }, b: { dimension: db.name, value: row[db.name]! } }));
  });
  return out;
}


/** Values of some dimensions that a row must hold together (a triple, for strength 3). */
export type Tuple = Array<{ dimension: string; value: string }>;

export function tupleKey(t: Tuple): string {
  return t.map((x) => `${x.dimension}=${x.value}`).join('\u0000');
}

/** The tuples of the named dimensions (in the order given) that some complete row can hold. */
export function placeableTuples(over: readonly Dimension[], dimensions: readonly Dimension[], allowed: Allowed): Tuple[] {
  let partial: Tuple[] = [[]];
  for (const d of over) partial = partial.flatMap((t) => d.values.map((value) => [...t, { dimension: d.name, value }]).filter((next) => allowed(assignmentOf(next))));
  return partial.filter((t) => complete(assignmentOf(t), dimensions, allowed) !== undefined);
}

/** The tuple a row holds over the named dimensions, when it gives each of them. */
export function tupleOf(row: Assignment, over: readonly Dimension[]): Tuple | undefined {
  if (over.some((d) => row[d.name] === undefined)) return undefined;
  return over.map((d) => ({ dimension: d.name, value: row[d.name]! }));
}

function assignmentOf(t: Tuple): Draft {
  return Object.fromEntries(t.map((x) => [x.dimension, x.value]));
}

/** A complete row holding the tuple, its other values chosen by `random`; undefined when none can. */
export function rowHolding(t: Tuple, dimensions: readonly Dimension[], allowed: Allowed, random: () => number): Record<string, string> | undefined {
  return complete(assignmentOf(t), dimensions, allowed, random);
}


type Draft = Record<string, string>;

/** Fills a row's free dimensions with values the constraints allow (depth first, values in a seeded order). */
function complete(row: Draft, dimensions: readonly Dimension[], allowed: Allowed, random?: () => number): Draft | undefined {
  const free = dimensions.find((d) => row[d.name] === undefined);
  if (free === undefined) return allowed(row) ? row : undefined;
  const order = random === undefined ? free.values : [...free.values].sort(() => random() - 0.5);
  for (const v of order) {
    const next = { ...row, [free.name]: v };
    if (!allowed(next)) continue;
    const done = complete(next, dimensions, allowed, random);
    if (done !== undefined) return done;
  }
  return undefined;
}

export interface CoveringArray {
  rows: Array<Record<string, string>>;
  /** Pairs the constraints allow one at a time but no complete row can hold: named, never silently dropped. */
  unplaceable: Pair[];
}

/**
 * A strength-2 covering array in the IPOG way (Lei et al., 2007): rows for the first two
 * dimensions, then each further dimension grown horizontally (each row takes the value that
 * covers most pairs still uncovered) and vertically (rows added, or free places of added rows
 * taken, for the pairs left). Constraints are honoured throughout; rows are completed at the end.
 * Deterministic: ties are broken by a generator seeded with `seed`.
 */
export function coveringArray(dimensions: readonly Dimension[], allowed: Allowed, seed: number): CoveringArray {
  const random = seededRandom(seed);
  const dims = dimensions.filter((d) => d.values.length > 0);
  if (dims.length === 0) return { rows: [], unplaceable: [] };
  const [first, second] = dims;
  let rows: Draft[] = [];
  if (second === undefined) return { rows: first!.values.filter((v) => allowed({ [first!.name]: v })).map((v) => ({ [first!.name]: v })), unplaceable: [] };
  for (const a of first!.values) for (const b of second.values) if (allowed({ [first!.name]: a, [second.name]: b })) rows.push({ [first!.name]: a, [second.name]: b });
  const unplaceable: Pair[] = [];
  for (let k = 2; k < dims.length; k += 1) {
    const dk = dims[k]!;
    const earlier = dims.slice(0, k);
    const uncovered = new Map<string, Pair>();
    for (const dj of earlier) {
      for (const a of dj.values) {
        for (const v of dk.values) {
          const pair = { a: { dimension: dj.name, value: a }, b: { dimension: dk.name, value: v } };
          if (allowed({ [dj.name]: a, [dk.name]: v })) uncovered.set(pairKey(pair), pair);
        }
      }
    }
    const gain = (row: Draft, v: string): number => earlier.filter((dj) => row[dj.name] !== undefined && uncovered.has(pairKey({ a: { dimension: dj.name, value: row[dj.name]! }, b: { dimension: dk.name, value: v } }))).length;
    const cover = (row: Draft): void => {
      for (const dj of earlier) if (row[dj.name] !== undefined) uncovered.delete(pairKey({ a: { dimension: dj.name, value: row[dj.name]! }, b: { dimension: dk.name, value: row[dk.name]! } }));
    };
    // Horizontal growth.
    for (const row of rows) {
      let best: string | undefined;
      let bestGain = -1;
      for (const v of dk.values) {
        if (!allowed({ ...row, [dk.name]: v })) continue;
        const g = gain(row, v) + random() / 2;
        if (g > bestGain) {
          best = v;
          bestGain = g;
        }
      }
      if (best === undefined) continue;
      row[dk.name] = best;
      cover(row);
    }
    // Vertical growth: a row added for a pair leaves its other places free for later pairs.
    for (const pair of [...uncovered.values()]) {
      if (!uncovered.has(pairKey(pair))) continue;
      const { a, b } = pair;
      const host = rows.find(
        (r) => (r[b.dimension] === b.value || r[b.dimension] === undefined) && (r[a.dimension] === a.value || r[a.dimension] === undefined) && allowed({ ...r, [a.dimension]: a.value, [b.dimension]: b.value }),
      );
      if (host !== undefined) {
        host[a.dimension] = a.value;
        host[b.dimension] = b.value;
        cover(host);
        continue;
      }
      const fresh: Draft = { [a.dimension]: a.value, [b.dimension]: b.value };
      if (complete({ ...fresh }, dims.slice(0, k + 1), allowed, random) === undefined) {
        unplaceable.push(pair);
        uncovered.delete(pairKey(pair));
        continue;
      }
      rows.push(fresh);
      cover(fresh);
    }
  }
  // Every row completed; a row that cannot be (implicit constraints) gives its pairs to new rows.
  const out: Draft[] = [];
  for (const row of rows) {
    const done = complete(row, dims, allowed, random);
    if (done !== undefined) out.push(done);
  }
  const covered = new Set(out.flatMap((r) => pairsOf(r, dims)));
  for (const pair of allowedPairs(dims, allowed)) {
    if (covered.has(pairKey(pair)) || unplaceable.some((p) => pairKey(p) === pairKey(pair))) continue;
    const done = complete({ [pair.a.dimension]: pair.a.value, [pair.b.dimension]: pair.b.value }, dims, allowed, random);
    if (done === undefined) unplaceable.push(pair);
    else {
      out.push(done);
      for (const key of pairsOf(done, dims)) covered.add(key);
    }
  }
  rows = out;
  return { rows, unplaceable };
}
