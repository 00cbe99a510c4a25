import { clockOffsetOf, headersAtMs, integerHeader, sentAtMs } from '../../checks/pool-headers.ts';
import { isSpendCapOwnRefusal, retryAfterSeconds } from '../../checks/rate-limit-refusal.ts';
import { pathUnderBase } from '../../checks/route-of.ts';
import { judgePoolModel, pointsMayBeBack, type ModelAnswer, type ModelClaim, type ModelRequest } from '../../checks/rolling-window-model.ts';
import type { Exchange } from '../../model/exchange.ts';
import { poolOfMethod, UNAUTHENTICATED_PATHS, type Pool } from '../../spec-constants.ts';
import { declaredRoutes, type ExchangeFacts, type RecordContext } from '../exchange-facts.ts';
import type { DeferredObservation, Invariant, Observation, RecordModel } from '../invariant.ts';

const WINDOW = 'ratelimit/8.1/rolling-window-model';
const ONE_POINT = 'ratelimit/8.1/one-point-per-request';
const ROUTE_CAP = 'ratelimit/8.1/no-hidden-route-cap';

/** Roles whose tokens are live tokens with pools of their own. */
const LIVE_ROLES = new Set(['primary', 'secondary', 'other_workspace']);
const POOLS: readonly Pool[] = ['read', 'write'];

interface PoolTrack {
  requests: ModelRequest[];
  answers: ModelAnswer[];
  judged: Map<number, { exchange: Exchange; facts: ExchangeFacts }>;
}

/** The request as the model knows it: sent, its headers arrived (or never), and what it may have spent. */
function modelRequest(exchange: Exchange, spend: ModelRequest['spend']): ModelRequest {
  const sendMs = sentAtMs(exchange);
  return { seq: exchange.seq, sendMs, headersMs: exchange.response === undefined ? Number.POSITIVE_INFINITY : headersAtMs(exchange), spend };
}

/**
 * What one request may have spent of one pool of its token: one point surely (served, stating that
 * pool), none or one (any other answer, or none: before or after the limiter, the spec does not
 * say), or nothing (another pool than its method's, an unauthenticated route, another origin).
 */
function spendOf(exchange: Exchange, facts: ExchangeFacts, pool: Pool, baseUrl: string): ModelRequest['spend'] | undefined {
  const path = pathUnderBase(exchange, baseUrl);
  if (path === undefined || (UNAUTHENTICATED_PATHS as readonly string[]).includes(path)) return undefined;
  const own = poolOfMethod(facts.method);
  // A method the spec names no pool for may be charged to either.
  if (own !== undefined && own !== pool) return undefined;
  const status = exchange.response?.status;
  const served = status !== undefined && status >= 200 && status < 300;
  const stated = exchange.response?.headers['x-ratelimit-pool'];
  return served && own === pool && facts.token === 'valid' && facts.kind === 'authenticated' && facts.routeMethod && stated === pool ? 'one' : 'maybe';
}

function answerOf(exchange: Exchange): ModelAnswer {
  const status = exchange.response?.status ?? 0;
  // The spend cap's own 429 is not the pool's refusal (§8.2 leaves the cap's answer open).
  const outcome = status >= 200 && status < 300 ? 'served' : status === 429 && !isSpendCapOwnRefusal(exchange) ? 'refused' : 'other';
  const answer: ModelAnswer = { seq: exchange.seq, outcome, clockOffsetMs: clockOffsetOf(exchange) };
  const remaining = integerHeader(exchange, 'x-ratelimit-remaining');
  const reset = integerHeader(exchange, 'x-ratelimit-reset');
  const retryAfter = retryAfterSeconds(exchange);
  if (remaining !== undefined) answer.remaining = remaining;
  if (reset !== undefined) answer.resetS = reset;
  if (retryAfter !== undefined) answer.retryAfterS = retryAfter;
  return answer;
}

/** A token the target cannot take for a live one: it has no pool to refuse from. */
function noLiveToken(facts: ExchangeFacts, role: string | undefined): boolean {
  return facts.token === 'none' || facts.token === 'revoked' || facts.token === 'expired' || (facts.token === 'other' && (role === undefined || !LIVE_ROLES.has(role)));
}

