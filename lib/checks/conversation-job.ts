import type { Exchange } from '../model/exchange.ts';
import { fail, inconclusive, pass, type Finding } from '../model/finding.ts';
import { JOB_POLL_MAX_MS, JOB_POLL_START_MS } from '../spec-constants.ts';
import { conversationResponseProblems, describeValue } from './conversation-response.ts';
import { describeResponse, isObject, jsonBody } from './json-body.ts';
import { integerHeader, poolHeaderFinding } from './pool-headers.ts';
import { exchangeLabel } from './rate-limit-headers.ts';
import { judged } from './judged.ts';

export const ASYNC_JOB = 'conversation/1/async-job';
export const JOB_POST_WRITE_POOL = 'conversation/8.1/job-post-write-pool';
export const JOB_POLL_READ_POOL = 'conversation/8.1/job-poll-read-pool';
export const JOB_OUTCOME = 'conversation/4.3/job-outcome';

/** Polls the harness sends at most for one job (1+2+4+5+5+5 s of waiting: about 22 s). */
export const JOB_MAX_POLLS = 6;

/**
 * The waits before each poll, as §8.1 recommends: "poll async jobs with a backoff starting at 1
 * second and doubling up to 5 seconds".
 */
export function jobPollDelaysMs(polls = JOB_MAX_POLLS): number[] {
  const delays: number[] = [];
  for (let i = 0, d = JOB_POLL_START_MS; i < polls; i++, d = Math.min(d * 2, JOB_POLL_MAX_MS)) delays.push(d);
  return delays;
}

export interface Pools {
  read: number;
  write: number;
  windowS: number;
}

/** Resolves an RFC 6901 JSON pointer (`/job_id`, `/data/id`) in a value. */
export function resolvePointer(value: unknown, pointer: string): { found: true; value: unknown } | { found: false } {
  if (pointer === '') return { found: true, value };
  if (!pointer.startsWith('/')) return { found: false };
  let current = value;
  for (const raw of pointer.slice(1).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(current) && /^(0|[1-9][0-9]*)$/.test(key)) current = current[Number(key)];
    else if (isObject(current) && Object.hasOwn(current, key)) current = current[key];
    else return { found: false };
    if (current === undefined) return { found: false };
  }
  return { found: true, value: current };
}

export type JobIdResult = { ok: true; id: string } | { ok: false; why: string };

/** The job id a creating POST answered with, at the profile's pointer: a non-empty string or a number. */
export function jobIdOf(exchange: Exchange, pointer: string): JobIdResult {
  const res = exchange.response;
  if (res === undefined) return { ok: false, why: describeResponse(exchange) };
  if (res.status < 200 || res.status > 299) return { ok: false, why: `HTTP ${res.status}: ${describeResponse(exchange)}` };
  const body = jsonBody(exchange);
  if (!body.ok) return { ok: false, why: body.why };
  const at = resolvePointer(body.value, pointer);
  if (!at.found) return { ok: false, why: `nothing at the JSON pointer ${pointer} of ${describeValue(body.value)}` };
  if (typeof at.value === 'number' && Number.isFinite(at.value)) return { ok: true, id: String(at.value) };
  if (typeof at.value === 'string' && at.value !== '') return { ok: true, id: at.value };
  return { ok: false, why: `the value at ${pointer} is ${describeValue(at.value)}, not a job id (a non-empty string or a number)` };
}

/** §8.1 rule 3: the creating POST is a write. */
export const jobPostPoolFinding = judged('conversation-job/jobPostPoolFinding', function jobPostPoolFinding(exchange: Exchange, pools: Pools): Finding {
  // > The POST that created the job uses the write pool.
  return poolHeaderFinding(JOB_POST_WRITE_POOL, exchange, { pool: 'write', limit: pools.write, windowS: pools.windowS });
});

export type JobState = 'pending' | 'finished' | 'unknown';

const PENDING = new Set(['queued', 'pending', 'running', 'in_progress', 'processing', 'started', 'accepted', 'created']);
const FINISHED = new Set(['completed', 'complete', 'succeeded', 'success', 'done', 'finished', 'failed', 'failure', 'error', 'errored', 'cancelled', 'canceled', 'expired']);

/**
 * The state a poll shows, read generously: the spec does not show the payload (§4.3), so a
 * `status` or `state` word, or a conversation response at the top or under a common key, is taken
 * as a sign. An unrecognised payload is `unknown` and polling goes on to its budget.
 */
