/**
 * A model of one token's pool over a whole run (§8.1 rules 1 and 2): every request of the record,
 * known only as the interval between its send and its response headers, holds at most one point,
 * counted at some instant of that interval and back one window later. Each answer of the pool is
 * judged against every counting order and instant the intervals admit: it is consistent when some
 * instant of its own interval explains all it states (served or refused, Remaining, Reset,
 * Retry-After). Pure: numbers in, verdicts out; no exchange, no clock.
 *
 * > Each request consumes one point from the pool matching its method.
 * > Pools refill on a 60-second rolling window and are scoped per API token.
 */

/** How much of the pool a request may have spent: surely one point (it was served), or none or one. */
export type Spend = 'one' | 'maybe';

export interface ModelRequest {
  /** Sequence number in the record, to name it. */
  seq: number;
  /** Harness ms the request left. */
  sendMs: number;
  /** Harness ms its response headers arrived (Infinity when it got none: it may be counted any time after). */
  headersMs: number;
  spend: Spend;
}

/** What an answer of the pool states, each value as read off its headers (undefined when absent or not an integer). */
export interface ModelAnswer {
  seq: number;
  /** 2xx: the request was counted and served. 429: refused. Anything else: only its headers are judged. */
  outcome: 'served' | 'refused' | 'other';
  remaining?: number;
  /** X-RateLimit-Reset, Unix seconds on the target's clock. */
  resetS?: number;
  retryAfterS?: number;
  /** Target clock minus harness clock, ms (from the Date header). */
  clockOffsetMs: number;
}

export interface PoolModelInput {
  limit: number;
  windowMs: number;
  /** Every request of the token to the pool, answered or not; answers name theirs by seq. */
  requests: readonly ModelRequest[];
  answers: readonly ModelAnswer[];
  /** Harness ms the record's first request left (where the run's instants are counted from). */
  recordStartMs: number;
  /**
   * Harness ms the record's first request of this token to this pool left (the record's first
   * request when not given): points spent before it, by another client or an earlier run, are
   * unknown and back one window later. The harness spent none of them, however late its first
   * request to the pool comes (a run whose start a loaded machine holds up, a pool first asked at
   * the end).
   */
  firstSentMs?: number;
}

/**
 * What a problem contradicts: the count (more or fewer points in use than one per request allows,
 * before any point can have come back), a refusal of a pool that surely had points then, or the
 * window (when points come back, or Reset and Retry-After).
 */
export type ModelClaim = 'count' | 'refusal' | 'window';

export interface AnswerVerdict {
  seq: number;
  /** Problems by the claim they contradict; empty when some admissible order explains the answer. */
  problems: Array<{ claim: ModelClaim; text: string }>;
}

/** Timestamps are ms with rounding: a boundary this close is read in the target's favour. */
export const EDGE_MS = 50;
/**
 * A point may come back this much before or after its window (a limiter that keeps whole-second
 * timestamps): the register's reading of "a 60-second rolling window".
 */
export const RETURN_GRAIN_MS = 1000;
/** X-RateLimit-Reset and Retry-After are whole seconds, rounded either way. */
const ROUNDING_MS = 1000;
/**
 * The Date header has whole seconds and clockOffsetOf reads an offset under 2 s as none: a Reset
 * read on the target's clock may be off by this much.
 */
const CLOCK_SLACK_MS = 3000;

/** The bounds on the points in use at one instant, other than the answer's own. */
interface InUse {
  /** Points surely counted before the instant and surely not yet back. */
  lower: number;
  /** Points possibly counted before it and possibly not yet back, the unknown earlier spend included. */
  upper: number;
  /** The earliest instant a point possibly in use can come back (Infinity when none is). */
  firstBackMs: number;
}

