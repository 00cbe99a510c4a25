import type { Exchange } from '../model/exchange.ts';
import { fail, inconclusive, pass, type Finding } from '../model/finding.ts';
import type { Pool } from '../spec-constants.ts';
import { integerHeader, receivedAtMs, sentAtMs } from './pool-headers.ts';
import { exchangeLabel } from './rate-limit-headers.ts';
import { isRefusal, isServed, isSurelyCharged } from './rate-limit-refusal.ts';
import { judged } from './judged.ts';

function remaining(exchange: Exchange): number | undefined {
  return integerHeader(exchange, 'x-ratelimit-remaining');
}

/**
 * §8.1 "Each request consumes one point from the pool matching its method": on sequential served
 * requests of one token and pool, Remaining drops by exactly one each time. A drop of more is
 * always wrong. A drop of less is wrong only when no point can have come back: the sequence began
 * on a fresh pool (Remaining limit − 1) and lasted less than a window.
 */
export const remainingCountsDownFinding = judged('rate-limit-counting/remainingCountsDownFinding', function remainingCountsDownFinding(requirement: string, sequence: readonly Exchange[], limit: number, windowMs: number): Finding {
  const served = sequence.filter(isServed);
  if (served.length < 2) return inconclusive(requirement, 'fewer than two served requests in sequence', [...sequence]);
  const garbled = served.find((e) => e.response?.headers['x-ratelimit-remaining'] !== undefined && remaining(e) === undefined);
  if (garbled !== undefined) {
    return fail(requirement, 'X-RateLimit-Remaining an integer', `${JSON.stringify(garbled.response?.headers['x-ratelimit-remaining'])} on ${exchangeLabel(garbled)}`, [garbled]);
  }
  // A served request was counted: its own answer cannot show every point left.
  const full = served.find((e) => (remaining(e) ?? -1) >= limit);
  if (full !== undefined) {
    return fail(requirement, `X-RateLimit-Remaining at most ${limit - 1} on a served request: it spent one of the ${limit} points`, `${remaining(full)} on ${exchangeLabel(full)}`, [full]);
  }
  const first = served[0]!;
  const fresh = remaining(first) === limit - 1;
  let judged = 0;
  const doubts: string[] = [];
  for (let i = 1; i < served.length; i++) {
    const a = served[i - 1]!;
    const b = served[i]!;
    const ra = remaining(a);
    const rb = remaining(b);
    if (ra === undefined || rb === undefined) continue;
    const drop = ra - rb;
    const expected = `X-RateLimit-Remaining ${ra} then ${ra - 1}: one point per request`;
    if (drop > 1) return fail(requirement, expected, `${ra} then ${rb} on ${exchangeLabel(a)}, ${exchangeLabel(b)}`, [a, b]);
    if (drop < 1) {
      const noneBack = fresh && receivedAtMs(b) - sentAtMs(first) < windowMs;
      if (noneBack) return fail(requirement, expected, `${ra} then ${rb}: the pool was fresh, so no point can have come back`, [first, a, b]);
      doubts.push(`${ra} then ${rb}`);
      continue;
    }
    judged += 1;
  }
  if (judged === 0) {
    return inconclusive(requirement, doubts.length > 0 ? `Remaining did not drop (${doubts.join(', ')}), but points may have come back on a pool that was not fresh` : 'no integer Remaining to compare', served);
  }
  return pass(requirement, served, `${judged} sequential drops of exactly one`);
});

/** The most served requests that surely lie within one window on the target's clock, and the first and last of them. */
interface Densest {
  count: number;
  first: Exchange;
  last: Exchange;
  spanMs: number;
}

/**
 * The target handled each request between its send and receive times, so the served requests sent
 * after `received_j − window` and received by `received_j` lie, on the target's clock, within one
 * window that ends at request j, whatever the skew. The window ending at the request that makes
 * the most of them.
 */
function densestWindow(served: readonly Exchange[], windowMs: number): Densest | undefined {
  const times = served.map((e) => ({ e, s: sentAtMs(e), r: receivedAtMs(e) })).sort((a, b) => a.r - b.r);
  if (times.length === 0) return undefined;
  let worst = { count: 0, first: times[0]!.e, last: times[0]!.e };
  for (let j = 0; j < times.length; j++) {
    const end = times[j]!.r;
    let count = 0;
    let firstIn: Exchange | undefined;
    for (let i = 0; i <= j; i++) {
      if (times[i]!.s <= end - windowMs) continue;
      count += 1;
      firstIn ??= times[i]!.e;
    }
    if (count > worst.count && firstIn !== undefined) worst = { count, first: firstIn, last: times[j]!.e };
  }
  return { ...worst, spanMs: receivedAtMs(worst.last) - sentAtMs(worst.first) };
}

