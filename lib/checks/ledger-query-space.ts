import { addSeconds, compareInstants, formatInstant, formReach, utcDateOf, type BoundForm, type Instant } from './ledger-instant.ts';
import { filterableFeatures } from './ledger-known-rows.ts';
import type { ModelQuery, QueryModel } from './ledger-query-model.ts';

const DAY_S = 86_400;

/** The forms §4.1 accepts for a bound: "Parsed from `YYYY-MM-DD` or RFC 3339, with or without offset." */
export const BOUND_FORMS: readonly BoundForm[] = ['z', 'offset', 'offsetless', 'date'];

/**
 * The queries the model can judge on this target: where bounds may be written in each form, which
 * pairs of forms make a valid window, the features to filter by, and whether the default window
 * (no bounds) is in.
 */
export interface QuerySpace {
  /**
   * Instants each form writes, ascending: instants of known rows for the RFC 3339 forms (a bound
   * on a row's timestamp is where an inclusive or exclusive edge shows), UTC midnights inside the
   * known rows for dates.
   */
  instants: Readonly<Record<BoundForm, readonly Instant[]>>;
  /** Pairs of forms (from, to) for which some window of these instants is valid in every reading. */
  pairs: ReadonlyArray<readonly [BoundForm, BoundForm]>;
  /** Features of known rows that a filter can name, the most frequent first (filterableFeatures). */
  features: readonly string[];
  defaultWindow: boolean;
}

function distinctInstants(model: QueryModel): Instant[] {
  const all = model.regions.flatMap((g) => g.rows.flatMap((r) => (r.instant === undefined ? [] : [r.instant])));
  all.sort(compareInstants);
  return all.filter((x, i) => i === 0 || compareInstants(all[i - 1]!, x) !== 0);
}

function midnightsWithin(instants: readonly Instant[]): Instant[] {
  const first = instants[0];
  const last = instants[instants.length - 1];
  if (first === undefined || last === undefined) return [];
  const out: Instant[] = [];
  for (let s = Math.ceil(first.seconds / DAY_S) * DAY_S; s <= last.seconds; s += DAY_S) out.push({ seconds: s, fraction: '' });
  return out;
}

/**
 * The first index of `tf`'s instants that makes a valid window with `from` (a `ff` instant): its
 * earliest reading after the latest reading of `from`, so that no reading turns the window round
 * (a bound without offset may be read in another zone than its partner). The length when none.
 */
export function firstValidTo(space: QuerySpace, ff: BoundForm, tf: BoundForm, from: Instant): number {
  const latestFrom = addSeconds(from, formReach(ff).after);
  const list = space.instants[tf];
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (compareInstants(addSeconds(list[mid]!, -formReach(tf).before), latestFrom) > 0) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** How many of `ff`'s instants, from the first, have a valid `to` of form `tf` (a prefix, since later `from`s need later `to`s). */
export function validFromCount(space: QuerySpace, ff: BoundForm, tf: BoundForm): number {
  const list = space.instants[ff];
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (firstValidTo(space, ff, tf, list[mid]!) < space.instants[tf].length) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export function querySpaceOf(model: QueryModel, options: { defaultWindow: boolean }): QuerySpace {
  const instants = distinctInstants(model);
  const space: QuerySpace = {
    instants: { z: instants, offset: instants, offsetless: instants, date: midnightsWithin(instants) },
    pairs: [],
    features: [],
    defaultWindow: options.defaultWindow,
  };
  const pairs = BOUND_FORMS.flatMap((ff) => BOUND_FORMS.map((tf) => [ff, tf] as const)).filter(([ff, tf]) => validFromCount(space, ff, tf) > 0);
  return { ...space, pairs, features: filterableFeatures(model.regions.flatMap((g) => g.rows)) };
}

/** A bound in the given form, as the covering queries write it: a half-hour offset east for `from`, west for `to`. */
function written(instant: Instant, form: BoundForm, side: 'from' | 'to'): string {
  if (form === 'date') return utcDateOf(instant);
  if (form === 'offsetless') return formatInstant(instant, { zone: 'none' });
  if (form === 'offset') return formatInstant(instant, { zone: side === 'from' ? 5 * 60 + 30 : -(4 * 60 + 30) });
  return formatInstant(instant);
}

function knownRowsBetween(model: QueryModel, from: Instant, to: Instant, feature: string | undefined): number {
  const keys = new Set<string>();
  for (const g of model.regions) {
    for (const r of g.rows) {
      const inside = r.instant !== undefined && compareInstants(r.instant, from) >= 0 && compareInstants(r.instant, to) < 0;
      if (inside && (feature === undefined || r.feature === feature)) keys.add(r.key);
    }
  }
  return keys.size;
}

/** Rows every reading of a covering window should hold, when the known rows allow. */
const COVERING_ROWS = 2;
/** How far past the first valid `to` a covering window may reach for them. */
const COVERING_REACH = 8;

/**
 * One small window of the middle of the known rows for every pair of forms the space holds, each
 * bound alone in each form, and the default window, each with and without a feature and a limit as
 * a pairwise design spreads them: every form on either side meets both states of each, and the two
 * meet in all four ways. The cells a random draw may miss, sent before it. A window holds rows in every reading when it
 * can (at least COVERING_ROWS of them); `limit` is 2 where given, to be fitted by the caller.
 */
export function coveringQueries(space: QuerySpace, model: QueryModel): ModelQuery[] {
  const feature = space.features[0];
  const extras = (withFeature: boolean, withLimit: boolean): Pick<ModelQuery, 'feature' | 'limit'> => ({
    ...(withFeature && feature !== undefined ? { feature } : {}),
    ...(withLimit ? { limit: 2 } : {}),
  });
  const out: ModelQuery[] = [];
  BOUND_FORMS.forEach((ff, a) =>
    BOUND_FORMS.forEach((tf, b) => {
      const count = validFromCount(space, ff, tf);
      if (count === 0) return;
      const cell = extras((a + b) % 2 === 1, ((a >> 1) + b) % 2 === 1);
      const from = space.instants[ff][Math.floor((count - 1) / 2)]!;
      const lo = firstValidTo(space, ff, tf, from);
      const last = Math.min(space.instants[tf].length - 1, lo + COVERING_REACH);
      const mustFrom = addSeconds(from, formReach(ff).after);
      const held = (j: number): number => knownRowsBetween(model, mustFrom, addSeconds(space.instants[tf][j]!, -formReach(tf).before), cell.feature);
      let j = lo;
      while (j < last && held(j) < COVERING_ROWS) j += 1;
      out.push({ from: written(from, ff, 'from'), to: written(space.instants[tf][j]!, tf, 'to'), ...cell });
    }),
  );
  // One bound alone in each form, the other side left open (all parameters are optional).
  BOUND_FORMS.forEach((form, a) => {
    const instants = space.instants[form];
    const at = instants[Math.floor((instants.length - 1) / 2)];
    if (at === undefined) return;
    out.push({ from: written(at, form, 'from'), ...extras(a % 2 === 1, true) });
    out.push({ to: written(at, form, 'to'), ...extras(a % 2 === 0, true) });
  });
  if (space.defaultWindow) for (const [f, l] of [[false, false], [true, false], [false, true], [true, true]] as const) out.push(extras(f, l));
  return out;
}
