import { integerHeader, receivedAtMs } from '../checks/pool-headers.ts';
import { rowsLeftByRefused, spanMs, type LedgerCount, type RefusedBatch, type RefusedTrial } from '../checks/rate-limit-ledger.ts';
import { isRefusal, isServed } from '../checks/rate-limit-refusal.ts';
import type { SendOptions } from '../http/client.ts';
import type { Exchange } from '../model/exchange.ts';
import type { AsyncJobSettings, Limits, MessageRoute } from '../profile/resolved-profile.ts';
import { LEDGER_PATH, ME_PATH, type Pool } from '../spec-constants.ts';
import { countLedgerRows, countLedgerRowsSettled, measureBackground } from './ledger-snapshot.ts';
import type { Session } from './session.ts';

/** The token the rate-limit suites exhaust; no other area may count on its budget during a run. */
export const EXHAUSTED_ROLE = 'secondary';

/** Message POSTs sent beyond the write pool, to be refused and replayed later. */
export const EXTRA_REFUSED_POSTS = 3;

/**
 * Rounds of the refused trial: each sends every refused form once (plain, streamed, the other
 * routes, the job mode), so a form that does work when refused leaves this many rows, enough to
 * stand out of other clients' rows over the trial's short span.
 */
const TRIAL_ROUNDS = 8;

/** Served POSTs from which rows per message can be read off the batch when the first bracket read high. */
const RATE_FROM_BATCH_MIN = 10;

/** Requests in flight at once while a pool is being exhausted. */
const READ_CONCURRENCY = 16;
const WRITE_CONCURRENCY = 8;

/** Message routes the write pool is probed on (as the conversation suites do). */
const MAX_ROUTES = 3;

/** What exhausting one pool of the secondary token showed. */
export interface PoolRun {
  pool: Pool;
  /**
   * Sequential requests at the start, each answered before the next was sent: one on every
   * route and form the pool serves, so each is seen to spend exactly one point.
   */
  sequence: Exchange[];
  /** The concurrent requests that spent the rest of the pool and went beyond it. */
  burst: Exchange[];
  /** Once the pool refused: one request on each other route and form, each to be refused in turn. */
  routeRefusals: Exchange[];
  /** Every request charged to the pool since it was fresh, in the order sent. */
  charged: Exchange[];
  /** The 429 received last, the one later probes time themselves against. */
  refusal?: Exchange;
  /** The primary token on the same pool, before the secondary's burst and after its refusals (§5.5). */
  primaryBefore: Exchange;
  primaryAfter: Exchange;
}

export interface ReadRun extends PoolRun {
  head: Exchange;
  /** A ledger request with `to` before `from`, which §4.1 rule 2 answers 400. */
  provoked400: Exchange;
}

export interface WriteRun extends PoolRun {
  route: MessageRoute;
  /** The POSTs after the first two (whose brackets measured rows per message), counted in the ledger before and after. */
  batch: RefusedBatch;
}

export interface Campaign {
  limits: Limits;
  read: ReadRun;
  write: WriteRun | { skipped: string };
}

export type CampaignOutcome = Campaign | { skipped: string };

function lastReceived(exchanges: readonly Exchange[]): Exchange | undefined {
  let best: Exchange | undefined;
  for (const e of exchanges) if (best === undefined || receivedAtMs(e) >= receivedAtMs(best)) best = e;
  return best;
}

/** Sends `requests`, `concurrency` at a time, and returns them in the order they were sent. */
async function sendAll(s: Session, requests: readonly SendOptions[], concurrency: number): Promise<Exchange[]> {
  const out: Exchange[] = new Array<Exchange>(requests.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < requests.length) {
      const i = next++;
      out[i] = await s.client.send(requests[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, requests.length) }, worker));
  return out;
}

/** Sends `count` copies of one request, `concurrency` at a time, and returns them in the order they were sent. */
function sendMany(s: Session, count: number, concurrency: number, request: SendOptions): Promise<Exchange[]> {
  return sendAll(s, new Array<SendOptions>(count).fill(request), concurrency);
}

/**
 * Spends what is left of a pool and goes `extra` beyond it, then keeps going in small batches
 * until the pool refuses (a pool that serves more than it says is what limit-enforced reports),
 * never sending more than the limit and a tenth.
 */