/** How the campaign spent a pool: for the notes of a pool that did not run out. */
export interface SpendFacts {
  /** Requests kept in flight during the burst. */
  inFlight?: number;
  /** Time spent waiting for the pool to heal before it was looked at fresh. */
  healWaitedMs?: number;
}

function perSecond(count: number, ms: number): string {
  const rate = (count * 1000) / Math.max(1, ms);
  return rate >= 10 ? String(Math.round(rate)) : rate.toFixed(1);
}

function earliest(exchanges: readonly Exchange[]): Exchange | undefined {
  let best: Exchange | undefined;
  for (const e of exchanges) if (best === undefined || receivedAtMs(e) < receivedAtMs(best)) best = e;
  return best;
}

/**
 * §8.1 table: a fresh pool serves exactly its limit within a window, then refuses. `charged` is
 * every request of one token to the pool since the pool was fresh, in the order sent.
 *
 * Judged window by window, so a spend that lasts longer than a window (a far target, a big pool)
 * is judged too: no span of one window may surely hold more served requests than the limit, and
 * at the pool's first 429 (its own word that it is spent) the requests it may have served within
 * the window before it must reach the limit. Points that come back as the window rolls explain
 * any more served in all; they never explain more within one window.
 */
export const limitEnforcedFinding = judged('rate-limit-counting/limitEnforcedFinding', function limitEnforcedFinding(requirement: string, charged: readonly Exchange[], limit: number, windowMs: number, pool: Pool, spend: SpendFacts = {}): Finding {
  const first = charged[0];
  if (first === undefined) return inconclusive(requirement, 'no request was sent');
  const r0 = remaining(first);
  // Served, so counted: Remaining equal to the Limit is a miscount, not a pool that was not fresh.
  if (isServed(first) && r0 !== undefined && r0 >= limit) {
    return fail(requirement, `X-RateLimit-Remaining ${limit - 1} on the first request of a fresh pool`, `${r0} on ${exchangeLabel(first)}: the request that was served spent no point`, [first]);
  }
  if (!isServed(first) || r0 !== limit - 1) {
    const healing = spend.healWaitedMs === undefined || spend.healWaitedMs === 0 ? '' : `, and it did not heal over ${Math.round(spend.healWaitedMs / 1000)} s of waiting (another client spending this token?)`;
    return inconclusive(requirement, `the ${pool} pool was not fresh when the harness began (first answer ${exchangeLabel(first)}, Remaining ${r0 ?? 'absent'})${healing}`, [first]);
  }
  const lost = charged.find((e) => e.response === undefined);
  if (lost !== undefined) return inconclusive(requirement, `a request got no answer: ${exchangeLabel(lost)}`, [lost]);
  const served = charged.filter(isServed);
  const refusals = charged.filter(isRefusal);
  const span = Math.max(...charged.map(receivedAtMs)) - Math.min(...charged.map(sentAtMs));
  const expected = `exactly ${limit} requests served by the fresh ${pool} pool within a window, then 429`;
  // Too many: only requests that surely spent a point count. Too few (below): any that may have.
  const densest = densestWindow(charged.filter(isSurelyCharged), windowMs);
  if (densest !== undefined && densest.count > limit) {
    const within = densest.spanMs < span ? `${densest.count} requests served within ${densest.spanMs} ms (${served.length} over ${span} ms in all)` : `${densest.count} requests served within ${span} ms`;
    return fail(requirement, expected, `${within}${refusals.length === 0 ? ' and none refused' : ' before the first 429'}`, [first, densest.first, densest.last]);
  }
  const firstRefusal = earliest(refusals);
  if (firstRefusal === undefined) {
    // Served faster than the window gives points back, a pool runs out within one window; slower, never.
    const rates = `about ${perSecond(served.length, span)} a second, against ${perSecond(limit, windowMs)} a second given back`;
    const inFlight = spend.inFlight === undefined ? '' : `, ${spend.inFlight} requests in flight`;
    return inconclusive(requirement, `the pool was not exhausted: ${served.length} served over ${span} ms (${rates}${inFlight})`, [first]);
  }
  // Served requests the target may have handled within the window that ends at its first 429.
  const opensMs = sentAtMs(firstRefusal) - windowMs;
  const before = served.filter((e) => sentAtMs(e) <= receivedAtMs(firstRefusal) && receivedAtMs(e) > opensMs).length;
  const evidence = [first, ...refusals.slice(0, 2)];
  if (before < limit) return fail(requirement, expected, `429 after only ${before} served requests${served.length > before ? ` within the window before it (${served.length} in all)` : ''}`, evidence);
  if (served.length === limit) return pass(requirement, evidence, `${served.length} served, then ${refusals.length} refused, within ${span} ms`);
  return pass(
    requirement,
    evidence,
    `${served.length} served over ${span} ms, more than a window: ${limit} before the first 429 (Remaining ${remaining(firstRefusal) ?? 'absent'}), never more than ${limit} within one window; the rest as points came back`,
  );
});

