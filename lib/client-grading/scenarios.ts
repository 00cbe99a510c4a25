import type { ReceivedRequest, RequestScript, ScriptedAnswer } from '../reference/scripted-mode.ts';
import { seededRandom } from '../seeded-random.ts';
import { ERROR_SCENARIOS } from './error-scenarios.ts';
import { MESSAGE_SCENARIOS } from './message-scenarios.ts';
import { error, json, notFound, pathOf, poolHeaders, refuseUnauthenticated } from './scenario-answers.ts';

/** A scripted server for one client behaviour: what the client is asked to do, and how the server answers. */
export interface Scenario {
  name: string;
  /** What a client does when `ASI_SCENARIO` names this scenario (the contract with client scripts). */
  asks: string;
  /** What the server does. */
  serves: string;
  /** Labels of the runs when the command runs more than once (one framing, one wording each); one run when absent. */
  runs?: readonly string[];
  script(seed: number, run: string): RequestScript;
}

/** A long opaque cursor holding every character a client tends to re-encode or decode: `+`, `/`, `=`, `%`, space-like `+`. */
function cursorFor(next: () => number, page: number): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  let s = '';
  for (let i = 0; i < 120; i++) s += alphabet[Math.floor(next() * alphabet.length)];
  return `p${page}+${s.slice(0, 40)}/%2F${s.slice(40, 80)}%${s.slice(80)}==`;
}

function queryOf(request: ReceivedRequest): URLSearchParams {
  const i = request.target.indexOf('?');
  return new URLSearchParams(i < 0 ? '' : request.target.slice(i + 1));
}

const PAGES = 3;
const ROWS_PER_PAGE = 4;

/** Rows whose timestamps tie across every page boundary: a client that pages by timestamp loses or repeats rows. */
function ledgerPages(seed: number): { rows: unknown[]; next: string | null }[] {
  const next = seededRandom(seed);
  const cursors = Array.from({ length: PAGES - 1 }, (_, p) => cursorFor(next, p + 2));
  const base = Date.UTC(2026, 10, 1, 12, 0, 0);
  return Array.from({ length: PAGES }, (_, p) => ({
    rows: Array.from({ length: ROWS_PER_PAGE }, (_, r) => {
      // The last row of a page and the first of the next share a timestamp.
      const slot = p * (ROWS_PER_PAGE - 1) + r;
      return {
        operation_uuid: `op-${p}-${r}-${Math.floor(next() * 1e9).toString(16)}`,
        operation_type: 'agent_turn',
        feature: 'deal_agent',
        credits: 1 + Math.floor(next() * 5),
        metadata: {},
        timestamp: new Date(base + slot * 60_000).toISOString(),
      };
    }),
    next: cursors[p] ?? null,
  }));
}

const paging: Scenario = {
  name: 'paging',
  asks: 'read the whole ledger: GET /credits/operations, then follow next_cursor until it is null',
  serves: `${PAGES} pages whose rows tie across page boundaries, with long cursors holding +, /, = and %; a cursor it never gave is a 400 (permanent)`,
  script(seed) {
    const pages = ledgerPages(seed);
    return (request) => {
      const refused = refuseUnauthenticated(request);
      if (refused !== undefined) return refused;
      if (pathOf(request) !== '/credits/operations' || request.method !== 'GET') return notFound(request);
      const headers = poolHeaders(request.method, 500, request.receivedAtMs);
      const cursor = queryOf(request).get('cursor');
      const index = cursor === null ? 0 : pages.findIndex((_, i) => i > 0 && pages[i - 1]!.next === cursor);
      if (index < 0) return error(400, 'request.invalid_cursor', 'permanent', 'The cursor is not one this server gave.', headers);
      const page = pages[index]!;
      return json(200, { operations: page.rows, next_cursor: page.next }, headers);
    };
  },
};

/** Retry-After of each refusal of the storm, in seconds. */
const STORM = [1, 2];