async function exhaust(s: Session, limit: number, last: Exchange, extra: number, concurrency: number, request: SendOptions): Promise<Exchange[]> {
  const left = integerHeader(last, 'x-ratelimit-remaining') ?? limit;
  const cap = limit + Math.ceil(limit / 10) + extra;
  const sent = await sendMany(s, Math.min(cap, Math.max(1, left + extra)), concurrency, request);
  const step = Math.max(1, Math.ceil(limit / 20));
  while (!sent.some(isRefusal) && sent.length < cap && sent.every((e) => e.response !== undefined)) {
    sent.push(...(await sendMany(s, Math.min(step, cap - sent.length), concurrency, request)));
  }
  return sent;
}

/**
 * Refused forms sent round after round while the write pool is still spent, the ledger counted
 * around them, then other clients' rows measured over a pause twice as long (§8.1 rule 5 on a
 * ledger others write to).
 */
async function refusedTrial(s: Session, forms: readonly SendOptions[]): Promise<RefusedTrial> {
  const before = await countLedgerRows(s.client);
  const posts = await sendAll(s, Array.from({ length: TRIAL_ROUNDS }, () => forms).flat(), WRITE_CONCURRENCY);
  const after = await countLedgerRows(s.client);
  const background = before.ok && after.ok ? await measureBackground(s.client, spanMs(before, after)) : undefined;
  return { posts, before, after, ...(background === undefined ? {} : { background }) };
}

/** One message POST between two counts of the ledger, and the rows that came with it when it was served. */
interface Bracket {
  exchange: Exchange;
  after: LedgerCount;
  rows: number | undefined;
}

async function bracketed(s: Session, post: SendOptions, before: LedgerCount): Promise<Bracket> {
  const exchange = await s.client.send(post);
  const served = isServed(exchange);
  const after = before.ok && served ? await countLedgerRowsSettled(s.client, before.rows + 1) : await countLedgerRows(s.client);
  return { exchange, after, rows: before.ok && after.ok && served ? after.rows - before.rows : undefined };
}

/** Other clients' rows only ever add to a bracket: of two, the smaller is the nearer to one message's rows. */
function smallerBracket(a: number | undefined, b: number | undefined): number | undefined {
  if (a === undefined) return b;
  return b === undefined ? a : Math.min(a, b);
}

/**
 * Rows per message read off the batch's many served POSTs, when the brackets read more (other
 * clients' rows landed in both): never more than the brackets said.
 */
function rowsPerMessageOf(bracket: number | undefined, posts: readonly Exchange[], before: LedgerCount, after: LedgerCount): number | undefined {
  const served = posts.filter(isServed).length;
  if (bracket === undefined || !before.ok || !after.ok || served < RATE_FROM_BATCH_MIN) return bracket;
  const fromBatch = Math.floor((after.rows - before.rows) / served);
  return fromBatch >= 1 && fromBatch < bracket ? fromBatch : bracket;
}

async function sendEach(s: Session, requests: readonly SendOptions[]): Promise<Exchange[]> {
  const out: Exchange[] = [];
  for (const request of requests) out.push(await s.client.send(request));
  return out;
}

async function runReads(s: Session, limits: Limits): Promise<ReadRun> {
  const me: SendOptions = { path: ME_PATH, token: EXHAUSTED_ROLE, unpaced: true };
  // A one-row page of the default window: a ledger request the pool serves (§4.1).
  const ledger: SendOptions = { path: LEDGER_PATH, query: { limit: 1 }, token: EXHAUSTED_ROLE, unpaced: true };
  const sequence: Exchange[] = [];
  sequence.push(await s.client.send(me));
  sequence.push(await s.client.send(me));
  const head = await s.client.send({ ...me, method: 'HEAD' });
  sequence.push(head);
  // > When `to` is earlier than `from`, the response is 400.
  const provoked400 = await s.client.send({ path: LEDGER_PATH, query: { from: '2024-01-02', to: '2024-01-01' }, token: EXHAUSTED_ROLE, unpaced: true });
  sequence.push(provoked400);
  sequence.push(await s.client.send(ledger));
  sequence.push(await s.client.send(me));
  const primaryBefore = await s.client.send({ path: ME_PATH, token: 'primary' });
  const burst = await exhaust(s, limits.read, sequence[sequence.length - 1]!, 1, READ_CONCURRENCY, me);
  // > 429 | Error envelope, with rate-limit headers and `Retry-After`.  (the ledger's own 429)
  const routeRefusals = await sendEach(s, [ledger]);
  const primaryAfter = await s.client.send({ path: ME_PATH, token: 'primary', unpaced: true });
  const charged = [...sequence, ...burst, ...routeRefusals];
  const refusal = lastReceived([...burst, ...routeRefusals].filter(isRefusal));
  return { pool: 'read', sequence, burst, routeRefusals, charged, head, provoked400, primaryBefore, primaryAfter, ...(refusal === undefined ? {} : { refusal }) };
}