/** Which requirement a problem of the model contradicts: before any point can be back, the count or a refusal; after, the window. */
function requirementOf(claim: ModelClaim, pointsBack: boolean): string {
  if (pointsBack || claim === 'window') return WINDOW;
  return claim === 'refusal' ? ROUTE_CAP : ONE_POINT;
}

/** A `$VARIABLE` the client recorded in place of a token, anywhere in the Authorization header or the URL. */
const PLACEHOLDER = /\$([A-Za-z_][A-Za-z0-9_]*)/g;
/** How the client records a live role's token: the mapping from placeholder to role. */
const ROLE_BEARER = /^Bearer \$([A-Za-z_][A-Za-z0-9_]*)$/;

class RollingWindowModel implements RecordModel {
  readonly #context: RecordContext;
  readonly #tracks = new Map<string, PoolTrack>();
  /** Placeholder variable → the live role whose token it stands for, learned from the record. */
  readonly #roleOfVariable = new Map<string, string>();
  /**
   * Requests that carried a live token in a form of their own (another scheme's case, a query
   * parameter): a server may take it, so each may have spent a point of that token's pool.
   */
  readonly #carried: Array<{ variable: string; request: ModelRequest; method: string }> = [];
  readonly #badTokens: DeferredObservation[] = [];
  #recordStartMs = Number.POSITIVE_INFINITY;

  constructor(context: RecordContext) {
    this.#context = context;
  }

