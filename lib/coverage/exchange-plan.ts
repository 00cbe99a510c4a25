import { READ_METHODS, SLOW_DOWN_FRACTION, WRITE_METHODS } from '../spec-constants.ts';
import { acceptFormNamed, asksForStream, STREAM_FIELD_FORMS } from './accept-forms.ts';
import { coveringArray, placeableTuples, rowHolding, tupleKey, tupleOf, type Allowed, type Dimension, type Tuple } from './covering-array.ts';
import { coverageAllowed, coverageDimensions, drivenTriples, TRIPLE_DIMENSIONS } from './coverage.ts';
import { seededRandom } from '../seeded-random.ts';
import { isMessageRoute, type Cell, type CoverageContext } from './exchange-dimensions.ts';

/** When a planned row is sent: the pool state it needs decides the phase of the run. */
export type Phase = 'fresh' | 'spent' | 'low' | 'low-read' | 'refilled';

export interface PlannedRow {
  cell: Cell;
  phase: Phase;
}

export interface ExchangePlan {
  rows: PlannedRow[];
  /** Pairs the constraints allow alone that no row can hold. */
  unplaceable: string[];
}

/**
 * The rows the matrix sends: a strength-2 covering array of the dimensions, under the constraints
 * of coverage (lib/coverage/coverage.ts), less what would cost other suites their points or time: a
 * valid token's pool low is the rate-limit campaign's burst (the secondary token's pools go through
 * it on every run); a valid token's fresh pool is the primary's, asked only with reads; the other
 * workspace's read pool is brought low but never spent.
 */
export function exchangePlan(context: CoverageContext, seed: number): ExchangePlan {
  const allowed = coverageAllowed(context);
  const others = context.roles.includes('other_workspace');
  const planned: Allowed = (r) => {
    if (!allowed(r)) return false;
    const write = r['method'] === undefined ? undefined : (WRITE_METHODS as readonly string[]).includes(r['method']);
    if (r['token'] === 'valid') {
      // A valid token's pool low is the campaign's burst; fresh, it is the primary token's, whose writes the other suites need.
      if (r['pool'] === 'low') return false;
      if (r['pool'] === 'fresh' && write === true) return false;
    }
    // A valid token's pool just refilled is the secondary's, at the very end of the run: an event
    // stream there would be the run's last answer. The other workspace's pool is refilled earlier,
    // while the recovery waits, so its rows hold those pairs.
    if (others && r['token'] === 'valid' && r['pool'] === 'just refilled' && r['method'] === 'POST' && r['route'] !== undefined && isMessageRoute(r['route'], context) && r['accept'] !== undefined && asksForStream(acceptFormNamed(r['accept']))) return false;
    // The other workspace's read pool is only brought low (its ledger reads come before, and the next run's after it);
    // its write pool is spent, and refilled by the run's end.
    if (r['token'] === "another workspace's" && (r['pool'] === 'spent' || r['pool'] === 'just refilled') && write === false) return false;
    return true;
  };
  const dimensions = coverageDimensions(context);
  const array = coveringArray(dimensions, planned, seed);
  const rows = fitLowWrites(
    [...array.rows, ...tripleRows(context, array.rows, planned, seed), ...ownerRows(context, array.rows, planned, seed)].map((row) => {
      const cell = row as Cell;
      return { cell, phase: phaseOf(cell) };
    }),
    Math.ceil(context.limits.write * SLOW_DOWN_FRACTION) - 1,
    allowed,
  );
  return { rows, unplaceable: array.unplaceable.map((p) => `${p.a.dimension} ${p.a.value} × ${p.b.dimension} ${p.b.value}`) };
}

/**
 * Strength 3 where the budget allows: a row for each triple of drivenTriples (route × method ×
 * a token kind that holds no pool) that the pairs' rows do not already hold. None of them spends
 * a point, so they cost the run time only: a request each.
 */