/**
 * The write pool, spent with message POSTs. The other routes and the streamed form are sent
 * before the ledger's first count (their rows, whenever they land, are then outside every
 * count); the job mode only once the pool refuses, since a job may record its row when it ends.
 */
async function runWrites(s: Session, limits: Limits, routes: readonly MessageRoute[], jobs: AsyncJobSettings | undefined): Promise<WriteRun> {
  const route = routes[0]!;
  const post: SendOptions = { method: 'POST', path: route.path, json: route.body, token: EXHAUSTED_ROLE, unpaced: true };
  const others = routes.slice(1, MAX_ROUTES).map((r): SendOptions => ({ ...post, path: r.path, json: r.body }));
  const streamed: SendOptions = { ...post, headers: { accept: 'text/event-stream' } };
  const sequence = await sendEach(s, [...others, streamed]);
  // The first two POSTs each between two counts: on a ledger others write to, one of them may
  // catch another client's row, rarely both.
  const first = await bracketed(s, post, await countLedgerRows(s.client));
  const second = await bracketed(s, post, first.after);
  const bracket = smallerBracket(first.rows, second.rows);
  sequence.push(first.exchange, second.exchange);
  const after = second.after;
  const primaryBefore = await s.client.send({ ...post, token: 'primary', unpaced: false });
  const burst = await exhaust(s, limits.write, second.exchange, EXTRA_REFUSED_POSTS, WRITE_CONCURRENCY, post);
  // A refused streamed or job-mode POST has done no work either (§8.1 rule 5).
  const jobPost = jobs === undefined ? [] : [{ ...post, json: { ...route.body, ...jobs.body } }];
  const routeRefusals = await sendEach(s, [...others, streamed, ...jobPost]);
  const primaryAfter = await s.client.send({ ...post, token: 'primary' });
  // Every POST between the counts, the primary token's among them: their served rows are expected.
  const posts = [primaryBefore, ...burst, ...routeRefusals, primaryAfter];
  const servedRows = posts.filter(isServed).length * (bracket ?? 0);
  const afterBatch = after.ok ? await countLedgerRowsSettled(s.client, after.rows + servedRows) : await countLedgerRows(s.client);
  const rowsPerMessage = rowsPerMessageOf(bracket, posts, after, afterBatch);
  const batch: RefusedBatch = { rowsPerMessage, posts, before: after, after: afterBatch };
  // Rows the served POSTs do not explain: refused work, or other clients' rows; a trial tells which.
  const unexplained = rowsLeftByRefused(batch);
  if (unexplained !== undefined && unexplained > 0 && rowsPerMessage !== undefined && rowsPerMessage > 0) batch.trial = await refusedTrial(s, [post, streamed, ...others, ...jobPost]);
  const refusal = lastReceived([...burst, ...routeRefusals].filter(isRefusal));
  return {
    pool: 'write',
    route,
    sequence,
    burst,
    routeRefusals,
    charged: [...sequence, ...burst, ...routeRefusals],
    ...(refusal === undefined ? {} : { refusal }),
    primaryBefore,
    primaryAfter,
    batch,
  };
}

/**
 * Exhausts the secondary token's read pool, then its write pool with message POSTs, at the very
 * start of a run: the window that heals them runs while every other suite does its work, and the
 * recovery suite at the end waits only for what is left of it. Every request to the secondary
 * token is unpaced: the 429s are the point.
 */
export async function runCampaign(s: Session): Promise<CampaignOutcome> {
  if (!s.client.hasToken(EXHAUSTED_ROLE)) {
    return { skipped: `${s.context.missingTokens?.[EXHAUSTED_ROLE] ?? `the profile names no ${EXHAUSTED_ROLE} token`}: it is the token the rate-limit suites exhaust` };
  }
  const limits = s.context.profile.limits;
  const read = await runReads(s, limits);
  const { routes, async: jobs } = s.context.profile.messages;
  const write = routes.length === 0 ? { skipped: 'the profile configures no message route (messages.routes) to spend the write pool with' } : await runWrites(s, limits, routes, jobs);
  return { limits, read, write };
}
