import { jobPollPath } from '../checks/conversation-job.ts';
import { headersAtMs, integerHeader, receivedAtMs } from '../checks/pool-headers.ts';
import { rowsLeftByRefused, spanMs, type LedgerCount, type RefusedBatch, type RefusedTrial } from '../checks/rate-limit-ledger.ts';
import { isRefusal, isServed } from '../checks/rate-limit-refusal.ts';
import { sleepUntil, type SendOptions } from '../http/client.ts';
import { WAIT_MARGIN_MS } from '../http/pacer.ts';
import type { Exchange } from '../model/exchange.ts';
import type { Limits, MessageRoute, ResolvedProfile } from '../profile/resolved-profile.ts';
import { LEDGER_PATH, ME_PATH, type Pool } from '../spec-constants.ts';
import { authenticatedRoutes, probeRequest } from './authenticated-routes.ts';
import { countLedgerRows, countLedgerRowsSettled, measureBackground } from './ledger-snapshot.ts';
import type { Session } from './session.ts';
import { sendAll } from './side-by-side.ts';
import { medianRoundTripMs, spendInFlight } from './spend-in-flight.ts';
import { EDGE_MS, RETURN_GRAIN_MS } from '../checks/rolling-window-model.ts';
import { waitingFor } from './wait-notices.ts';

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

/**
 * Fewest requests in flight while a pool is being exhausted; more when the round trip is long or
 * the pool big (lib/suite/spend-in-flight.ts), never more than the profile's pacing.max_in_flight.
 */
const READ_IN_FLIGHT_FLOOR = 16;
const WRITE_IN_FLIGHT_FLOOR = 8;

/**
 * Waits for a pool that another client spent less than a window ago, each up to a window and a
 * margin; a pool still not fresh after them never heals while the run watches (another client
 * keeps spending it).
 */
const HEAL_TRIES = 2;
/** After the instant a pool should have healed, before it is looked at again. */
const HEAL_MARGIN_MS = 250;

/**
 * The pause between a pool's sequence (its early points) and the burst that spends the rest:
 * longer than twice the rolling-window model's grain and edges (lib/checks/rolling-window-model.ts),
 * so that there is an instant, one window after the pause, when the early points are surely back
 * while the burst's are surely not: a request served there beyond the early points, or refused
 * before them, shows a limiter that gives points back otherwise (all at once, one by one, late).
 */
export const STAGED_GAP_MS = 2 * (RETURN_GRAIN_MS + EDGE_MS) + 400;

/**
 * Waits out the staged gap after the last early point's answer headers: the point was counted by
 * then (the model's interval ends there), however long a streamed body runs on after.
 */
async function stagedGap(lastEarly: Exchange): Promise<void> {
  await sleepUntil(headersAtMs(lastEarly) + STAGED_GAP_MS);
}

/**
 * The first refill of a staged spend, on a rolling window: from `atMs` (a window, a grain and the
 * edges after the last early point's answer headers) the early points are surely back, and the
 * burst's surely not until a window less a grain after the staged pause, so the pool serves as
 * many requests as the early points and refuses the next. `count` is one more than the early points.
 */
export function firstRefillOf(run: Pick<PoolRun, 'early'>, windowMs: number): { atMs: number; count: number } {
  return { atMs: Math.max(...run.early.map(headersAtMs)) + windowMs + RETURN_GRAIN_MS + 2 * EDGE_MS, count: run.early.length + 1 };
}

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
  /** The requests of the sequence sent before the staged pause: the points the first refill gives back. */
  early: Exchange[];
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
  /**
   * Looks at the pool that found it not fresh (another client spent it less than a window ago),
   * each followed by a wait for it to heal; empty when the first look found it fresh.
   */
  stale: Exchange[];
  /** Time spent waiting for the pool to heal before its sequence began. */
  healWaitedMs: number;
  /** Requests kept in flight during the burst, sized from the round trip, the limit and the window. */
  inFlight: number;
  /** The median round trip of the sequence, which sized the burst. */
  roundTripMs: number;
}

export interface ReadRun extends PoolRun {
  head: Exchange;
  /** A ledger request with `to` before `from`, which §4.1 rule 2 answers 400. */
  provoked400: Exchange;
}

