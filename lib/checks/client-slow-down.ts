import { poolOf, type ClientJudgement, type TracedRequest } from './client-trace.ts';

const ID = 'client/8.1/slow-down-low-remaining';

/** The mean gap after a low Remaining is at least this many times, and this much longer than, the mean gap before. */
const FACTOR = 1.5;
const MARGIN_MS = 100;

function low(r: TracedRequest): boolean | undefined {
  const remaining = Number(r.answer.headers['x-ratelimit-remaining']);
  const limit = Number(r.answer.headers['x-ratelimit-limit']);
  if (r.answer.headers['x-ratelimit-remaining'] === undefined || !Number.isFinite(remaining) || !(limit > 0)) return undefined;
  return remaining < limit / 10;
}

const mean = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;

/**
 * Recommended client behaviour: the gaps between requests to a pool after an answer whose
 * Remaining is under 10% of its Limit are longer than the gaps after answers above it. Judged on
 * the read pool and the write pool alike, when the client sent on after both kinds of answer.
 */
// > slow down when `X-RateLimit-Remaining` falls below 10% of the limit
export function judgeSlowDown(trace: readonly TracedRequest[]): ClientJudgement {
  for (const pool of ['read', 'write'] as const) {
    const sent = trace.map((r, i) => ({ r, i })).filter(({ r }) => poolOf(r.method) === pool && r.answer.status < 400);
    const before: number[] = [];
    const after: number[] = [];
    let firstLow: number | undefined;
    for (let k = 0; k + 1 < sent.length; k++) {
      const state = low(sent[k]!.r);
      if (state === undefined) continue;
      const gap = sent[k + 1]!.r.receivedAtMs - sent[k]!.r.receivedAtMs;
      if (state) {
        after.push(gap);
        firstLow ??= sent[k + 1]!.i;
      } else before.push(gap);
    }
    if (before.length === 0 || after.length === 0) continue;
    const [b, a] = [mean(before), mean(after)];
    const text = `mean gap ${(b / 1000).toFixed(2)} s while Remaining was high, ${(a / 1000).toFixed(2)} s once under 10% of the limit`;
    if (a < b * FACTOR || a - b < MARGIN_MS) return { requirement: ID, verdict: 'fail', reason: `no slow-down on the ${pool} pool: ${text}`, at: firstLow };
    return { requirement: ID, verdict: 'pass', reason: `the ${pool} pool: ${text}` };
  }
  return { requirement: ID, verdict: 'not-run', reason: 'the client sent no request after an answer with X-RateLimit-Remaining under 10% of the limit, or none before one' };
}