const rateLimited: Scenario = {
  name: 'rate-limited',
  asks: 'GET /credits/operations?limit=10 once, handling 429 as the spec says',
  serves: `a read pool that refuses ${STORM.length} times in a row (Retry-After ${STORM.join(' s, then ')} s, each true: a read request earlier is refused again), then answers`,
  script() {
    let refusedUntilMs = 0;
    let refusals = 0;
    return (request) => {
      const refused = refuseUnauthenticated(request);
      if (refused !== undefined) return refused;
      const now = request.receivedAtMs;
      const read = request.method === 'GET' || request.method === 'HEAD';
      if (read && (now < refusedUntilMs || refusals < STORM.length)) {
        // A request before the promised instant is refused with what is left of the wait.
        const waitS = now < refusedUntilMs ? Math.ceil((refusedUntilMs - now) / 1000) : STORM[refusals++]!;
        refusedUntilMs = Math.max(refusedUntilMs, now + waitS * 1000);
        return error(429, 'rate_limit.exceeded', 'rate_limited', 'The read pool of this token is exhausted.', { ...poolHeaders(request.method, 0, now), 'retry-after': String(waitS) });
      }
      if (pathOf(request) === '/credits/operations' && request.method === 'GET') {
        return json(200, { operations: [], next_cursor: null }, poolHeaders(request.method, 590, now));
      }
      if (pathOf(request) === '/me' && request.method === 'GET') return json(200, { token: 'primary' }, poolHeaders(request.method, 590, now));
      return notFound(request);
    };
  },
};

const permanent: Scenario = {
  name: 'permanent',
  asks: 'GET /credits/operations?from=2026-02-01&to=2026-01-01 (to before from), then GET /me; give up on a permanent error',
  serves: 'a 400 (permanent) on the ledger and a 401 auth.token_invalid (permanent) on /me',
  script() {
    return (request): ScriptedAnswer => {
      const refused = refuseUnauthenticated(request);
      if (refused !== undefined) return refused;
      const headers = poolHeaders(request.method, 500, request.receivedAtMs);
      if (pathOf(request) === '/credits/operations') return error(400, 'request.validation_failed', 'permanent', '`to` is earlier than `from`.', headers);
      if (pathOf(request) === '/me') return error(401, 'auth.token_invalid', 'permanent', 'The bearer token is invalid.', { 'www-authenticate': 'Bearer' });
      return notFound(request);
    };
  },
};

const SLOW_PAGES = 8;
/** X-RateLimit-Remaining of the read pool after each page: under 10% of 600 from the fifth on. */
const REMAINING = [400, 300, 200, 100, 50, 30, 15, 5];

const slowDown: Scenario = {
  name: 'slow-down',
  asks: 'read the whole ledger: GET /credits/operations?limit=4, then follow next_cursor until it is null',
  serves: `${SLOW_PAGES} pages; X-RateLimit-Remaining falls under 10% of X-RateLimit-Limit (600) from the fifth page on (${REMAINING.join(', ')})`,
  script(seed) {
    const next = seededRandom(seed + 1);
    const cursors = Array.from({ length: SLOW_PAGES - 1 }, (_, p) => cursorFor(next, p + 2));
    return (request) => {
      const refused = refuseUnauthenticated(request);
      if (refused !== undefined) return refused;
      if (pathOf(request) !== '/credits/operations' || request.method !== 'GET') return notFound(request);
      const cursor = queryOf(request).get('cursor');
      const index = cursor === null ? 0 : cursors.indexOf(cursor) + 1;
      const headers = poolHeaders(request.method, REMAINING[Math.min(index, REMAINING.length - 1)]!, request.receivedAtMs);
      if (index < 0 || (cursor !== null && index === 0)) return error(400, 'request.invalid_cursor', 'permanent', 'The cursor is not one this server gave.', headers);
      return json(200, { operations: [], next_cursor: cursors[index] ?? null }, headers);
    };
  },
};

export const SCENARIOS: readonly Scenario[] = [paging, rateLimited, permanent, ...ERROR_SCENARIOS, ...MESSAGE_SCENARIOS, slowDown];
