import { JOB_PATH_PREFIX } from '../client-grading/stream-turn.ts';
import { pathOf, poolOf, type ClientJudgement, type TracedRequest } from './client-trace.ts';

const ID = 'client/8.1/poll-cadence';

/** The recommended waits: 1 s, doubling, at most 5 s. */
function recommendedMs(poll: number): number {
  return Math.min(5_000, 1_000 * 2 ** poll);
}
/** A wait counts as the recommended one down to this share of it (timers fire late, never early, but clocks step). */
const TOLERANCE = 0.9;

function jobIdOf(body: string): string | undefined {
  try {
    const parsed = JSON.parse(body) as { job_id?: unknown };
    return typeof parsed.job_id === 'string' ? parsed.job_id : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Recommended client behaviour: the first poll of a job about 1 s after the POST that created it,
 * each next wait doubling up to 5 s; polls are GETs (§8.1 rule 3: the read pool). Waits longer
 * than recommended are within it: only polling too soon breaks it.
 */
// > poll async jobs with a backoff starting at 1 second and doubling up to 5 seconds
export function judgePollCadence(trace: readonly TracedRequest[]): ClientJudgement {
  const created = trace.findIndex((r) => r.method === 'POST' && r.answer.status === 202 && jobIdOf(r.answer.body) !== undefined);
  if (created < 0) return { requirement: ID, verdict: 'not-run', reason: 'no message POST of the client was answered 202 with a job' };
  const id = jobIdOf(trace[created]!.answer.body)!;
  let previous = created;
  let polls = 0;
  for (let i = created + 1; i < trace.length; i++) {
    const r = trace[i]!;
    if (pathOf(r.target) !== `${JOB_PATH_PREFIX}${id}`) continue;
    // > Polling an async message job is a GET and uses the read pool.
    if (poolOf(r.method) !== 'read') return { requirement: ID, verdict: 'fail', reason: `the job was polled with ${r.method}, not GET`, at: i };
    const waitedMs = r.receivedAtMs - trace[previous]!.receivedAtMs;
    const wantMs = recommendedMs(polls);
    if (waitedMs < wantMs * TOLERANCE) {
      return { requirement: ID, verdict: 'fail', reason: `poll ${polls + 1} came ${(waitedMs / 1000).toFixed(2)} s after the ${polls === 0 ? 'POST' : 'poll before'}; recommended ${wantMs / 1000} s`, at: i };
    }
    polls += 1;
    previous = i;
  }
  if (polls === 0) return { requirement: ID, verdict: 'not-run', reason: 'the client never polled the job it created' };
  return { requirement: ID, verdict: 'pass', reason: `${polls} poll(s) by GET, each at least the recommended wait (1 s, doubling, up to 5 s) after the one before` };
}