function tripleRows(context: CoverageContext, pairRows: ReadonlyArray<Record<string, string>>, allowed: Allowed, seed: number): Array<Record<string, string>> {
  const dimensions = coverageDimensions(context);
  const over = TRIPLE_DIMENSIONS.map((name) => dimensions.find((d) => d.name === name)!);
  return rowsForMissing(drivenTriples(context), over, pairRows, dimensions, allowed, seededRandom(seed ^ 0x7e3));
}

/** A row for each tuple over `over` that no row of `pairRows` holds: its other values chosen by `random`. */
function rowsForMissing(
  tuples: readonly Tuple[],
  over: readonly Dimension[],
  pairRows: ReadonlyArray<Record<string, string>>,
  dimensions: readonly Dimension[],
  allowed: Allowed,
  random: () => number,
): Array<Record<string, string>> {
  const held = new Set(pairRows.flatMap((r) => {
    const t = tupleOf(r, over);
    return t === undefined ? [] : [tupleKey(t)];
  }));
  return tuples.flatMap((t) => {
    if (held.has(tupleKey(t))) return [];
    const row = rowHolding(t, dimensions, allowed, random);
    return row === undefined ? [] : [row];
  });
}

/**
 * Every id owner with every read method on every route with an id in its path, with a valid
 * token's fresh pool (the primary's reads): the server looks the id up only once the token and the
 * pool let the request through, and pairs alone reach each owner with each method only as the
 * seed falls (HEAD on a job id never issued was reached on some seeds, not others). A point each
 * of the primary's read pool, for the triples the pairs' rows do not already hold.
 */
function ownerRows(context: CoverageContext, pairRows: ReadonlyArray<Record<string, string>>, allowed: Allowed, seed: number): Array<Record<string, string>> {
  const dimensions = coverageDimensions(context);
  const named = (name: string, keep: (v: string) => boolean): Dimension => {
    const d = dimensions.find((x) => x.name === name)!;
    return { ...d, values: d.values.filter(keep) };
  };
  const over = [
    named('route', () => true),
    named('method', (v) => (READ_METHODS as readonly string[]).includes(v)),
    named('owner', (v) => v !== 'no id'),
    named('token', (v) => v === 'valid'),
    named('pool', (v) => v === 'fresh'),
  ];
  return rowsForMissing(placeableTuples(over, dimensions, allowed), over, pairRows, dimensions, allowed, seededRandom(seed ^ 0x0a1));
}

function phaseOf(cell: Cell): Phase {
  switch (cell.pool) {
    case 'spent':
      return 'spent';
    case 'low':
      return (WRITE_METHODS as readonly string[]).includes(cell.method) ? 'low' : 'low-read';
    case 'just refilled':
      return 'refilled';
    default:
      return 'fresh';
  }
}

/**
 * A write pool under 10% holds few points (5 of the spec's 60): the low rows with a write method
 * are kept to that many, chosen so that each write method and each `stream` form is among them
 * first. Each row left over is sent twice instead: as planned once the pool is spent (its other
 * pairs do not need it low), and with GET on the low read pool (its pairs with the low state),
 * when the constraints allow.
 */
export function fitLowWrites(rows: readonly PlannedRow[], points: number, allowed: Allowed): PlannedRow[] {
  const low = rows.filter((r) => r.phase === 'low');
  const kept = new Set<PlannedRow>();
  const seen = new Set<string>();
  const needs = (r: PlannedRow): string[] => [r.cell.method, ...(STREAM_FIELD_FORMS.has(r.cell.accept) ? [r.cell.accept] : [])];
  for (const r of [...low].sort((a, b) => needs(b).length - needs(a).length)) {
    if (kept.size >= points) break;
    if (needs(r).some((n) => !seen.has(n))) {
      kept.add(r);
      for (const n of needs(r)) seen.add(n);
    }
  }
  for (const r of low) if (kept.size < points) kept.add(r);
  return rows.flatMap((r) => {
    if (r.phase !== 'low' || kept.has(r)) return [r];
    const read = { ...r.cell, method: 'GET' };
    return [{ cell: r.cell, phase: 'spent' as const }, ...(allowed(read) ? [{ cell: read, phase: 'low-read' as const }] : [])];
  });
}
