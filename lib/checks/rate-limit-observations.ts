import type { Exchange } from '../model/exchange.ts';
import { fail, inconclusive, pass, type Finding } from '../model/finding.ts';
import { integerHeader, receivedAtMs, sentAtMs } from './pool-headers.ts';
import { exchangeLabel } from './rate-limit-headers.ts';
import { isRefusal, isServed } from './rate-limit-refusal.ts';
import { judged } from './judged.ts';

/** A 429 the pacer met on a request that did not ask for one, and absorbed by waiting Retry-After. */
export interface AbsorbedRefusal {
  role: string;
  pool: string;
  retryAfterS: number | undefined;
  exchange: Exchange;
}

/** Waiting the budget service did, by reason, in ms. */
export interface WaitSummary {
  slowDown: number;
  retryAfter: number;
  recovery: number;
}

function waits(w: WaitSummary | undefined): string {
  if (w === undefined) return '';
  const s = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;
  return `; waited ${s(w.slowDown)} slowing down under 10%, ${s(w.retryAfter)} on Retry-After, ${s(w.recovery)} for exhausted pools to heal`;
}

/**
 * INFO: a client that follows §8.1's recommended behaviour (pace by the headers, slow under 10%)
 * should meet no 429 it did not provoke. Any it met is listed; it never fails another requirement.
 * 429s of the per-IP limiter of the unauthenticated routes are legal whatever their number (its
 * limit is not shown): counted in the note, never listed.
 */
export const unplannedRefusalsFinding = judged('rate-limit-observations/unplannedRefusalsFinding', function unplannedRefusalsFinding(requirement: string, absorbed: readonly AbsorbedRefusal[], waited?: WaitSummary, perIp = 0): Finding {
  const ip = perIp === 0 ? '' : `; ${perIp} 429s of the per-IP limiter of the unauthenticated routes, waited out (legal)`;
  if (absorbed.length === 0) return pass(requirement, [], `0 unplanned 429s${waits(waited)}${ip}`);
  const byPool = new Map<string, number>();
  for (const a of absorbed) byPool.set(`${a.role}/${a.pool}`, (byPool.get(`${a.role}/${a.pool}`) ?? 0) + 1);
  const where = [...byPool].map(([k, n]) => `${n} on ${k}`).join(', ');
  return {
    ...fail(requirement, 'no 429 on requests paced by the pool headers', `${absorbed.length} unplanned 429s (${where}), each absorbed by waiting Retry-After`, absorbed.map((a) => a.exchange)),
    note: `${absorbed.length} unplanned 429s${waits(waited)}${ip}`,
  };
});

/**
 * INFO, §8.1 leaves it open: does a refused request consume a point? Read from one served request
 * sent once every point spent before the window had aged out: its Remaining tells whether the
 * refusals inside the window counted. Requests near the window's edge make it undetermined.
 */
export const refusedChargeFinding = judged('rate-limit-observations/refusedChargeFinding', function refusedChargeFinding(requirement: string, history: readonly Exchange[], last: Exchange, limit: number, windowMs: number): Finding {
  const observed = integerHeader(last, 'x-ratelimit-remaining');
  if (!isServed(last) || observed === undefined) return inconclusive(requirement, `the last request was not served with an integer Remaining: ${exchangeLabel(last)}`, [last]);
  const from = { early: sentAtMs(last) - windowMs, late: receivedAtMs(last) - windowMs };
  let served = 0;
  let refused = 0;
  for (const e of history) {
    if (e === last || e.response === undefined || (!isServed(e) && !isRefusal(e))) continue;
    // Surely inside the window of `last` on the target's clock, surely outside, or on its edge.
    const inside = sentAtMs(e) > from.late;
    const outside = receivedAtMs(e) <= from.early;
    if (!inside && !outside) return pass(requirement, [last], `undetermined: ${exchangeLabel(e)} lies on the edge of the window`);
    if (inside && isServed(e)) served += 1;
    if (inside && isRefusal(e)) refused += 1;
  }
  if (refused === 0) return pass(requirement, [last], 'undetermined: no refused request within the window of the last one');
  const free = limit - 1 - served;
  const charged = free - refused;
  const note =
    observed === free
      ? `refused requests consume no points: Remaining ${observed} with ${refused} refusals and ${served} served requests in the window`
      : observed === charged
        ? `refused requests consume a point each: Remaining ${observed} = ${limit} − 1 − ${served} served − ${refused} refused in the window`
        : `undetermined: Remaining ${observed}, expected ${free} if refusals are free or ${charged} if they are charged`;
  return pass(requirement, [last], note);
});