export const rollingWindowFinding = judged('rate-limit-counting/rollingWindowFinding', function rollingWindowFinding(requirement: string, exchanges: readonly Exchange[], limit: number, windowMs: number, pool: Pool): Finding {
  const worst = densestWindow(exchanges.filter(isSurelyCharged), windowMs);
  if (worst === undefined) return inconclusive(requirement, `no served ${pool} request to count`);
  if (worst.count <= limit) return pass(requirement, [worst.first], `at most ${worst.count} served ${pool} requests within any ${windowMs / 1000}s span (limit ${limit})`);
  return fail(
    requirement,
    `at most ${limit} served ${pool} requests within any ${windowMs / 1000}s span (a rolling window)`,
    `${worst.count} served within ${worst.spanMs} ms, from ${exchangeLabel(worst.first)} to ${exchangeLabel(worst.last)}: points came back before the requests that spent them aged out`,
    [worst.first, worst.last],
  );
});

/**
 * §5.5 "Rate limits are scoped per token": with the secondary token refused, the primary token of
 * the same workspace is still served on that pool and lost no more than the one point of its own
 * request.
 */
export const perTokenFinding = judged('rate-limit-counting/perTokenFinding', function perTokenFinding(requirement: string, primaryBefore: Exchange, secondaryRefusal: Exchange, primaryAfter: Exchange, pool: Pool = 'read'): Finding {
  const evidence = [primaryBefore, secondaryRefusal, primaryAfter];
  if (!isRefusal(secondaryRefusal)) return inconclusive(requirement, `the secondary token's ${pool} pool was not exhausted: ${exchangeLabel(secondaryRefusal)}`, evidence);
  const expected = `the primary token served from its own ${pool} pool, its Remaining down by its own request only`;
  if (isRefusal(primaryAfter)) return fail(requirement, expected, `the primary token was refused (429) once the secondary token's ${pool} pool was exhausted: the budget is shared`, evidence);
  if (!isServed(primaryAfter)) return inconclusive(requirement, `the primary token's request was not served: ${exchangeLabel(primaryAfter)}`, evidence);
  const rb = remaining(primaryBefore);
  const ra = remaining(primaryAfter);
  if (rb === undefined || ra === undefined) return inconclusive(requirement, 'no integer X-RateLimit-Remaining on the primary token\'s requests', evidence);
  if (ra >= rb - 1) return pass(requirement, evidence);
  return fail(requirement, expected, `Remaining ${rb} before and ${ra} after the secondary token's requests: they spent ${rb - 1 - ra} of the primary's points`, evidence);
});

/**
 * §8.1 "the pool matching its method": a token with its read pool exhausted still gets its POST
 * served. `writesBefore` are the token's writes just before that POST, which left the write pool
 * its last point by the harness's count: what they said of the pool goes with a refusal, since a
 * pool that said 0 already counted other requests (the read pool's, or another token's), and one
 * that said more refused with points left.
 */
export const separatePoolsFinding = judged('rate-limit-counting/separatePoolsFinding', function separatePoolsFinding(requirement: string, readRefusal: Exchange, write: Exchange, writesBefore: readonly Exchange[] = []): Finding {
  const evidence = [readRefusal, write];
  if (!isRefusal(readRefusal)) return inconclusive(requirement, `the read pool was not exhausted: ${exchangeLabel(readRefusal)}`, evidence);
  if (isRefusal(write)) {
    const pool = write.response?.headers['x-ratelimit-pool'];
    const left = writesBefore.filter(isServed).map(remaining).filter((n): n is number => n !== undefined);
    const lowest = left.length === 0 ? undefined : Math.min(...left);
    const said =
      lowest === undefined
        ? ''
        : lowest === 0
          ? "; the write pool had said Remaining 0 before it, a point early by this token's writes: it counted other requests too (the read pool's, or another token's)"
          : `, though the write pool's answers just before it said Remaining ${lowest} at the lowest`;
    return fail(requirement, 'the POST served from the write pool while only the read pool is exhausted', `the POST was refused (429, X-RateLimit-Pool ${pool === undefined ? 'absent' : JSON.stringify(pool)}) right after the read pool ran out${said}`, evidence);
  }
  if (!isServed(write)) return inconclusive(requirement, `the POST was not served: ${exchangeLabel(write)}`, evidence);
  return pass(requirement, evidence);
});
