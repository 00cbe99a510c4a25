import type { Exchange } from '../model/exchange.ts';
import { fail, pass, type Finding } from '../model/finding.ts';
import type { Pool } from '../spec-constants.ts';

export interface PoolHeaderExpectation {
  pool: Pool;
  /** The pool's size (the spec's or the profile's). */
  limit: number;
  windowS: number;
  /** Unix ms of the moment the response was received (for the Reset plausibility window). */
  receivedAtMs?: number;
}

const INTEGER = /^\d+$/;

/** Problems with the X-RateLimit-* headers of one authenticated response (§8.1 table). Empty when right. */
export function poolHeaderProblems(exchange: Exchange, expected: PoolHeaderExpectation): string[] {
  const h = exchange.response?.headers;
  if (h === undefined) return ['no response'];
  const problems: string[] = [];
  const pool = h['x-ratelimit-pool'];
  if (pool !== expected.pool) problems.push(`X-RateLimit-Pool is ${pool === undefined ? 'absent' : JSON.stringify(pool)}, expected "${expected.pool}"`);
  const limit = h['x-ratelimit-limit'];
  if (limit === undefined || !INTEGER.test(limit)) problems.push(`X-RateLimit-Limit is ${limit === undefined ? 'absent' : JSON.stringify(limit)}, expected an integer`);
  else if (Number(limit) !== expected.limit) problems.push(`X-RateLimit-Limit is ${limit}, expected ${expected.limit} for the ${expected.pool} pool`);
  const remaining = h['x-ratelimit-remaining'];
  if (remaining === undefined || !INTEGER.test(remaining)) problems.push(`X-RateLimit-Remaining is ${remaining === undefined ? 'absent' : JSON.stringify(remaining)}, expected an integer`);
  else if (Number(remaining) > expected.limit) problems.push(`X-RateLimit-Remaining ${remaining} exceeds the limit ${expected.limit}`);
  const reset = h['x-ratelimit-reset'];
  if (reset === undefined || !INTEGER.test(reset)) {
    problems.push(`X-RateLimit-Reset is ${reset === undefined ? 'absent' : JSON.stringify(reset)}, expected a Unix timestamp in seconds`);
  } else {
    const nowS = (expected.receivedAtMs ?? Date.parse(exchange.startedAt) + exchange.timings.totalMs) / 1000;
    const r = Number(reset);
    // Slack of a few seconds either side for clock skew between harness and target.
    if (r < nowS - 5 || r > nowS + expected.windowS + 5) {
      problems.push(`X-RateLimit-Reset ${reset} is not a Unix time in seconds within the coming ${expected.windowS}s window (now ≈ ${Math.floor(nowS)})`);
    }
  }
  return problems;
}

/** One finding for the requirement that a response carries correct pool headers. */
export function poolHeaderFinding(requirement: string, exchange: Exchange, expected: PoolHeaderExpectation): Finding {
  const problems = poolHeaderProblems(exchange, expected);
  return problems.length === 0
    ? pass(requirement, [exchange])
    : fail(requirement, `X-RateLimit-* headers of the ${expected.pool} pool (§8.1)`, problems.join('; '), [exchange]);
}
