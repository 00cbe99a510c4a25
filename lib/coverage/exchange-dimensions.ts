import { jobIdOf } from '../checks/conversation-job.ts';
import { escapeRegExp, pathUnderBase } from '../checks/route-of.ts';
import { acceptFormOfHeader } from './accept-forms.ts';
import { parsedBody } from '../invariants/exchange-facts.ts';
import type { Exchange } from '../model/exchange.ts';
import type { Limits, ResolvedProfile } from '../profile/resolved-profile.ts';
import { LEDGER_PATH, ME_PATH, poolOfMethod, SLOW_DOWN_FRACTION, UNAUTHENTICATED_PATHS } from '../spec-constants.ts';

/** What classifying exchanges needs of the run: the profile's routes and limits, and which token roles it names. */
export interface CoverageContext {
  baseUrl: string;
  messages: ResolvedProfile['messages'];
  limits: Limits;
  /** The token roles the profile names (primary, secondary, other_workspace, revoked, expired). */
  roles: readonly string[];
}

/** §8.1's pool table names six methods; OPTIONS is the one more a client (a browser) sends. */
export const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;

/**
 * What Authorization carried: none; a Bearer header with no token or a token not of the
 * `<prefix>_live_<hex>` shape (malformed); another scheme or the bare token; a well-formed token
 * never issued (unknown); the profile's revoked, expired, other workspace's or valid token.
 */
export const TOKEN_KINDS = ['none', 'malformed', 'other scheme', 'unknown', 'revoked', 'expired', "another workspace's", 'valid'] as const;
export type TokenKindValue = (typeof TOKEN_KINDS)[number];

/**
 * Whose id the path holds, for the routes with one (a message route's agent id, a job poll's job
 * id): the token's own workspace's, another workspace's, or an id never issued. A token that names
 * no live workspace (none, malformed, unknown, revoked, expired, another scheme) is read as the
 * primary token's workspace, the one the profile's ids belong to.
 */
export const OWNERS = ['no id', 'own', "another workspace's", 'never issued'] as const;

/**
 * The state of the token's pool (the one its method charges, §8.1) when the request went: fresh,
 * low (under 10% left: where §8.1 asks clients to slow down), spent (a 429, or the last word on the
 * pool a 429 within the window), just refilled (within a window of the first request served after a
 * 429: on a rolling window only a few points are back then, so it goes before low). `no pool` where no token pool is charged: the unauthenticated routes, a
 * token that is not live, a method §8.1's table does not name.
 */
export const POOL_STATES = ['no pool', 'fresh', 'low', 'spent', 'just refilled'] as const;

/**
 * How the request asked to be answered: its Accept header, or on a message POST without one, the
 * `stream` field (the forms are the input domains' edges: lib/coverage/accept-forms.ts).
 */
export { ACCEPT_FORMS } from './accept-forms.ts';

/** The dimensions' names, in the order reports show them. */
export const DIMENSION_NAMES = ['route', 'method', 'token', 'owner', 'pool', 'accept'] as const;
export type DimensionName = (typeof DIMENSION_NAMES)[number];
export type Cell = Record<DimensionName, string>;

/** The routes of the matrix: the spec's own and the profile's, each as the spec or the profile names it. */
export function matrixRoutes(context: Pick<CoverageContext, 'messages'>): string[] {
  return [ME_PATH, LEDGER_PATH, ...context.messages.routes.map((r) => r.template), ...(context.messages.async === undefined ? [] : [context.messages.async.poll]), ...UNAUTHENTICATED_PATHS];
}

/** Routes whose path holds an id. */
export function routeHasId(route: string, context: Pick<CoverageContext, 'messages'>): boolean {
  return context.messages.routes.some((r) => r.template === route) || route === context.messages.async?.poll;
}

export function isMessageRoute(route: string, context: Pick<CoverageContext, 'messages'>): boolean {
  return context.messages.routes.some((r) => r.template === route);
}

function templatePattern(template: string): RegExp {
  return new RegExp(`^${template.split(/\{[^}]+\}/).map(escapeRegExp).join('([^/]+)')}$`);
}

const LIVE_ROLES: Record<string, 'main' | 'other'> = { primary: 'main', secondary: 'main', other_workspace: 'other' };

export function tokenKindOf(exchange: Exchange): TokenKindValue {
  const role = exchange.request.tokenRole;
  if (role === 'revoked' || role === 'expired') return role;
  if (role === 'other_workspace') return "another workspace's";
  if (role !== undefined) return 'valid';
  const authorization = exchange.request.headers['authorization'];
  if (authorization === undefined) return 'none';
  const m = /^bearer(?:\s+(.*))?$/i.exec(authorization.trim());
  if (m === null) return 'other scheme';
  const token = (m[1] ?? '').trim();
  // A role's token under another spelling of the scheme (`bearer`): a live token all the same.
  if (/^\$[A-Za-z_][A-Za-z0-9_]*$/.test(token)) return 'valid';
  return /^[^\s_]+_live_[0-9a-fA-F]+$/.test(token) ? 'unknown' : 'malformed';
}

export function acceptFormOf(exchange: Exchange, messagePost: boolean): string {
  const accept = exchange.request.headers['accept']?.trim();
  if (accept === undefined || accept === '') {
    if (messagePost) {
      const body = parsedBody(exchange.request.body);
      const stream = typeof body === 'object' && body !== null ? (body as Record<string, unknown>)['stream'] : undefined;
      if (stream === true) return 'stream: true';
      if (stream === false) return 'stream: false';
    }
    return 'absent';
  }
  return acceptFormOfHeader(accept);
}

