import type { Exchange } from '../model/exchange.ts';
import { fail, pass, type Finding } from '../model/finding.ts';
import { judged } from './judged.ts';

/** A rate-limit header the pacing client could not act on as it asked (see Pacer.disbelieved). */
export interface DisbelievedHeader {
  role: string;
  pool: string;
  header: string;
  value: string;
  /** What the client did instead. */
  instead: string;
  exchange: Exchange;
  /** Responses that carried it. */
  times: number;
}

/**
 * INFO, with the client §8.1 recommends: a Reset or Retry-After beyond the window, or a Remaining
 * still exhausted after a whole window, cannot be waited on without stalling every later request.
 * The client waited at most the window instead; each such header is listed with the first
 * response that carried it. Never a failure of another requirement: the run-wide header checks
 * (ratelimit/8.1/reset-unix-seconds) judge the values themselves.
 */
export const disbelievedHeadersFinding = judged('disbelieved-headers/disbelievedHeadersFinding', function disbelievedHeadersFinding(requirement: string, claims: readonly DisbelievedHeader[], windowS: number): Finding {
  if (claims.length === 0) return pass(requirement, [], 'every Reset and Retry-After the pacing client met was within the window');
  const list = claims.map((c) => `${c.header}: ${c.value} on ${c.role}/${c.pool} (${c.times} responses; ${c.instead})`).join('; ');
  return {
    ...fail(
      requirement,
      `rate-limit headers a client can wait on: Reset and Retry-After within the ${windowS} s window, Remaining recovered after a whole window`,
      `headers not acted on as they asked: ${list}`,
      claims.map((c) => c.exchange),
    ),
    note: `${claims.length} rate-limit headers disbelieved by the pacing client; the run waited at most the window on each`,
  };
});