export function jobStateOf(exchange: Exchange): { state: JobState; shown?: string } {
  const body = jsonBody(exchange);
  if (!body.ok || !isObject(body.value)) return { state: 'unknown' };
  const v = body.value;
  for (const key of ['status', 'state']) {
    const word = v[key];
    if (typeof word !== 'string') continue;
    const w = word.toLowerCase();
    if (FINISHED.has(w)) return { state: 'finished', shown: `${key} "${word}"` };
    if (PENDING.has(w)) return { state: 'pending', shown: `${key} "${word}"` };
  }
  for (const key of ['', '/result', '/response', '/output', '/data']) {
    const at = resolvePointer(v, key);
    if (at.found && conversationResponseProblems(at.value).length === 0) return { state: 'finished', shown: `a conversation response at ${key === '' ? 'the top' : key}` };
  }
  return { state: 'unknown' };
}

/**
 * Findings of one job's polls: every poll answers 2xx (the job exists for its creator), every
 * poll is charged to the read pool, and the state the job reached (INFO).
 */
export const jobPollFindings = judged('conversation-job/jobPollFindings', function jobPollFindings(polls: readonly Exchange[], pools: Pools): Finding[] {
  const first = polls[0];
  if (first === undefined) {
    const why = 'no poll was sent';
    return [inconclusive(ASYNC_JOB, why), inconclusive(JOB_POLL_READ_POOL, why), inconclusive(JOB_OUTCOME, why)];
  }
  const findings: Finding[] = [];
  const bad = polls.find((p) => p.response === undefined || p.response.status < 200 || p.response.status > 299);
  // > An asynchronous message-job mode also exists: a POST creates a job and a GET polls it.
  findings.push(
    bad === undefined
      ? pass(ASYNC_JOB, [...polls])
      : fail(ASYNC_JOB, 'a 2xx answer to every poll of the job just created', `poll ${polls.indexOf(bad) + 1}: ${describeResponse(bad)}`, [bad]),
  );
  // > Polling an async message job is a GET and uses the read pool.
  const pool = polls.map((p) => poolHeaderFinding(JOB_POLL_READ_POOL, p, { pool: 'read', limit: pools.read, windowS: pools.windowS }));
  findings.push(pool.find((f) => f.verdict === 'fail') ?? overchargedPoll(polls) ?? pass(JOB_POLL_READ_POOL, [...polls], `${polls.length} poll(s), each charged to the read pool`));
  const last = polls[polls.length - 1]!;
  const seen = jobStateOf(last);
  const note =
    seen.state === 'finished'
      ? `finished after ${polls.length} poll(s): ${seen.shown}`
      : seen.state === 'pending'
        ? `still pending after ${polls.length} poll(s) (${seen.shown})`
        : `after ${polls.length} poll(s) the payload shows no recognisable state: ${describeResponse(last).slice(0, 160)}`;
  findings.push(
    seen.state === 'finished' ? pass(JOB_OUTCOME, [last], note) : { requirement: JOB_OUTCOME, verdict: 'warn', note, exchanges: [last] },
  );
  return findings;
});

/**
 * > Each request consumes one point from the pool matching its method.
 * Between two sequential polls of one token, Remaining drops by at most one (less when points came
 * back as the window rolled on): a larger drop charged a poll more than one point.
 */
function overchargedPoll(polls: readonly Exchange[]): Finding | undefined {
  for (let i = 1; i < polls.length; i++) {
    const a = polls[i - 1]!;
    const b = polls[i]!;
    const ra = integerHeader(a, 'x-ratelimit-remaining');
    const rb = integerHeader(b, 'x-ratelimit-remaining');
    if (ra === undefined || rb === undefined || ra - rb <= 1) continue;
    return fail(JOB_POLL_READ_POOL, 'one read point per poll: X-RateLimit-Remaining down by one at most between sequential polls', `${ra} then ${rb} on ${exchangeLabel(a)}, ${exchangeLabel(b)}`, [a, b]);
  }
  return undefined;
}

/** The async-job finding when the creating POST gave no job id to poll. */
export const jobNotCreatedFindings = judged('conversation-job/jobNotCreatedFindings', function jobNotCreatedFindings(post: Exchange, why: string): Finding[] {
  return [
    fail(ASYNC_JOB, 'a 2xx answer carrying a job id at the configured JSON pointer', why, [post]),
    inconclusive(JOB_POLL_READ_POOL, 'no job to poll', [post]),
    inconclusive(JOB_OUTCOME, 'no job to poll', [post]),
  ];
});

/** The poll path for a job: the profile's template with `{job_id}` filled, percent-encoded. */
export function jobPollPath(template: string, jobId: string): string {
  return template.replaceAll('{job_id}', encodeURIComponent(jobId));
}