  #track(role: string, pool: Pool): PoolTrack {
    const key = `${role}\u0000${pool}`;
    let t = this.#tracks.get(key);
    if (t === undefined) {
      t = { requests: [], answers: [], judged: new Map() };
      this.#tracks.set(key, t);
    }
    return t;
  }

  add(exchange: Exchange, facts: ExchangeFacts): void {
    const sent = sentAtMs(exchange);
    if (Number.isFinite(sent)) this.#recordStartMs = Math.min(this.#recordStartMs, sent);
    else return;
    const role = exchange.request.tokenRole;
    if (facts.kind === 'authenticated' && facts.status !== undefined && noLiveToken(facts, role)) {
      // > 401 | auth.token_invalid … 429 | rate_limit.exceeded | The pool for the token is exhausted.
      const problems = facts.status === 429 ? ['429 to a request with no live token: it has no pool to be exhausted'] : [];
      this.#badTokens.push({ exchange, facts, observation: { requirement: ONE_POINT, problems } });
    }
    if (role !== undefined && LIVE_ROLES.has(role)) {
      const bearer = ROLE_BEARER.exec(exchange.request.headers['authorization'] ?? '');
      if (bearer !== null) this.#roleOfVariable.set(bearer[1]!, role);
    }
    if (role === undefined || !LIVE_ROLES.has(role) || facts.token !== 'valid') {
      const path = pathUnderBase(exchange, this.#context.baseUrl);
      if (path !== undefined && !(UNAUTHENTICATED_PATHS as readonly string[]).includes(path)) {
        const carried = `${exchange.request.headers['authorization'] ?? ''} ${exchange.request.url}`;
        for (const m of carried.matchAll(PLACEHOLDER)) this.#carried.push({ variable: m[1]!, request: modelRequest(exchange, 'maybe'), method: facts.method });
      }
    }
    if (role === undefined || !LIVE_ROLES.has(role)) return;
    for (const pool of POOLS) {
      const spend = spendOf(exchange, facts, pool, this.#context.baseUrl);
      if (spend === undefined) continue;
      const track = this.#track(role, pool);
      track.requests.push(modelRequest(exchange, spend));
      if (facts.authenticatedResponse && exchange.response?.headers['x-ratelimit-pool'] === pool) {
        track.answers.push(answerOf(exchange));
        track.judged.set(exchange.seq, { exchange, facts });
      }
    }
  }

  observations(): DeferredObservation[] {
    const out: DeferredObservation[] = [...this.#badTokens];
    for (const c of this.#carried) {
      const role = this.#roleOfVariable.get(c.variable);
      if (role === undefined) continue;
      const own = poolOfMethod(c.method);
      for (const pool of own === undefined ? POOLS : [own]) {
        const track = this.#track(role, pool);
        if (!track.requests.some((r) => r.seq === c.request.seq)) track.requests.push(c.request);
      }
    }
    for (const [key, track] of this.#tracks) {
      const pool = key.split('\u0000')[1] as Pool;
      // Another client's points are unknown until the run's own first request to the pool: a run
      // whose start is held up (a loaded machine) may meet them long after its first request.
      const firstSentMs = track.requests.reduce((least, r) => Math.min(least, r.sendMs), Number.POSITIVE_INFINITY);
      const input = {
        limit: this.#context.limits[pool],
        windowMs: this.#context.limits.windowS * 1000,
        requests: track.requests,
        answers: track.answers,
        recordStartMs: this.#recordStartMs,
        ...(Number.isFinite(firstSentMs) ? { firstSentMs } : {}),
      };
      const bySeq = new Map<number, ModelRequest>();
      for (const r of track.requests) if (!bySeq.has(r.seq)) bySeq.set(r.seq, r);
      for (const verdict of judgePoolModel(input)) {
        const at = track.judged.get(verdict.seq);
        if (at === undefined) continue;
        const back = pointsMayBeBack(input, bySeq.get(verdict.seq));
        const byRequirement = new Map<string, string[]>([[WINDOW, []]]);
        if (!back) byRequirement.set(ONE_POINT, []);
        // A refusal while the pool surely had points contradicts the model whenever it comes: every
        // 429 is judged for a hidden cap, and after points may be back it breaks the window too (a
        // run started within a window of another's spend meets its 429s only then).
        if (at.facts.status === 429) byRequirement.set(ROUTE_CAP, []);
        for (const p of verdict.problems) {
          const id = requirementOf(p.claim, back);
          byRequirement.set(id, [...(byRequirement.get(id) ?? []), p.text]);
          if (p.claim === 'refusal' && id !== ROUTE_CAP) byRequirement.get(ROUTE_CAP)?.push(p.text);
        }
        for (const [requirement, problems] of byRequirement) {
          const observation: Observation = { requirement, problems };
          out.push({ exchange: at.exchange, facts: at.facts, observation });
        }
      }
    }
    return out.sort((a, b) => a.exchange.seq - b.exchange.seq);
  }
}

/**
 * > Each request consumes one point from the pool matching its method.
 * > Pools refill on a 60-second rolling window and are scoped per API token.
 * Every request of the run, whichever suite sent it, fed to a model of each live token's two pools
 * (lib/checks/rolling-window-model.ts) as the interval between its send and its headers; every
 * answer stating a pool is judged against every counting order and instant those intervals admit.
 * Before any point can have come back only the counting is at stake (one point per request); after,
 * the window itself. A refusal of a pool that surely had points is a hidden cap whenever it comes.
 */
export const rollingWindowInvariant: Invariant = {
  name: 'rolling-window',
  requirements: [WINDOW, ONE_POINT, ROUTE_CAP],
  expected: {
    [WINDOW]:
      'every 2xx, 429, X-RateLimit-Remaining, X-RateLimit-Reset and Retry-After explained by some admissible counting order of the run\'s requests, one point each, back one window after it was counted (§8.1 rules 1 and 2)',
    [ONE_POINT]:
      'before any point can have come back, X-RateLimit-Remaining within what one point per request of the matching pool allows, none of the other pool, and no 429 to a request without a live token (§8.1 rule 1)',
    [ROUTE_CAP]: 'no 429 while the pool surely had points left (every request possibly counted and possibly not yet back, one point each), on any route or form (§8.1 rules 1 and 2)',
  },
  binds: {
    [WINDOW]: "answers stating a live token's pool",
    [ONE_POINT]: "answers stating a live token's pool before any point can have come back, and answers to requests without a live token",
    [ROUTE_CAP]: "429s of a live token's pool",
  },
  observe: () => [],
  model: (context) => new RollingWindowModel(context),
  declaredCells(id, context) {
    if (id !== ONE_POINT) return [];
    return declaredRoutes(context).map((r) => `${r} 2xx`);
  },
};