/**
 * Reads the record in order and puts each exchange in its cell. Stateful where the record is: the
 * jobs each workspace was given (from the job POSTs' answers) and each token pool's last word.
 */
export class CellReader {
  readonly #context: CoverageContext;
  readonly #jobs = new Map<string, 'main' | 'other'>();
  /** Per `role pool`: the last metered word (a 429, or Remaining), and since when the pool is refilled. */
  readonly #pools = new Map<string, { spentAtMs?: number; low: boolean; refilledAtMs?: number }>();
  readonly #routes: Array<{ template: string; pattern: RegExp; own: string; poll: boolean }>;

  constructor(context: CoverageContext) {
    this.#context = context;
    this.#routes = context.messages.routes.map((r) => ({ template: r.template, pattern: templatePattern(r.template), own: r.path, poll: false }));
    const poll = context.messages.async?.poll;
    if (poll !== undefined) this.#routes.push({ template: poll, pattern: templatePattern(poll), own: '', poll: true });
  }

  /** The exchange's cell, or undefined for one outside the matrix (another route or method, no answer). */
  read(exchange: Exchange): Cell | undefined {
    const path = pathUnderBase(exchange, this.#context.baseUrl);
    const method = exchange.request.method.toUpperCase();
    const token = tokenKindOf(exchange);
    this.#noteJob(exchange, path, method);
    const pool = this.#poolState(exchange, method, path, token);
    if (path === undefined || exchange.response === undefined || !(METHODS as readonly string[]).includes(method)) return undefined;
    const fixed = [ME_PATH, LEDGER_PATH, ...UNAUTHENTICATED_PATHS].includes(path) ? path : undefined;
    let route = fixed;
    let owner = 'no id';
    if (route === undefined) {
      for (const r of this.#routes) {
        const m = r.pattern.exec(path);
        if (m === null) continue;
        route = r.template;
        owner = r.poll ? this.#jobOwner(decodeURIComponent(m[1] ?? ''), token) : this.#agentOwner(path === r.own, token);
        break;
      }
    }
    if (route === undefined) return undefined;
    return { route, method, token, owner, pool, accept: acceptFormOf(exchange, method === 'POST' && isMessageRoute(route, this.#context)) };
  }

  /** The profile's agent ids are the primary token's workspace's. */
  #agentOwner(profileId: boolean, token: string): string {
    if (!profileId) return 'never issued';
    return token === "another workspace's" ? "another workspace's" : 'own';
  }

  #jobOwner(id: string, token: string): string {
    const issuedTo = this.#jobs.get(id);
    if (issuedTo === undefined) return 'never issued';
    const caller = token === "another workspace's" ? 'other' : 'main';
    return issuedTo === caller ? 'own' : "another workspace's";
  }

  #noteJob(exchange: Exchange, path: string | undefined, method: string): void {
    const jobs = this.#context.messages.async;
    const workspace = LIVE_ROLES[exchange.request.tokenRole ?? ''];
    if (jobs === undefined || workspace === undefined || method !== 'POST' || path === undefined || exchange.response === undefined) return;
    if (!this.#context.messages.routes.some((r) => r.path === path)) return;
    const status = exchange.response.status;
    if (status < 200 || status > 299) return;
    const id = jobIdOf(exchange, jobs.jobIdPointer);
    if (id.ok) this.#jobs.set(id.id, workspace);
  }

  #poolState(exchange: Exchange, method: string, path: string | undefined, token: string): string {
    const pool = poolOfMethod(method);
    const role = exchange.request.tokenRole;
    if (pool === undefined || role === undefined || LIVE_ROLES[role] === undefined || token === 'malformed' || path === undefined || (UNAUTHENTICATED_PATHS as readonly string[]).includes(path)) {
      return 'no pool';
    }
    const key = `${role} ${pool}`;
    const state = this.#pools.get(key) ?? { low: false };
    this.#pools.set(key, state);
    const at = Date.parse(exchange.startedAt);
    const windowMs = this.#context.limits.windowS * 1000;
    const res = exchange.response;
    const remainingText = res?.headers['x-ratelimit-remaining'];
    const remaining = remainingText !== undefined && /^\d+$/.test(remainingText) ? Number(remainingText) : undefined;
    if (res?.status === 429) {
      state.spentAtMs = at;
      delete state.refilledAtMs;
      return 'spent';
    }
    const limit = this.#context.limits[pool];
    if (remaining === undefined) {
      // Not metered (a 401, a 404 before the limiter): the pool's last word says where it stands.
      if (state.spentAtMs !== undefined && at - state.spentAtMs < windowMs) return 'spent';
      if (state.refilledAtMs !== undefined && at - state.refilledAtMs < windowMs) return 'just refilled';
      return state.low ? 'low' : 'fresh';
    }
    state.low = remaining < limit * SLOW_DOWN_FRACTION;
    if (state.spentAtMs !== undefined) {
      // The first request served after a refusal: the pool has points again (on a rolling window, a few at first).
      state.refilledAtMs = at;
      delete state.spentAtMs;
    }
    if (state.refilledAtMs !== undefined && at - state.refilledAtMs < windowMs) return 'just refilled';
    return state.low ? 'low' : 'fresh';
  }
}
