import type { Exchange } from '../model/exchange.ts';
import { fail, inconclusive, pass, type Finding } from '../model/finding.ts';
import { headersAtMs, integerHeader, receivedAtMs, sentAtMs } from './pool-headers.ts';
import { CLOCK_MARGIN_MS, clockFloorMs } from './server-clock.ts';
import { exchangeLabel } from './rate-limit-headers.ts';
import { isRefusal, isServed, retryAfterSeconds } from './rate-limit-refusal.ts';
import { judged } from './judged.ts';

/**
 * A request sent to an exhausted pool after a 429, and the 429 it follows: the latest refusal
 * received before it was sent. `first` says no other request of that token and pool went out
 * between the two, so the 429's promises ("the next request will succeed") speak of this one.
 */
export interface Probe {
  exchange: Exchange;
  basis: Exchange;
  first: boolean;
}

/** Harness ms by which the 429's Retry-After has surely elapsed on the target. */
export function retryAfterElapsesAtMs(refusal: Exchange): number | undefined {
  const s = retryAfterSeconds(refusal);
  return s === undefined ? undefined : receivedAtMs(refusal) + s * 1000;
}

/**
 * Harness ms by which the target's clock has surely passed the 429's X-RateLimit-Reset. The
 * target's clock is placed by its Date header (second resolution): when it read D, the harness
 * clock stood between send and receive, so the harness reaches Reset by `Reset − D + received`.
 * With `clockWitness`, the run's answer that placed the target's clock most tightly (ClockWitness
 * in lib/checks/server-clock.ts), the earlier of that and `Reset − its floor`, its round trip and
 * a margin: a Date read just after the target's second turned places Reset within a round trip,
 * where the 429's own Date may leave up to a second more. Without a Date header the two clocks are
 * taken to agree within a second.
 */
export function resetPassesAtMs(refusal: Exchange, clockWitness?: Exchange): number | undefined {
  const reset = integerHeader(refusal, 'x-ratelimit-reset');
  if (reset === undefined) return undefined;
  const own = clockFloorMs(refusal);
  if (own === undefined) return reset * 1000 + 1000;
  // The 429's own Date, and the harness clock once its whole answer was in, as before.
  const byOwn = reset * 1000 - (own + headersAtMs(refusal)) + receivedAtMs(refusal);
  const floor = clockFloorMs(clockWitness);
  if (floor === undefined || clockWitness === undefined) return byOwn;
  // The witness's own round trip too: another machine of the target, whose clock its answers
  // could not show apart from the witness's (ClockWitness), is off by no more than that and the margin.
  const roundTrip = headersAtMs(clockWitness) - sentAtMs(clockWitness);
  return Math.min(byOwn, reset * 1000 - floor + roundTrip + CLOCK_MARGIN_MS);
}

/**
 * §8.1 "Retry-After … seconds until the next request will succeed". The target decided the 429
 * between its send and receive times and rounds the wait up to whole seconds, so the first probe
 * sent after `received + Retry-After` must be served. A pool that serves again earlier is not
 * wrong: Retry-After is then a safe upper bound (a client that waits it out is never refused),
 * which the finding notes; only a probe answered before `sent + (Retry-After − 1) s` shows it.
 * The next request served within the last second of the wait agrees as well (it succeeded, and
 * no later than promised): a probe a loaded machine sent late, after the 429 of a server whose
 * Retry-After is an upper bound, is evidence like any other, not a reason to leave it unjudged.
 */
export const retryAfterTrueFinding = judged('rate-limit-retry/retryAfterTrueFinding', function retryAfterTrueFinding(requirement: string, probes: readonly Probe[]): Finding {
  let judged = 0;
  const evidence: Exchange[] = [];
  const notes: string[] = [];
  for (const { exchange, basis, first } of probes) {
    const seconds = retryAfterSeconds(basis);
    // Only an answer of the pool speaks of it: served or refused (not a limiter that was down).
    if (seconds === undefined || !(isServed(exchange) || isRefusal(exchange))) continue;
    const surelyBefore = receivedAtMs(exchange) < sentAtMs(basis) + (seconds - 1) * 1000;
    const surelyAfter = sentAtMs(exchange) >= receivedAtMs(basis) + seconds * 1000;
    const after = ((sentAtMs(exchange) - receivedAtMs(basis)) / 1000).toFixed(1);
    if (surelyBefore && isServed(exchange)) {
      judged += 1;
      evidence.push(basis, exchange);
      notes.push(`served ${after} s after a 429 that said Retry-After: ${seconds}: a safe upper bound`);
    } else if (first && isServed(exchange)) {
      judged += 1;
      evidence.push(basis, exchange);
    } else if (surelyAfter && first) {
      judged += 1;
      evidence.push(basis, exchange);
      if (isRefusal(exchange)) {
        return fail(requirement, `the request served once Retry-After (${seconds} s) has elapsed`, `refused again ${after} s after the 429 that said Retry-After: ${seconds}`, [basis, exchange]);
      }
    }
  }
  if (judged === 0) return inconclusive(requirement, 'no request could be timed against an integer Retry-After', probes.flatMap((p) => [p.basis, p.exchange]).slice(0, 4));
  const note = notes.length === 0 ? `${judged} timed requests agreed with Retry-After` : `${judged} timed requests agreed with Retry-After; ${[...new Set(notes)].join('; ')}`;
  return pass(requirement, evidence.slice(-2), note);
});

/**
 * §8.1 "X-RateLimit-Reset … when the bucket refills": whichever reading of "refills" a target
 * takes (its first point back, or all of them), the first request sent once the Reset instant of
 * a 429 has passed is served. The instant is placed by the 429's Date, or by `clockWitness` when
 * that places it earlier (resetPassesAtMs).
 */
export const resetRefillFinding = judged('rate-limit-retry/resetRefillFinding', function resetRefillFinding(requirement: string, probes: readonly Probe[], clockWitness?: Exchange): Finding {
  for (const { exchange, basis, first } of probes) {
    // A judgement derived again from its JSON line gives an absent witness as null.
    const at = resetPassesAtMs(basis, clockWitness ?? undefined);
    if (at === undefined || !first || !(isServed(exchange) || isRefusal(exchange)) || sentAtMs(exchange) < at) continue;
    if (isServed(exchange)) return pass(requirement, [basis, exchange]);
    const reset = basis.response?.headers['x-ratelimit-reset'];
    return fail(
      requirement,
      `the pool serving again once X-RateLimit-Reset ${reset} has passed`,
      `refused ${((sentAtMs(exchange) - at) / 1000).toFixed(1)} s after the Reset instant of the 429 before it (${exchangeLabel(exchange)})`,
      [basis, exchange],
    );
  }
  return inconclusive(requirement, 'no request was sent after the Reset instant of a 429 before any other', probes.flatMap((p) => [p.basis, p.exchange]).slice(0, 4));
});
