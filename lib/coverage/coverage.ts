import type { Exchange } from '../model/exchange.ts';
import type { ResolvedProfile } from '../profile/resolved-profile.ts';
import { UNAUTHENTICATED_PATHS } from '../spec-constants.ts';
import { STREAM_FIELD_FORMS } from './accept-forms.ts';
import { pairKey, pairLabel, pairsOf, placeablePairs, placeableTuples, tupleKey, tupleOf, type Allowed, type Assignment, type Dimension, type Pair, type Tuple } from './covering-array.ts';
import {
  ACCEPT_FORMS,
  CellReader,
  DIMENSION_NAMES,
  isMessageRoute,
  matrixRoutes,
  METHODS,
  OWNERS,
  POOL_STATES,
  routeHasId,
  TOKEN_KINDS,
  type CoverageContext,
} from './exchange-dimensions.ts';

/** The coverage context of a run: its profile, and the token roles it has tokens for. */
export function coverageContextOf(profile: Pick<ResolvedProfile, 'baseUrl' | 'messages' | 'limits'>, roles: readonly string[]): CoverageContext {
  return { baseUrl: profile.baseUrl, messages: profile.messages, limits: profile.limits, roles };
}

/** The dimensions of the exchange matrix on a profile: each value from the spec or the profile. */
export function coverageDimensions(context: CoverageContext): Dimension[] {
  const values: Record<(typeof DIMENSION_NAMES)[number], readonly string[]> = {
    route: matrixRoutes(context),
    method: METHODS,
    token: TOKEN_KINDS,
    owner: OWNERS,
    pool: POOL_STATES,
    accept: ACCEPT_FORMS,
  };
  return DIMENSION_NAMES.map((name) => ({ name, values: values[name] }));
}

/** The roles a token kind needs in the profile. */
const ROLE_OF_KIND: Record<string, string> = { revoked: 'revoked', expired: 'expired', "another workspace's": 'other_workspace' };

/** Values the profile cannot give, and why: no pair holding them is asked of the run. */
export function unavailableValues(context: CoverageContext): Array<{ dimension: string; value: string; reason: string }> {
  const out: Array<{ dimension: string; value: string; reason: string }> = [];
  for (const [kind, role] of Object.entries(ROLE_OF_KIND)) {
    if (!context.roles.includes(role)) out.push({ dimension: 'token', value: kind, reason: `the profile names no ${role} token (tokens.${role})` });
  }
  if (!context.roles.includes('other_workspace')) out.push({ dimension: 'owner', value: "another workspace's", reason: 'the profile names no other_workspace token, so no id of another workspace' });
  return out;
}

/**
 * What may go together, by nature or by the profile: an owner only on a route with an id; another
 * workspace's agent only with that workspace's token (the profile names its own workspace's agents
 * only); a pool state only for a live token, a route that charges one and a method §8.1's table
 * names; the `stream` field only on a message POST; no value the profile cannot give.
 */
export function coverageAllowed(context: CoverageContext): Allowed {
  const unavailable = new Set(unavailableValues(context).map((u) => `${u.dimension}=${u.value}`));
  const withId = (route: string): boolean => routeHasId(route, context);
  const open = (route: string): boolean => (UNAUTHENTICATED_PATHS as readonly string[]).includes(route);
  return (r: Assignment): boolean => {
    for (const [d, v] of Object.entries(r)) if (unavailable.has(`${d}=${v}`)) return false;
    const { route, method, token, owner, pool, accept } = r;
    if (route !== undefined && owner !== undefined && withId(route) !== (owner !== 'no id')) return false;
    if (route !== undefined && isMessageRoute(route, context) && owner !== undefined && token !== undefined) {
      if (owner === "another workspace's" && token !== "another workspace's") return false;
      if (owner === 'own' && token === "another workspace's") return false;
    }
    if (pool !== undefined) {
      const live = token === undefined ? undefined : token === 'valid' || token === "another workspace's";
      const charged = route === undefined ? undefined : !open(route);
      const tabled = method === undefined ? undefined : method !== 'OPTIONS';
      const facts = [live, charged, tabled];
      if (pool === 'no pool' ? facts.every((f) => f === true) : facts.some((f) => f === false)) return false;
    }
    if (accept !== undefined && STREAM_FIELD_FORMS.has(accept)) {
      if (method !== undefined && method !== 'POST') return false;
      if (route !== undefined && !isMessageRoute(route, context)) return false;
    }
    return true;
  };
}