export interface WriteRun extends PoolRun {
  route: MessageRoute;
  /**
   * The first POST once the read pool of the same token was spent: the write pool's last point by
   * its own count (the burst spent the rest beside the read pool's spend, WriteAhead).
   */
  afterReadSpent: Exchange;
  /** The POSTs after the first two (whose brackets measured rows per message), counted in the ledger before and after. */
  batch: RefusedBatch;
}

export interface Campaign {
  limits: Limits;
  read: ReadRun;
  write: WriteRun | { skipped: string };
}

export type CampaignOutcome = Campaign | { skipped: string };

/**
 * The longest a campaign may take: the waits for both pools to heal, then spending them, which a
 * slow target stretches to a window at most before points come back anyway.
 */
export function campaignBudgetMs(windowMs: number): number {
  return HEAL_TRIES * (windowMs + WAIT_MARGIN_MS + HEAL_MARGIN_MS) + windowMs + 60_000;
}

function lastReceived(exchanges: readonly Exchange[]): Exchange | undefined {
  let best: Exchange | undefined;
  for (const e of exchanges) if (best === undefined || receivedAtMs(e) >= receivedAtMs(best)) best = e;
  return best;
}

/** Sends `count` copies of one request, `concurrency` at a time, and returns them in the order they were sent. */
function sendMany(s: Session, count: number, concurrency: number, request: SendOptions): Promise<Exchange[]> {
  return sendAll(s.client, new Array<SendOptions>(count).fill(request), concurrency);
}

/** How a burst spends a pool: its name, and the requests kept in flight, sized from the round trip. */
interface BurstPace {
  pool: Pool;
  inFlight: number;
  roundTripMs: number;
}

/**
 * Spends what is left of a pool and goes `extra` beyond it, then keeps going in small batches
 * until the pool refuses (a pool that serves more than it says is what limit-enforced reports),
 * never sending more than the limit and a tenth. A long spend (a far target, a big pool) says
 * how long it has left, like any wait.
 */
async function exhaust(s: Session, limit: number, last: Exchange, extra: number, pace: BurstPace, request: SendOptions): Promise<Exchange[]> {
  const left = integerHeader(last, 'x-ratelimit-remaining') ?? limit;
  const cap = limit + Math.ceil(limit / 10) + extra;
  const count = Math.min(cap, Math.max(1, left + extra));
  const what = `the ${pace.pool} pool of the ${EXHAUSTED_ROLE} token to be spent (${count} requests, ${pace.inFlight} in flight)`;
  const dueMs = Date.now() + (count * pace.roundTripMs) / pace.inFlight;
  const sent = await waitingFor(s.context.transcriptFile, what, dueMs, sendMany(s, count, pace.inFlight, request));
  const step = Math.max(1, Math.ceil(limit / 20));
  while (!sent.some(isRefusal) && sent.length < cap && sent.every((e) => e.response !== undefined)) {
    sent.push(...(await sendMany(s, Math.min(step, cap - sent.length), pace.inFlight, request)));
  }
  return sent;
}

/**
 * Refused forms sent round after round while the write pool is still spent, the ledger counted
 * around them, then other clients' rows measured over a pause twice as long (§8.1 rule 5 on a
 * ledger others write to).
 */
