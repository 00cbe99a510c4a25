import { categoryOf, sameRequest, type ClientJudgement, type TracedRequest } from './client-trace.ts';

const ID = 'client/7/transient-backoff';

/** Receive-time jitter granted when a wait is compared with the one before it. */
const SLACK_MS = 20;
/** Over a run of retries the last wait is at least this many times the first: a delay that grows. */
const GROWTH = 1.5;

/**
 * §7 category handling: a request answered `transient` is retried with backoff. Judged on each
 * run of transient answers to one request, each followed by the same request again: the waits
 * (a retry's receive time minus the failed answer's) never shrink and the last is well above the
 * first. Two retries at the least: one wait shows no growth.
 */
// > `transient`: retry with backoff.
export function judgeTransientBackoff(trace: readonly TracedRequest[]): ClientJudgement {
  const runs: number[][] = [];
  let current: number[] = [];
  for (const [i, r] of trace.entries()) {
    const next = trace[i + 1];
    const retried = r.answer.status >= 500 && categoryOf(r.answer.body) === 'transient' && next !== undefined && sameRequest(r, next);
    if (retried) current.push(i);
    else if (current.length > 0) {
      runs.push(current);
      current = [];
    }
  }
  if (current.length > 0) runs.push(current);
  const judged = runs.filter((run) => run.length >= 2);
  if (judged.length === 0) {
    const transient = trace.filter((r) => categoryOf(r.answer.body) === 'transient').length;
    return { requirement: ID, verdict: 'not-run', reason: transient === 0 ? 'no request of the client was answered with category transient' : `${transient} transient answer(s), never two retries of one request in a row` };
  }
  for (const run of judged) {
    const waits = run.map((i) => trace[i + 1]!.receivedAtMs - trace[i]!.receivedAtMs);
    const text = waits.map((w) => `${(w / 1000).toFixed(2)} s`).join(', ');
    const shrank = waits.findIndex((w, k) => k > 0 && w + SLACK_MS < waits[k - 1]!);
    if (shrank >= 0) return { requirement: ID, verdict: 'fail', reason: `the waits between retries of a transient failure shrank: ${text}`, at: run[shrank]! + 1 };
    if (waits[waits.length - 1]! < waits[0]! * GROWTH) return { requirement: ID, verdict: 'fail', reason: `the waits between retries of a transient failure did not grow: ${text}`, at: run[run.length - 1]! + 1 };
  }
  return { requirement: ID, verdict: 'pass', reason: `${judged.length} run(s) of transient failures retried with growing waits` };
}