/** The dimensions whose every triple the matrix drives (strength 3), where no request of it spends a point. */
export const TRIPLE_DIMENSIONS = ['route', 'method', 'token'] as const;

/** Token kinds that hold no pool: a request with one is refused before any limiter, so it spends nothing. */
export const POOLLESS_TOKEN_KINDS: readonly string[] = TOKEN_KINDS.filter((k) => k !== 'valid' && k !== "another workspace's");

/**
 * The triples of route × method × token kind driven at strength 3: every token kind that holds no
 * pool, on every route that needs a token (the unauthenticated routes answer under a per-IP limit
 * the spec does not show, so they get pairs only). Their requests cost no pool's points, so the
 * budget allows them all; the other triples are reached as far as the pairs' rows reach them.
 */
export function drivenTriples(context: CoverageContext): Tuple[] {
  const dims = coverageDimensions(context);
  const over = TRIPLE_DIMENSIONS.map((name) => {
    const d = dims.find((x) => x.name === name)!;
    if (name === 'token') return { ...d, values: d.values.filter((v) => POOLLESS_TOKEN_KINDS.includes(v)) };
    if (name === 'route') return { ...d, values: d.values.filter((v) => !(UNAUTHENTICATED_PATHS as readonly string[]).includes(v)) };
    return d;
  });
  return placeableTuples(over, dims, coverageAllowed(context));
}

export function tripleLabel(t: Tuple): string {
  return t.map((x) => `${x.dimension} ${x.value}`).join(' × ');
}

/** Reached values of one dimension, with how many exchanges held each. */
export interface DimensionCoverage {
  name: string;
  values: Array<{ value: string; exchanges: number }>;
}

export interface UncoveredPair {
  pair: string;
  reason: string;
}

/** The Coverage section of every report: computed from the exchange record, never from what was planned. */
export interface Coverage {
  /** Exchanges of the record that fell in a cell of the matrix (a route and method it names, answered). */
  exchanges: number;
  /** Distinct cells (complete assignments) reached. */
  cells: number;
  dimensions: DimensionCoverage[];
  pairs: { total: number; covered: number };
  uncovered: UncoveredPair[];
  /** Strength 3 where the budget allows it: route × method × each token kind that holds no pool (drivenTriples); each triple not reached named. */
  triples?: { over: string; total: number; covered: number; uncovered: string[] };
  /** Values the profile cannot give: no pair holding them counts. */
  unavailable: Array<{ dimension: string; value: string; reason: string }>;
}

/** What the run was, for the reasons an uncovered pair gives. */
export interface CoverageRun {
  /** Suites the run ran, by name. */
  suites: readonly string[];
}

/** The suite that drives the matrix; without it a run reaches only what the other suites send. */
export const MATRIX_SUITES = ['exchange-matrix', 'exchange-matrix-read-low', 'exchange-matrix-refilled'] as const;

function reasonFor(pair: Pair, run: CoverageRun): string {
  const missing = MATRIX_SUITES.filter((s) => !run.suites.includes(s));
  if (missing.length > 0) {
    const named = missing.length === 1 ? missing[0]! : `${missing.slice(0, -1).join(', ')} and ${missing[missing.length - 1]!}`;
    return `not reached: the suite${missing.length > 1 ? 's' : ''} ${named} did not run`;
  }
  const pool = pair.a.dimension === 'pool' ? pair.a.value : pair.b.dimension === 'pool' ? pair.b.value : undefined;
  if (pool !== undefined && pool !== 'fresh' && pool !== 'no pool') return `not reached: no exchange of the run found that token's pool ${pool} (the target's numbers never showed that state, or the request was answered before its pool was asked)`;
  return 'not reached: no exchange of the run held both values';
}

