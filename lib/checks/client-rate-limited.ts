import { differences, pathOf, poolOf, sameRequest, type ClientJudgement, type TracedRequest } from './client-trace.ts';

const HONOURED = 'client/8.1/retry-after-honoured';
const SAME = 'client/8.1/same-request-after-429';

/** Receive times are the server's; a next request arriving this much early is clock granularity, not a breach. */
const SLACK_MS = 50;

function refusals(trace: readonly TracedRequest[]): { index: number; retryAfterS: number }[] {
  const out: { index: number; retryAfterS: number }[] = [];
  for (const [index, r] of trace.entries()) {
    const header = r.answer.headers['retry-after'];
    if (r.answer.status === 429 && header !== undefined && /^\d+$/.test(header)) out.push({ index, retryAfterS: Number(header) });
  }
  return out;
}

/** The next request to the same pool after `index`, or undefined. */
function nextInPool(trace: readonly TracedRequest[], index: number): number | undefined {
  const pool = poolOf(trace[index]!.method);
  for (let i = index + 1; i < trace.length; i++) if (poolOf(trace[i]!.method) === pool) return i;
  return undefined;
}

// > `rate_limited`: retry after the number of seconds in `Retry-After`.
export function judgeRetryAfterHonoured(trace: readonly TracedRequest[]): ClientJudgement {
  const refused = refusals(trace);
  if (refused.length === 0) return { requirement: HONOURED, verdict: 'not-run', reason: 'no request of the client was answered 429' };
  let judged = 0;
  for (const { index, retryAfterS } of refused) {
    const next = nextInPool(trace, index);
    if (next === undefined) continue;
    judged += 1;
    const waitedMs = trace[next]!.receivedAtMs - trace[index]!.receivedAtMs;
    if (waitedMs + SLACK_MS < retryAfterS * 1000) {
      return {
        requirement: HONOURED,
        verdict: 'fail',
        reason: `the next ${poolOf(trace[index]!.method)}-pool request came ${(waitedMs / 1000).toFixed(2)} s after a 429 with Retry-After: ${retryAfterS}`,
        at: next,
      };
    }
  }
  if (judged === 0) return { requirement: HONOURED, verdict: 'not-run', reason: `${refused.length} 429(s), and the client sent nothing more to the refused pool` };
  return { requirement: HONOURED, verdict: 'pass', reason: `${judged} 429(s) followed by a request to the pool only after Retry-After` };
}

/** The retry of a refused request: the next request on its method and path (another route is no retry). */
function nextOnRoute(trace: readonly TracedRequest[], index: number): number | undefined {
  const { method, target } = trace[index]!;
  for (let i = index + 1; i < trace.length; i++) if (trace[i]!.method === method && pathOf(trace[i]!.target) === pathOf(target)) return i;
  return undefined;
}

// > A rejected 429 request has done no work, so repeating it is safe … retry the same request
export function judgeSameRequestAfter429(trace: readonly TracedRequest[]): ClientJudgement {
  const refused = refusals(trace);
  if (refused.length === 0) return { requirement: SAME, verdict: 'not-run', reason: 'no request of the client was answered 429' };
  let judged = 0;
  for (const { index } of refused) {
    const next = nextOnRoute(trace, index);
    if (next === undefined) continue;
    judged += 1;
    const [a, b] = [trace[index]!, trace[next]!];
    if (!sameRequest(a, b)) return { requirement: SAME, verdict: 'fail', reason: `the request after a 429 is not the refused one: ${differences(a, b).join('; ')}`, at: next };
  }
  if (judged === 0) return { requirement: SAME, verdict: 'not-run', reason: `${refused.length} 429(s), and the client never sent the refused request again` };
  return { requirement: SAME, verdict: 'pass', reason: `${judged} 429(s), each followed by the same request` };
}

const BACKOFF = 'client/8.1/backoff-multiplier';

/** A wait counts as multiplied when it is this much longer than Retry-After (a client's timer and the wire add less). */
const MULTIPLIED = 1.1;

/**
 * Recommended behaviour: a request refused again after waiting out Retry-After is next sent only
 * after more than Retry-After. Judged on each 429 that answered a repeat of a refused request.
 */
// > on repeated 429s add a backoff multiplier on top of `Retry-After`
export function judgeBackoffMultiplier(trace: readonly TracedRequest[]): ClientJudgement {
  const refused = refusals(trace);
  let judged = 0;
  for (const { index, retryAfterS } of refused) {
    const previous = refused.find((r) => r.index < index && nextInPool(trace, r.index) === index);
    if (previous === undefined || !sameRequest(trace[previous.index]!, trace[index]!)) continue;
    const next = nextInPool(trace, index);
    if (next === undefined) continue;
    const waitedMs = trace[next]!.receivedAtMs - trace[index]!.receivedAtMs;
    // A wait shorter than Retry-After itself is retry-after-honoured's breach, not this rule's.
    if (waitedMs + SLACK_MS < retryAfterS * 1000) continue;
    judged += 1;
    if (waitedMs < retryAfterS * 1000 * MULTIPLIED) {
      return {
        requirement: BACKOFF,
        verdict: 'fail',
        reason: `after a second 429 in a row (Retry-After: ${retryAfterS}) the client waited ${(waitedMs / 1000).toFixed(2)} s: no multiplier on top of Retry-After`,
        at: next,
      };
    }
  }
  if (judged === 0) return { requirement: BACKOFF, verdict: 'not-run', reason: 'no request was refused twice in a row and sent again after Retry-After' };
  return { requirement: BACKOFF, verdict: 'pass', reason: `${judged} repeated 429(s), each waited out longer than Retry-After` };
}
