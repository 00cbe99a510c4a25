import type { Exchange } from '../model/exchange.ts';
import { fail, pass, type Finding } from '../model/finding.ts';
import type { Pool } from '../spec-constants.ts';
import { judged } from './judged.ts';

export interface PoolHeaderExpectation {
  pool: Pool;
  /** The pool's size (the spec's or the profile's). */
  limit: number;
  windowS: number;
  /** Unix ms, on the target's clock, of the moment the response was received (for the Reset plausibility window); read off the exchange when absent. */
  receivedAtMs?: number;
}

/** The four §8.1 headers in the order of the spec's table. */
export const POOL_HEADER_NAMES = ['x-ratelimit-pool', 'x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'] as const;
const TITLES: Record<(typeof POOL_HEADER_NAMES)[number], string> = {
  'x-ratelimit-pool': 'X-RateLimit-Pool',
  'x-ratelimit-limit': 'X-RateLimit-Limit',
  'x-ratelimit-remaining': 'X-RateLimit-Remaining',
  'x-ratelimit-reset': 'X-RateLimit-Reset',
};

/** Slack either side of the Reset window for clock skew between harness and target. */
export const RESET_SKEW_S = 5;

const INTEGER = /^\d+$/;

/** An integer header value (`1*DIGIT`), or undefined when absent or anything else. */
export function integerHeader(exchange: Exchange, name: string): number | undefined {
  const v = exchange.response?.headers[name];
  return v !== undefined && INTEGER.test(v) ? Number(v) : undefined;
}

/** Unix ms the request left the harness. */
export function sentAtMs(exchange: Exchange): number {
  return Date.parse(exchange.startedAt);
}

/** Unix ms the response was complete: the target's handling lies between sent and received. */
export function receivedAtMs(exchange: Exchange): number {
  return sentAtMs(exchange) + exchange.timings.totalMs;
}

/**
 * Unix ms the response's headers had arrived: what the target stated in them (its Date, its
 * Reset) it stated by then, however long a stream's body ran on after.
 */
export function headersAtMs(exchange: Exchange): number {
  return sentAtMs(exchange) + (exchange.timings.headersMs ?? exchange.timings.totalMs);
}

/**
 * Server clock minus harness clock, read from the HTTP Date header (RFC 9110 §6.6.1: an origin
 * server with a clock sends it), to the second; 0 when the header is missing or unreadable.
 */
export function clockOffsetOf(exchange: Exchange): number {
  const date = exchange.response?.headers['date'];
  const serverMs = date === undefined ? Number.NaN : Date.parse(date);
  if (Number.isNaN(serverMs)) return 0;
  // Stamped as the headers went out: between the send and their arrival, not a stream's end.
  // In whole milliseconds, as every instant the run writes.
  const offset = Math.round(serverMs - (sentAtMs(exchange) + headersAtMs(exchange)) / 2);
  // The header has whole seconds: an offset under two seconds is rounding, not skew.
  return Math.abs(offset) < 2000 ? 0 : offset;
}

function shown(value: string | undefined): string {
  return value === undefined ? 'absent' : JSON.stringify(value);
}

/** The aspects of the pool headers, each with its own problems: presence, pool, limit, remaining, reset. */
export interface PoolHeaderAspects {
  presence: string[];
  pool: string[];
  limit: string[];
  remaining: string[];
  reset: string[];
}

/**
 * The problems of one authenticated response's X-RateLimit-* headers (§8.1 table), sorted by
 * aspect so each requirement reports only its own. An absent header is a presence problem only.
 */
export function poolHeaderAspects(exchange: Exchange, expected: PoolHeaderExpectation): PoolHeaderAspects {
  const aspects: PoolHeaderAspects = { presence: [], pool: [], limit: [], remaining: [], reset: [] };
  const h = exchange.response?.headers;
  if (h === undefined) {
    aspects.presence.push('no response');
    return aspects;
  }
  const missing = POOL_HEADER_NAMES.filter((n) => h[n] === undefined);
  for (const n of missing) aspects.presence.push(`${TITLES[n]} is absent`);
  const pool = h['x-ratelimit-pool'];
  if (pool !== undefined && pool !== expected.pool) aspects.pool.push(`X-RateLimit-Pool is ${shown(pool)}, expected "${expected.pool}"`);
  const limit = h['x-ratelimit-limit'];
  if (limit !== undefined && !INTEGER.test(limit)) aspects.limit.push(`X-RateLimit-Limit is ${shown(limit)}, expected an integer`);
  else if (limit !== undefined && Number(limit) !== expected.limit) aspects.limit.push(`X-RateLimit-Limit is ${limit}, expected ${expected.limit} for the ${expected.pool} pool`);
  const remaining = h['x-ratelimit-remaining'];
  if (remaining !== undefined && !INTEGER.test(remaining)) aspects.remaining.push(`X-RateLimit-Remaining is ${shown(remaining)}, expected an integer`);
  else if (remaining !== undefined && Number(remaining) > expected.limit) aspects.remaining.push(`X-RateLimit-Remaining ${remaining} exceeds the limit ${expected.limit}`);
  const reset = h['x-ratelimit-reset'];
  if (reset !== undefined && !INTEGER.test(reset)) {
    aspects.reset.push(`X-RateLimit-Reset is ${shown(reset)}, expected a Unix timestamp in seconds`);
  } else if (reset !== undefined) {
    // On the target's clock (its Date header), as every other timing check reads it: a target whose
    // clock is off the harness's still states its Reset truly.
    const nowS = (expected.receivedAtMs ?? headersAtMs(exchange) + clockOffsetOf(exchange)) / 1000;
    const r = Number(reset);
    // A rolling window refills within one window from now; slack either side for clock skew.
    if (r < nowS - RESET_SKEW_S || r > nowS + expected.windowS + RESET_SKEW_S) {
      const hint = r > 1e11 ? ' (milliseconds?)' : r < 1e9 ? ' (a delta, not a Unix time?)' : '';
      aspects.reset.push(`X-RateLimit-Reset ${reset} is not a Unix time in seconds within the coming ${expected.windowS}s window (now ≈ ${Math.floor(nowS)})${hint}`);
    }
  }
  return aspects;
}

/** Problems with the X-RateLimit-* headers of one authenticated response (§8.1 table). Empty when right. */
export function poolHeaderProblems(exchange: Exchange, expected: PoolHeaderExpectation): string[] {
  return everyAspect(poolHeaderAspects(exchange, expected));
}

/** The problems of every aspect, in the table's order. */
export function everyAspect(a: PoolHeaderAspects): string[] {
  return [...a.presence, ...a.pool, ...a.limit, ...a.remaining, ...a.reset];
}

/** One finding for the requirement that a response carries correct pool headers. */
export const poolHeaderFinding = judged('pool-headers/poolHeaderFinding', function poolHeaderFinding(requirement: string, exchange: Exchange, expected: PoolHeaderExpectation): Finding {
  const problems = poolHeaderProblems(exchange, expected);
  return problems.length === 0
    ? pass(requirement, [exchange])
    : fail(requirement, `X-RateLimit-* headers of the ${expected.pool} pool (§8.1)`, problems.join('; '), [exchange]);
});