/** What the constraints allow on the last context asked: the runs of a calibration share one profile. */
let lastPlaceable: { key: string; placeable: { pairs: Pair[]; triples: Tuple[] } } | undefined;

/**
 * The pairs and triples a context's constraints allow, which only its message routes and token
 * roles decide (coverageAllowed, coverageDimensions). Worked out once for a run of the CLI, and once
 * for all the runs of a calibration (24 ms a run there, profiled).
 */
function placeableOn(context: CoverageContext, dimensions: readonly Dimension[]): { pairs: Pair[]; triples: Tuple[] } {
  const key = JSON.stringify([context.messages, context.roles]);
  if (lastPlaceable?.key !== key) lastPlaceable = { key, placeable: { pairs: placeablePairs(dimensions, coverageAllowed(context)), triples: drivenTriples(context) } };
  return lastPlaceable.placeable;
}

/** Reads a record, one exchange at a time, into its coverage. */
export class CoverageTally {
  readonly #context: CoverageContext;
  readonly #reader: CellReader;
  readonly #dimensions: Dimension[];
  readonly #counts = new Map<string, number>();
  readonly #pairs = new Set<string>();
  readonly #cells = new Set<string>();
  readonly #triples = new Set<string>();
  readonly #tripleDimensions: Dimension[];
  /** What the constraints allow, which no exchange changes: worked out with the first exchange, while a run waits on its target, not after its last. */
  #placeable?: { pairs: Pair[]; triples: Tuple[] };
  #exchanges = 0;

  constructor(context: CoverageContext) {
    this.#context = context;
    this.#reader = new CellReader(context);
    this.#dimensions = coverageDimensions(context);
    this.#tripleDimensions = TRIPLE_DIMENSIONS.map((name) => this.#dimensions.find((d) => d.name === name)!);
  }

  #allowed(): { pairs: Pair[]; triples: Tuple[] } {
    this.#placeable ??= placeableOn(this.#context, this.#dimensions);
    return this.#placeable;
  }

  add(exchange: Exchange): void {
    this.#allowed();
    const cell = this.#reader.read(exchange);
    if (cell === undefined) return;
    this.#exchanges += 1;
    for (const d of DIMENSION_NAMES) this.#counts.set(`${d}=${cell[d]}`, (this.#counts.get(`${d}=${cell[d]}`) ?? 0) + 1);
    for (const key of pairsOf(cell, this.#dimensions)) this.#pairs.add(key);
    this.#cells.add(DIMENSION_NAMES.map((d) => cell[d]).join('\u0000'));
    const triple = tupleOf(cell, this.#tripleDimensions);
    if (triple !== undefined) this.#triples.add(tupleKey(triple));
  }

  #triplesResult(): Coverage['triples'] {
    const driven = this.#allowed().triples;
    const missing = driven.filter((t) => !this.#triples.has(tupleKey(t)));
    return { over: `${TRIPLE_DIMENSIONS.join(' × ')} (token kinds that hold no pool, routes that need a token)`, total: driven.length, covered: driven.length - missing.length, uncovered: missing.map(tripleLabel) };
  }

  result(run: CoverageRun): Coverage {
    const allowed = this.#allowed().pairs;
    const uncovered = allowed.filter((p) => !this.#pairs.has(pairKey(p)));
    return {
      exchanges: this.#exchanges,
      cells: this.#cells.size,
      dimensions: this.#dimensions.map((d) => ({ name: d.name, values: d.values.map((value) => ({ value, exchanges: this.#counts.get(`${d.name}=${value}`) ?? 0 })) })),
      pairs: { total: allowed.length, covered: allowed.length - uncovered.length },
      uncovered: uncovered.map((p) => ({ pair: pairLabel(p), reason: reasonFor(p, run) })),
      triples: this.#triplesResult(),
      unavailable: unavailableValues(this.#context),
    };
  }
}

/** The coverage of a list of exchanges (tests, a re-derivation, a HAR read back). */
export function coverageOf(exchanges: Iterable<Exchange>, context: CoverageContext, run: CoverageRun): Coverage {
  const tally = new CoverageTally(context);
  for (const e of exchanges) tally.add(e);
  return tally.result(run);
}