async function refusedTrial(s: Session, forms: readonly SendOptions[], inFlight: number): Promise<RefusedTrial> {
  const before = await countLedgerRows(s.client);
  const posts = await sendAll(s.client, Array.from({ length: TRIAL_ROUNDS }, () => forms).flat(), inFlight);
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

/**
 * A pool whose first answer shows points spent by someone else, or a 429: a count from it would
 * not start at its limit. A Remaining of the limit or more is no spent pool but a count that is
 * off (its own checks report it): waiting would not change it.
 */
function notFresh(look: Exchange, limit: number): boolean {
  const remaining = integerHeader(look, 'x-ratelimit-remaining');
  return isRefusal(look) || (isServed(look) && remaining !== undefined && remaining < limit - 1);
}

/**
 * When a pool at rest is whole again: a rolling window gives every point back one window after it
 * was spent, and the look just sent is the latest point spent, so one window after it (later when
 * the pool's own Reset, a plausible one, says so).
 */
function healsAtMs(look: Exchange, windowMs: number): number {
  const received = receivedAtMs(look);
  const reset = integerHeader(look, 'x-ratelimit-reset');
  const resetMs = reset === undefined ? undefined : reset * 1000;
  const plausible = resetMs !== undefined && resetMs > received && resetMs <= received + windowMs + WAIT_MARGIN_MS ? resetMs : 0;
  return Math.max(received + windowMs, plausible) + HEAL_MARGIN_MS;
}

/** The first request to each pool of a campaign, which found it fresh, and the looks before that did not. */
interface Looks {
  read: Exchange;
  write?: Exchange;
  stale: { read: Exchange[]; write: Exchange[] };
  healWaitedMs: number;
}

function describeStale(pool: Pool, look: Exchange, limit: number): string {
  return `the ${pool} pool (Remaining ${integerHeader(look, 'x-ratelimit-remaining') ?? 'absent'} of ${limit})`;
}

/**
 * The first request to each pool, which must find it fresh for the pool to be counted from its
 * limit. When another client spent one less than a window ago (a run just before this one), waits
 * for both to heal, saying so with a countdown, and looks at both again (a look spends a point
 * too): a few tries at most, each a window and a margin.
 */
async function freshLooks(s: Session, limits: Limits, read: SendOptions, write: SendOptions | undefined): Promise<Looks> {
  const windowMs = limits.windowS * 1000;
  const stale: Looks['stale'] = { read: [], write: [] };
  const started = Date.now();
  for (let tries = 0; ; tries++) {
    // Side by side: the pools are separate, and each look is the first point its pool is charged.
    const [readLook, writeLook] = await Promise.all([s.client.send(read), write === undefined ? undefined : s.client.send(write)]);
    const spent = [
      ...(notFresh(readLook, limits.read) ? [describeStale('read', readLook, limits.read)] : []),
      ...(writeLook !== undefined && notFresh(writeLook, limits.write) ? [describeStale('write', writeLook, limits.write)] : []),
    ];
    if (spent.length === 0 || tries === HEAL_TRIES) {
      const healWaitedMs = tries === 0 ? 0 : Date.now() - started;
      s.pacer.noteWait('recovery', healWaitedMs);
      return { read: readLook, ...(writeLook === undefined ? {} : { write: writeLook }), stale, healWaitedMs };
    }
    stale.read.push(readLook);
    if (writeLook !== undefined) stale.write.push(writeLook);
    const at = Math.max(healsAtMs(readLook, windowMs), writeLook === undefined ? 0 : healsAtMs(writeLook, windowMs));
    const what = `${spent.join(' and ')} of the ${EXHAUSTED_ROLE} token to heal: spent less than a window ago, by another client or run`;
    await waitingFor(s.context.transcriptFile, what, at, sleepUntil(at));
  }
}

/** Requests to keep in flight to spend what is left of a pool, from the round trips of its sequence. */
function paceOf(s: Session, pool: Pool, sequence: readonly Exchange[], limit: number, extra: number, floor: number): BurstPace {
  const roundTripMs = medianRoundTripMs(sequence);
  const left = integerHeader(sequence[sequence.length - 1]!, 'x-ratelimit-remaining') ?? limit;
  const inFlight = spendInFlight({ requests: left + extra, roundTripMs, windowMs: s.context.profile.limits.windowS * 1000, floor, cap: s.context.profile.pacing.maxInFlight });
  return { pool, inFlight, roundTripMs };
}

/** GET /me with the exhausted token: the read pool's look and most of its spend. */
const ME: SendOptions = { path: ME_PATH, token: EXHAUSTED_ROLE, unpaced: true };

async function runReads(s: Session, limits: Limits, looks: Looks, writesCounted: Promise<unknown>): Promise<ReadRun> {
  // A one-row page of the default window: a ledger request the pool serves (§4.1).
  const ledger: SendOptions = { path: LEDGER_PATH, query: { limit: 1 }, token: EXHAUSTED_ROLE, unpaced: true };
  const sequence: Exchange[] = [looks.read];
  // The primary token's read before the pool is spent, beside the sequence (it charges another
  // token), once the write pool's early points have counted the ledger with that token: the
  // count from it to the read after the spend is the primary's own request only.
  const primaryBeforeSent = writesCounted.then(() => s.client.send({ path: ME_PATH, token: 'primary' }));
  // Awaited below; settled here too, so that a send of the sequence that throws leaves no rejection unhandled.
  primaryBeforeSent.catch(() => undefined);
  sequence.push(await s.client.send(ME));
  const head = await s.client.send({ ...ME, method: 'HEAD' });
  sequence.push(head);
  // > When `to` is earlier than `from`, the response is 400.
  const provoked400 = await s.client.send({ path: LEDGER_PATH, query: { from: '2024-01-02', to: '2024-01-01' }, token: EXHAUSTED_ROLE, unpaced: true });
  sequence.push(provoked400);
  sequence.push(await s.client.send(ledger));
  sequence.push(await s.client.send(ME));
  const primaryBefore = await primaryBeforeSent;
  // The staged pause: the sequence's points come back a window later, before the burst's.
  await stagedGap(sequence[sequence.length - 1]!);
  const pace = paceOf(s, 'read', sequence, limits.read, 1, READ_IN_FLIGHT_FLOOR);
  const burst = await exhaust(s, limits.read, sequence[sequence.length - 1]!, 1, pace, ME);
  // > 429 | Error envelope, with rate-limit headers and `Retry-After`.  (the ledger's own 429)
  // And the job poll, a read too (§8.1 rule 3): of an id no job has, since a server that checks
  // its pool first refuses it like any read, and one that looks the job up first answers 404,
  // which the run-wide rules leave to the server's order.
  const poll = s.context.profile.messages.async?.poll;
  const pollRefusal: SendOptions[] = poll === undefined ? [] : [{ path: jobPollPath(poll, 'job_asi_conformance_read_pool_probe'), token: EXHAUSTED_ROLE, unpaced: true }];
  // All at once, the primary token's read after the spend beside them: each 429 is a 429 whatever the order.
  const [routeRefusals, primaryAfter] = await Promise.all([
    sendAll(s.client, [ledger, ...pollRefusal], pace.inFlight),
    s.client.send({ path: ME_PATH, token: 'primary', unpaced: true }),
  ]);
  const charged = [...sequence, ...burst, ...routeRefusals];
  const refusal = lastReceived([...burst, ...routeRefusals].filter(isRefusal));
  return {
    pool: 'read',
    sequence,
    early: [...sequence],
    burst,
    routeRefusals,
    charged,
    head,
    provoked400,
    primaryBefore,
    primaryAfter,
    stale: looks.stale.read,
    healWaitedMs: looks.healWaitedMs,
    inFlight: pace.inFlight,
    roundTripMs: pace.roundTripMs,
    ...(refusal === undefined ? {} : { refusal }),
  };
}

/** The message POSTs the write pool is probed with: the first route plain, the other routes, the streamed form. */
function writeForms(routes: readonly MessageRoute[]): { post: SendOptions; others: SendOptions[]; streamed: SendOptions } {
  const route = routes[0]!;
  const post: SendOptions = { method: 'POST', path: route.path, json: route.body, token: EXHAUSTED_ROLE, unpaced: true };
  const others = routes.slice(1, MAX_ROUTES).map((r): SendOptions => ({ ...post, path: r.path, json: r.body }));
  return { post, others, streamed: { ...post, headers: { accept: 'text/event-stream' } } };
}

/**
 * Every route (up to MAX_ROUTES) in every form the profile declares (REST, stream by Accept,
 * stream by `stream: true`, job mode) as the exhausted token's unpaced POSTs, `except` the one
 * form the burst itself sends.
 */
function messageForms(profile: ResolvedProfile, except: SendOptions): SendOptions[] {
  const routes = { ...profile, messages: { ...profile.messages, routes: profile.messages.routes.slice(0, MAX_ROUTES) } };
  return authenticatedRoutes(routes)
    .filter((r) => r.method === 'POST' && !(r.form === 'rest' && r.path === except.path))
    .map((r) => ({ ...probeRequest(r), token: EXHAUSTED_ROLE, unpaced: true }));
}

/** The write pool's first look: the first of its forms (the sequence goes on with the rest, earlyWrites). */
function writeLookOf(routes: readonly MessageRoute[]): SendOptions | undefined {
  if (routes.length === 0) return undefined;
  const { others, streamed } = writeForms(routes);
  return others[0] ?? streamed;
}

/** The write pool's first two POSTs, each between two counts of the ledger. */
interface Brackets {
  first: Bracket;
  second: Bracket;
}

/**
 * The first two plain POSTs each between two counts: on a ledger others write to, one of them may
 * catch another client's row, rarely both. Sent beside the read pool's spend, right after the
 * look (whose row is in by then): the points they spend are among the first the write pool gets
 * back, and the replay at the end of the run waits for them.
 */
async function writeBrackets(s: Session, post: SendOptions): Promise<Brackets> {
  const first = await bracketed(s, post, await countLedgerRows(s.client));
  const second = await bracketed(s, post, first.after);
  return { first, second };
}

/** The write pool's early points: the look, the brackets and the other forms, and the count the batch starts from. */
interface EarlyWrites {
  brackets: Brackets;
  /** The look, the brackets' POSTs, then the other routes and the streamed form, one after another. */
  early: Exchange[];
  /** The count of the ledger once their rows are in. */
  after: LedgerCount;
  primaryBefore: Exchange;
}

/**
 * The write pool's early points, sent beside the read pool's sequence and pause: after the look
 * and the brackets, the other routes and the streamed form (the plain POST once more when the
 * look was the only other form), one after another so that the pool's Remaining counts down over
 * them, then a count of the ledger once their rows are in, which the refused batch starts from,
 * and the primary token's POST before the burst.
 */
async function earlyWrites(s: Session, routes: readonly MessageRoute[], looks: Looks, bracketsSent: Promise<Brackets>): Promise<EarlyWrites> {
  const { post, others, streamed } = writeForms(routes);
  const brackets = await bracketsSent;
  const { first, second } = brackets;
  const bracket = smallerBracket(first.rows, second.rows);
  const forms = [...others, streamed].slice(1);
  const rest = await sendAll(s.client, forms.length > 0 ? forms : [post], 1);
  const early = [looks.write!, first.exchange, second.exchange, ...rest];
  const restRows = rest.filter(isServed).length * (bracket ?? 0);
  const after = second.after.ok ? await countLedgerRowsSettled(s.client, second.after.rows + restRows) : await countLedgerRows(s.client);
  const primaryBefore = await s.client.send({ ...post, token: 'primary', unpaced: false });
  return { brackets, early, after, primaryBefore };
}

/** Most of the write pool's burst, sent beside the read pool's spend, and the pace of the whole burst. */
interface WriteAhead {
  sent: Exchange[];
  pace: BurstPace;
}

/**
 * Most of the write pool's burst, sent beside the read pool's spend once the staged pause after the
 * early points is over: all but one of the points the last early answer said were left (none when
 * it said no number). A big read pool or a far target takes seconds to spend, and a write burst
 * that waited for it would push back the return of its points, and the run's end, as much (6,000
 * reads 200 ms away: 3.5 s). The point left is for the POST sent once the read pool refused.
 */
async function writeAhead(s: Session, limits: Limits, routes: readonly MessageRoute[], writes: EarlyWrites): Promise<WriteAhead> {
  const { post } = writeForms(routes);
  const last = writes.early[writes.early.length - 1]!;
  await stagedGap(last);
  const pace = paceOf(s, 'write', writes.early, limits.write, 1 + EXTRA_REFUSED_POSTS, WRITE_IN_FLIGHT_FLOOR);
  const left = integerHeader(last, 'x-ratelimit-remaining');
  const count = left === undefined ? 0 : Math.max(0, Math.min(limits.write, left) - 1);
  if (count === 0) return { sent: [], pace };
  const what = `the write pool of the ${EXHAUSTED_ROLE} token to be spent but one point (${count} requests, ${pace.inFlight} in flight)`;
  const sent = await waitingFor(s.context.transcriptFile, what, Date.now() + (count * pace.roundTripMs) / pace.inFlight, sendMany(s, count, pace.inFlight, post));
  return { sent, pace };
}

/**
 * The rest of the write pool, once the read pool of the same token is spent: a plain POST (the
 * first once the read pool refused, on the point WriteAhead left), then message POSTs beyond the
 * pool; the job mode only once the pool refuses, since a job may record its row when it ends.
 */
async function runWrites(s: Session, limits: Limits, routes: readonly MessageRoute[], looks: Looks, writes: EarlyWrites, ahead: WriteAhead): Promise<WriteRun> {
  const route = routes[0]!;
  const { post } = writeForms(routes);
  const { brackets, early, after, primaryBefore } = writes;
  const bracket = smallerBracket(brackets.first.rows, brackets.second.rows);
  const afterReadSpent = await s.client.send(post);
  const { pace } = ahead;
  const burst = [...ahead.sent, afterReadSpent, ...(await exhaust(s, limits.write, afterReadSpent, EXTRA_REFUSED_POSTS, pace, post))];
  // A refused POST has done no work in any form (§8.1 rule 5): every route in every form the
  // profile declares, the burst's own form aside. All at once: each is refused whatever the order,
  // and a far target answers them in one round trip.
  const everyForm = messageForms(s.context.profile, post);
  const routeRefusals = await sendAll(s.client, everyForm, pace.inFlight);
  const primaryAfter = await s.client.send({ ...post, token: 'primary' });
  // Every POST between the counts, the primary token's among them: their served rows are expected.
  const posts = [primaryBefore, ...burst, ...routeRefusals, primaryAfter];
  const servedRows = posts.filter(isServed).length * (bracket ?? 0);
  const afterBatch = after.ok ? await countLedgerRowsSettled(s.client, after.rows + servedRows) : await countLedgerRows(s.client);
  const rowsPerMessage = rowsPerMessageOf(bracket, posts, after, afterBatch);
  const batch: RefusedBatch = { rowsPerMessage, posts, before: after, after: afterBatch };
  // Rows the served POSTs do not explain: refused work, or other clients' rows; a trial tells which.
  const unexplained = rowsLeftByRefused(batch);
  if (unexplained !== undefined && unexplained > 0 && rowsPerMessage !== undefined && rowsPerMessage > 0) batch.trial = await refusedTrial(s, [post, ...everyForm], pace.inFlight);
  const refusal = lastReceived([...burst, ...routeRefusals].filter(isRefusal));
  return {
    pool: 'write',
    route,
    sequence: early,
    early,
    burst,
    routeRefusals,
    charged: [...early, ...burst, ...routeRefusals],
    ...(refusal === undefined ? {} : { refusal }),
    primaryBefore,
    primaryAfter,
    afterReadSpent,
    stale: looks.stale.write,
    healWaitedMs: looks.healWaitedMs,
    inFlight: pace.inFlight,
    roundTripMs: pace.roundTripMs,
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
  const { routes } = s.context.profile.messages;
  const looks = await freshLooks(s, limits, ME, writeLookOf(routes));
  const brackets = routes.length === 0 ? undefined : writeBrackets(s, writeForms(routes).post);
  // The write pool's early points go beside the read pool's sequence and pause, and its own pause
  // beside the read burst: staging both pools costs the run no more than one pause.
  const early = brackets === undefined ? undefined : earlyWrites(s, routes, looks, brackets);
  // Settled here too, so that a read spend that throws leaves no rejection unhandled.
  brackets?.catch(() => undefined);
  early?.catch(() => undefined);
  // Most of the write pool's burst goes beside the read pool's spend, once its own pause is over.
  const ahead = early?.then((writes) => writeAhead(s, limits, routes, writes));
  ahead?.catch(() => undefined);
  const read = await runReads(s, limits, looks, early ?? Promise.resolve());
  const write =
    early === undefined || ahead === undefined
      ? { skipped: 'the profile configures no message route (messages.routes) to spend the write pool with' }
      : await runWrites(s, limits, routes, looks, await early, await ahead);
  return { limits, read, write };
}