interface Prepared {
  limit: number;
  windowMs: number;
  requests: ModelRequest[];
  bySeq: Map<number, ModelRequest>;
  /** From when points spent before the record's requests to this pool (another client's) may be in use: firstSentMs. */
  priorFromMs: number;
  /** Sends of every request, and arrivals of their headers, each sorted. */
  sends: number[];
  arrivals: number[];
  /** The same of the requests surely served (one point each). */
  oneSends: number[];
  oneArrivals: number[];
  /** Requests surely served whose interval is longer than a window less its grain: rare, scanned. */
  longOnes: ModelRequest[];
  /** Highest headers arrival among the requests up to each index, in send order. */
  arrivalsSoFar: number[];
  /** Every instant where a bound can change, sorted. */
  edges: number[];
  /** Bounds on the points spent before the record, from answers surely given by each instant. */
  priorBounds: Array<{ fromMs: number; most: number }>;
  /** The same, sorted by instant, and the least bound among those up to each: priorMostAt without a scan. */
  priorFrom: number[];
  priorLeast: number[];
}

/** How many of the sorted values are at most x (or below x when `strict`). */
function countUpTo(sorted: readonly number[], x: number, strict = false): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    const v = sorted[mid]!;
    if (strict ? v < x : v <= x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Surely served requests sent after `a` whose headers had arrived by `b`. */
function servedBetween(model: Prepared, a: number, b: number): number {
  if (a >= b) return 0;
  // send ≤ headers: of those sent by a, only an interval longer than b − a arrives after b.
  let long = 0;
  for (const p of model.longOnes) if (p.sendMs <= a && p.headersMs > b) long += 1;
  return countUpTo(model.oneArrivals, b) - (countUpTo(model.oneSends, a) - long);
}

function inUseAt(model: Prepared, c: number, self: ModelRequest, priorMost: number): InUse {
  const w = model.windowMs;
  // Possibly counted before c (sent before it) and possibly not yet back (headers within a window
  // and a grain of it); a request whose headers are that old was sent before c too.
  const oldest = c - w - RETURN_GRAIN_MS - EDGE_MS;
  const selfIn = self.sendMs < c + EDGE_MS && self.headersMs > oldest ? 1 : 0;
  let upper = countUpTo(model.sends, c + EDGE_MS, true) - countUpTo(model.arrivals, oldest) - selfIn;
  // Surely counted before c (headers arrived) and surely not yet back (sent within the window less a grain).
  const lower = servedBetween(model, c - w + RETURN_GRAIN_MS + EDGE_MS, c - EDGE_MS);
  // The earliest sent of those possibly in use: the first, in send order, whose headers are not that old.
  let firstBackMs = Number.POSITIVE_INFINITY;
  let i = countUpTo(model.arrivalsSoFar, oldest);
  for (; i < model.requests.length; i++) {
    const p = model.requests[i]!;
    if (p.sendMs >= c + EDGE_MS) break;
    if (p !== self && p.headersMs > oldest) {
      firstBackMs = p.sendMs + w - RETURN_GRAIN_MS;
      break;
    }
  }
  // Points spent before the record are all back one window after it began.
  const prior = c < model.priorFromMs + w + RETURN_GRAIN_MS + EDGE_MS ? priorMost : 0;
  if (prior > 0) {
    upper += prior;
    firstBackMs = Math.min(firstBackMs, c);
  }
  return { lower, upper, firstBackMs };
}

/** Points surely in use at `t` that were surely counted by `c` (for a Retry-After promise made at `c`). */
function surelyHeldAt(model: Prepared, c: number, t: number): number {
  const a = t - model.windowMs + RETURN_GRAIN_MS + EDGE_MS;
  const b = c - EDGE_MS;
  if (a >= b) return 0;
  let n = 0;
  for (const p of model.requests) if (p.spend === 'one' && p.sendMs > a && p.headersMs <= b) n += 1;
  return n;
}

/**
 * The most points spent before the record that can still be in use at `c`: they only come back,
 * so every answer surely given by `c` that states its Remaining bounds them from above.
 */
function priorMostAt(model: Prepared, c: number): number {
  const given = countUpTo(model.priorFrom, c);
  return Math.max(0, given === 0 ? model.limit : Math.min(model.limit, model.priorLeast[given - 1]!));
}

/** Sorts the prior bounds by instant, with the running least (every answer is judged at many instants). */
function indexPriorBounds(model: Prepared): void {
  const bounds = [...model.priorBounds].sort((a, b) => a.fromMs - b.fromMs);
  let least = Number.POSITIVE_INFINITY;
  model.priorFrom = bounds.map((b) => b.fromMs);
  model.priorLeast = bounds.map((b) => (least = Math.min(least, b.most)));
}

/**
 * The least `lower` bound of inUseAt over the instants of an answer's interval (instants()), found
 * at the few where it can step down. lower(c) counts surely served requests whose headers arrived
 * by c − EDGE_MS, less those sent by c − w + RETURN_GRAIN_MS + EDGE_MS, plus the long ones sent by
 * then whose headers came after: between the instants where a send leaves that span or a long
 * one's headers enter it, it only grows. Those instants are among instants()'s own (its ends and
 * the edges inside), so the least over them is the least over all: a burst of thousands of requests
 * puts thousands of edges inside each interval, and only a few of them are looked at.
 */
function leastLowerOver(model: Prepared, r: ModelRequest): number {
  const w = model.windowMs;
  const from = r.sendMs;
  const to = Number.isFinite(r.headersMs) ? r.headersMs : r.sendMs;
  const candidates = [from, to];
  // Sends whose step instant (an edge of prepare(), computed the same way) lies inside the interval.
  const first = countUpTo(model.oneSends, from - w + RETURN_GRAIN_MS + EDGE_MS - 1);
  for (let i = first; i < model.oneSends.length; i++) {
    const c = model.oneSends[i]! + w - RETURN_GRAIN_MS - EDGE_MS;
    if (c >= to) break;
    if (c > from) candidates.push(c);
  }
  for (const p of model.longOnes) {
    const c = p.headersMs + EDGE_MS;
    if (c > from && c < to) candidates.push(c);
  }
  let least = Number.POSITIVE_INFINITY;
  for (const c of candidates) least = Math.min(least, servedBetween(model, c - w + RETURN_GRAIN_MS + EDGE_MS, c - EDGE_MS));
  return least;
}

function prepare(input: PoolModelInput): Prepared {
  const w = input.windowMs;
  const requests = [...input.requests].sort((a, b) => a.sendMs - b.sendMs);
  const ones = requests.filter((r) => r.spend === 'one');
  const sorted = (xs: number[]): number[] => xs.sort((a, b) => a - b);
  const arrivalsSoFar: number[] = [];
  let high = Number.NEGATIVE_INFINITY;
  for (const r of requests) arrivalsSoFar.push((high = Math.max(high, r.headersMs)));
  const priorFromMs = input.firstSentMs ?? input.recordStartMs;
  const edges = new Set<number>([priorFromMs + w + RETURN_GRAIN_MS + EDGE_MS]);
  for (const p of requests) {
    for (const t of [p.sendMs - EDGE_MS, p.headersMs + EDGE_MS, p.sendMs + w - RETURN_GRAIN_MS - EDGE_MS, p.headersMs + w + RETURN_GRAIN_MS + EDGE_MS]) if (Number.isFinite(t)) edges.add(t);
  }
  const model: Prepared = {
    limit: input.limit,
    windowMs: w,
    requests,
    bySeq: new Map(requests.map((r) => [r.seq, r])),
    priorFromMs,
    sends: sorted(requests.map((r) => r.sendMs)),
    arrivals: sorted(requests.map((r) => r.headersMs)),
    oneSends: sorted(ones.map((r) => r.sendMs)),
    oneArrivals: sorted(ones.map((r) => r.headersMs)),
    longOnes: ones.filter((r) => r.headersMs - r.sendMs > w - RETURN_GRAIN_MS - 2 * EDGE_MS - 1),
    arrivalsSoFar,
    edges: sorted([...edges]),
    priorBounds: [],
    priorFrom: [],
    priorLeast: [],
  };
  for (const a of input.answers) {
    const r = model.bySeq.get(a.seq);
    // A Remaining of 0 says nothing of how far over the limit the pool was.
    if (r === undefined || a.remaining === undefined || a.remaining === 0 || !Number.isFinite(r.headersMs)) continue;
    // At its instant c: prior + run points + own = limit − Remaining, and run points ≥ lower(c).
    const leastLower = leastLowerOver(model, r);
    const own = r.spend === 'one' ? 1 : 0;
    const fromMs = r.headersMs + EDGE_MS;
    model.priorBounds.push({ fromMs, most: input.limit - a.remaining - own - leastLower });
    edges.add(fromMs);
  }
  model.edges = sorted([...edges]);
  indexPriorBounds(model);
  return model;
}

/**
 * The instants of an answer's interval worth trying, in order: its ends, every instant within it
 * where a bound can change (a send, a headers' arrival, a possible return), and one between each
 * two. Drawn one at a time: most answers hold at one of the first, and a burst's interval holds
 * hundreds of edges.
 */
function* instants(model: Prepared, r: ModelRequest, shiftMs = 0): Generator<number> {
  const from = r.sendMs;
  const to = Number.isFinite(r.headersMs) ? r.headersMs : r.sendMs;
  const ends = [Math.min(from, to), Math.max(from, to)];
  // The edges strictly inside the interval, and those inside it one shift later, moved back by it.
  const runs = [0, ...(shiftMs > 0 ? [shiftMs] : [])].map((shift) => ({ shift, at: countUpTo(model.edges, from + shift), end: countUpTo(model.edges, to + shift, true) }));
  let endAt = 0;
  let last: number | undefined;
  /** The next of the sorted distinct points (the ends and both runs, merged), or undefined. */
  const nextPoint = (): number | undefined => {
    for (;;) {
      let best = endAt < ends.length ? ends[endAt]! : Number.POSITIVE_INFINITY;
      let source = -1;
      runs.forEach((run, k) => {
        if (run.at < run.end && model.edges[run.at]! - run.shift < best) {
          best = model.edges[run.at]! - run.shift;
          source = k;
        }
      });
      if (best === Number.POSITIVE_INFINITY) return undefined;
      if (source === -1) endAt += 1;
      else runs[source]!.at += 1;
      if (best !== last) return (last = best);
    }
  };
  let point = nextPoint();
  if (point === undefined) return;
  yield point;
  for (let next = nextPoint(); next !== undefined; next = nextPoint()) {
    yield (point + next) / 2;
    yield next;
    point = next;
  }
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

interface Check {
  claim: ModelClaim;
  /** Holds at instant c with these bounds. */
  holds(c: number, use: InUse): boolean;
  /** Says what the model allowed over the whole interval, next to what the answer stated. */
  describe(range: { lower: [number, number]; upper: [number, number] }): string;
}

/**
 * Judges every answer of one token's pool against the model. An answer is consistent when one
 * instant of its interval satisfies all its checks at once; otherwise each check that no instant
 * satisfies on its own is a problem, and when each holds alone but not together, the first.
 */
export function judgePoolModel(input: PoolModelInput): AnswerVerdict[] {
  const model = prepare(input);
  const { limit, windowMs } = model;
  const out: AnswerVerdict[] = [];
  for (const a of input.answers) {
    const r = model.bySeq.get(a.seq);
    if (r === undefined) continue;
    const own = r.spend === 'one' ? 1 : 0;
    const ownMost = 1;
    const checks: Check[] = [];
    if (a.outcome === 'served') {
      checks.push({
        claim: 'window',
        holds: (_c, u) => u.lower < limit,
        describe: ({ lower }) => `served while the model holds at least ${lower[0]} of ${limit} points surely in use (requests surely counted before it and not yet back)`,
      });
    }
    if (a.outcome === 'refused') {
      checks.push({
        claim: 'refusal',
        holds: (_c, u) => u.upper >= limit,
        describe: ({ upper }) => `refused while at most ${upper[1]} of ${limit} points can have been in use (every request possibly counted and possibly not yet back, one point each)`,
      });
    }
    if (a.remaining !== undefined) {
      const rem = a.remaining;
      checks.push({
        claim: 'count',
        holds: (_c, u) => rem >= Math.max(0, limit - u.upper - ownMost) && rem <= limit - u.lower - own,
        describe: ({ lower, upper }) =>
          `X-RateLimit-Remaining ${rem}, the model's interval [${Math.max(0, limit - upper[1] - ownMost)}, ${limit - lower[0] - own}] (${lower[0]} to ${upper[1]} points of other requests in use${own === 1 ? ', and its own' : ''})`,
      });
    }
    if (a.resetS !== undefined) {
      const resetMs = a.resetS * 1000 - a.clockOffsetMs;
      const slack = ROUNDING_MS + CLOCK_SLACK_MS;
      checks.push({
        claim: 'window',
        // The refill is a return of some point in use (its own included): not before the first of
        // them can come back, and not later than one window after the answer.
        holds: (c, u) => {
          const first = Math.min(u.firstBackMs, own === 1 || r.spend === 'maybe' ? c + windowMs - RETURN_GRAIN_MS : Number.POSITIVE_INFINITY);
          return resetMs + slack >= Math.max(first, c) && resetMs - slack <= c + windowMs + RETURN_GRAIN_MS;
        },
        describe: () => `X-RateLimit-Reset ${a.resetS} (≈ ${seconds(resetMs - r.sendMs)} after the send): no point in use can come back then`,
      });
    }
    if (a.retryAfterS !== undefined && a.outcome === 'refused') {
      const promiseMs = a.retryAfterS * 1000 + ROUNDING_MS;
      checks.push({
        claim: 'window',
        holds: (c) => surelyHeldAt(model, c, c + promiseMs) < limit,
        describe: () => `Retry-After ${a.retryAfterS}: ${limit} points surely spent before it are surely still in use ${a.retryAfterS} s later`,
      });
    }
    if (checks.length === 0) continue;
    const problems: AnswerVerdict['problems'] = [];
    const shiftMs = a.retryAfterS === undefined ? 0 : a.retryAfterS * 1000 + ROUNDING_MS;
    const useAt = (c: number): { c: number; use: InUse } => ({ c, use: inUseAt(model, c, r, priorMostAt(model, c)) });
    // Most answers hold together at an early instant: the rest of the interval is looked at only when none does.
    let together = false;
    for (const c of instants(model, r, shiftMs)) {
      const { use } = useAt(c);
      if (checks.every((k) => k.holds(c, use))) {
        together = true;
        break;
      }
    }
    if (!together) {
      const uses = [...instants(model, r, shiftMs)].map(useAt);
      const range = {
        lower: [Math.min(...uses.map((u) => u.use.lower)), Math.max(...uses.map((u) => u.use.lower))] as [number, number],
        upper: [Math.min(...uses.map((u) => u.use.upper)), Math.max(...uses.map((u) => u.use.upper))] as [number, number],
      };
      const failing = checks.filter((k) => !uses.some(({ c, use }) => k.holds(c, use)));
      const shown = failing.length > 0 ? failing : checks.slice(0, 1);
      const where = ` (interval ${seconds(r.sendMs - input.recordStartMs)} to ${seconds((Number.isFinite(r.headersMs) ? r.headersMs : r.sendMs) - input.recordStartMs)} into the run)`;
      for (const k of shown) problems.push({ claim: k.claim, text: `${k.describe(range)}${where}` });
    }
    out.push({ seq: a.seq, problems });
  }
  return out;
}

/**
 * Whether any point can have come back by the end of an answer's interval: before then only the
 * counting is judged, whatever the window.
 */
export function pointsMayBeBack(input: Pick<PoolModelInput, 'windowMs' | 'recordStartMs'>, r: ModelRequest | undefined): boolean {
  if (r === undefined) return true;
  const end = Number.isFinite(r.headersMs) ? r.headersMs : r.sendMs;
  return end + EDGE_MS >= input.recordStartMs + input.windowMs - RETURN_GRAIN_MS;
}
