import { headersAtMs, receivedAtMs, sentAtMs } from '../checks/pool-headers.ts';
import { spanMs, type Replay } from '../checks/rate-limit-ledger.ts';
import { isLimiterUnavailable } from '../checks/rate-limit-headers.ts';
import { isRefusal, isServed, retryAfterSeconds } from '../checks/rate-limit-refusal.ts';
import { resetPassesAtMs, retryAfterElapsesAtMs, type Probe } from '../checks/rate-limit-retry.ts';
import { sleepUntil, type SendOptions } from '../http/client.ts';
import type { Exchange } from '../model/exchange.ts';
import { ME_PATH } from '../spec-constants.ts';
import type { BackgroundWriteGate } from './background-write-gate.ts';
import { EXHAUSTED_ROLE, EXTRA_REFUSED_POSTS, firstRefillOf, type WriteRun } from './rate-limit-campaign.ts';
import { countLedgerRows, countLedgerRowsSettled, measureBackground } from './ledger-snapshot.ts';
import type { Session } from './session.ts';

/** Margin after a promised instant before a probe goes, so the promise has surely come due. */
const AFTER_MARGIN_MS = 100;
/** How late the probe a second before Retry-After may still go (it has a second for its round trip). */
const HELD_SLACK_MS = 300;
/** Retry-After and Reset closer than this are judged by one probe sent after both. */
const SAME_INSTANT_MS = 1_500;
/**
 * Longest the probes wait past a refusal: a rolling window has given every point back one window
 * after it was spent, so a later promise is already wrong and a probe sent then shows it.
 */
const BEYOND_WINDOW_MS = 10_000;
/**
 * A probe that meets the limiter store down (the limiter drill of another suite may be under way
 * while the probes wait in the background) is sent again this often, this many times: no pool
 * answered it, so it says nothing of the 429 it was timed against.
 */
const STORE_DOWN_PAUSE_MS = 500;
const STORE_DOWN_TRIES = 30;

/**
 * Sends one probe; one that meets the limiter store down is sent again (STORE_DOWN_TRIES times at
 * most, STORE_DOWN_PAUSE_MS apart): no pool answered it.
 */
async function answerOf(s: Session, request: SendOptions): Promise<Exchange> {
  let exchange = await s.client.send(request);
  for (let i = 1; i < STORE_DOWN_TRIES && isLimiterUnavailable(exchange); i++) {
    await new Promise((r) => setTimeout(r, STORE_DOWN_PAUSE_MS));
    exchange = await s.client.send(request);
  }
  return exchange;
}

/** A Reset instant only counts when it is a plausible Unix time in seconds near now (else its own check fails). */
function plausibleResetAt(refusal: Exchange, windowMs: number, clockWitness?: Exchange): number | undefined {
  const at = resetPassesAtMs(refusal, clockWitness);
  const now = receivedAtMs(refusal);
  return at !== undefined && at > now - 5_000 && at < now + windowMs + 5_000 ? at : undefined;
}

/** Harness ms at which a 429's Retry-After has elapsed; a window after it, without one. */
function retryAtMs(refusal: Exchange, windowMs: number): number {
  return retryAfterElapsesAtMs(refusal) ?? receivedAtMs(refusal) + windowMs;
}

/**
 * An instant a 429 promised, as the harness waits for it: no later than a window and
 * BEYOND_WINDOW_MS after the 429, and AFTER_MARGIN_MS past it.
 */
function promisedAtMs(refusal: Exchange, windowMs: number, atMs: number): number {
  return Math.min(atMs, receivedAtMs(refusal) + windowMs + BEYOND_WINDOW_MS) + AFTER_MARGIN_MS;
}

/**
 * Harness ms at which a 429 says its pool serves again: once Retry-After has elapsed, and Reset
 * too when it names about the same instant or a later one (the moment every point is back, after
 * a staged spend), so one request judges both (without Retry-After, a window after the 429). A
 * Reset well before Retry-After has a probe of its own.
 */
function servesAgainAtMs(refusal: Exchange, windowMs: number, clockWitness?: Exchange): number {
  const retryAt = retryAtMs(refusal, windowMs);
  const resetAt = plausibleResetAt(refusal, windowMs, clockWitness);
  return resetAt !== undefined && resetAt + SAME_INSTANT_MS >= retryAt ? Math.max(resetAt, retryAt) : retryAt;
}

/**
 * What the timed probes tell, and wait for, around them: when the next one is due, a drill that
 * has the limiter store down (a probe waits for its end before it goes, and is judged by when it
 * went).
 */
export interface ProbeSchedule {
  nextDue?(atMs: number): void;
  storeUp?(): Promise<void>;
}

/**
 * The first refill of a staged spend (firstRefillOf in lib/suite/rate-limit-campaign.ts): at
 * `atMs` the early points are back and the burst's are not, so `count` requests (one more than
 * the early points) go one after another until one is refused; `sent` collects them, and `timed`
 * the same requests each timed against the latest 429 before it (the first of them is the next
 * request after the burst's 429 when no probe went before it).
 */
export interface RefillProbe {
  atMs: number;
  count: number;
  sent: Exchange[];
  timed: Probe[];
}

/**
 * Requests timed against the read refusal, sent while the other suites run:
 *  - one sent a second before Retry-After says a request can succeed, which must still be refused
 *    (only when Retry-After is 3 s or more: below that the rounding leaves no room);
 *  - one sent when the Reset instant has passed, if Reset comes well before Retry-After;
 *  - one sent once Retry-After has elapsed (and Reset too, when it is not well before), which must be served;
 *    when requests went between (a refill served all through) and it was refused, one more at its own 429's promise;
 *  - with `refill`, the first refill of the staged spend, at its own instant (RefillProbe): timed
 *    too, for Retry-After only (a late refill that is served all through may leave no later 429
 *    to time the other probes against; the Reset check takes the first request after its instant,
 *    which must stay the probe meant for it).
 * Each is timed against the latest 429 received before it. The waits are in the background and
 * overlap the other suites; only the recovery suite waits for what is left.
 */
export async function probeReadRefusal(s: Session, refusal: Exchange, windowMs: number, schedule: ProbeSchedule = {}, refill?: RefillProbe): Promise<Probe[]> {
  const request: SendOptions = { path: ME_PATH, token: EXHAUSTED_ROLE, unpaced: true };
  const latest = receivedAtMs(refusal) + windowMs + BEYOND_WINDOW_MS;
  const sleepFor = async (due: number): Promise<void> => {
    schedule.nextDue?.(due);
    await sleepUntil(due);
    await schedule.storeUp?.();
  };
  const answer = (): Promise<Exchange> => answerOf(s, request);
  const probes: Probe[] = [];
  let basis = refusal;
  let first = true;
  // The first refill goes at its own instant, whatever the 429 said (a limiter that gives the
  // early points back late, or all at once later, names a later instant for itself): before a
  // probe due after it, which is then timed against the refill's own 429, the latest before it.
  let refillPending = refill !== undefined;
  const runRefill = async (): Promise<void> => {
    if (refill === undefined || !refillPending) return;
    refillPending = false;
    await sleepFor(refill.atMs);
    // Each the next request after `basis` until one is served; what follows a served one is not.
    let next = first;
    for (let i = 0; i < refill.count; i++) {
      const exchange = await answer();
      refill.sent.push(exchange);
      refill.timed.push({ exchange, basis, first: next });
      next = isRefusal(exchange);
      if (isRefusal(exchange)) basis = exchange;
      // A served request took a point the 429 before it promised: a probe after it is not the next
      // request, whatever that 429 said (a refill served all through, late on a loaded machine).
      first = next;
      if (!isServed(exchange)) break;
    }
  };
  /** Waits for the instant `dueOf` names from the latest 429, the refill first when it is due before. */
  const waitFor = async (dueOf: () => number): Promise<void> => {
    if (refill !== undefined && refill.atMs < Math.min(dueOf(), latest)) await runRefill();
    await sleepFor(Math.min(dueOf(), latest));
  };
  const send = async (): Promise<Exchange> => {
    const exchange = await answer();
    probes.push({ exchange, basis, first });
    if (isRefusal(exchange)) basis = exchange;
    first = isRefusal(exchange);
    return exchange;
  };
  const seconds = retryAfterSeconds(refusal);
  if (seconds !== undefined && seconds >= 3) {
    const planned = sentAtMs(refusal) + (seconds - 2) * 1000;
    await waitFor(() => planned);
    // Held back by a drill past its moment, its answer might come after Retry-After: left out,
    // the later probes judge the 429; so too when the refill went first (its 429 is the latest).
    if (basis === refusal && Date.now() <= planned + HELD_SLACK_MS) await send();
  }
  const retryAt = (): number => retryAtMs(basis, windowMs);
  // Reset placed by the run's best reading of the target's clock (lib/checks/server-clock.ts), as
  // the recovery suite judges it: up to a second sooner than by the 429's own Date.
  const resetAt = plausibleResetAt(basis, windowMs, s.clockWitness());
  if (resetAt !== undefined && resetAt + SAME_INSTANT_MS < retryAt()) {
    await waitFor(() => resetAt + AFTER_MARGIN_MS);
    await send();
    if (!first) {
      await runRefill();
      return probes;
    }
  }
  const servesAgain = (): number => servesAgainAtMs(basis, windowMs, s.clockWitness()) + AFTER_MARGIN_MS;
  await waitFor(servesAgain);
  await send();
  // Refused after requests that took the points its 429 promised (a refill served all through,
  // late on a loaded machine), it is timed against nothing: one more goes at its own 429's promise.
  if (!probes[probes.length - 1]!.first && first) {
    await waitFor(servesAgain);
    await send();
  }
  await runRefill();
  return probes;
}

/**
 * Every request of the read pool timed against one of its 429s, in the order sent: the probes and
 * the first refill's. A refill held late (by the limiter drill, or a loaded machine) can be the
 * next request after a 429 and after its Reset, and then the only one: served all through, it
 * leaves the probes after it no longer the next request.
 */
export function readPoolTimed(probes: readonly Probe[], refill: readonly Probe[]): Probe[] {
  // By the record's order where the clock's milliseconds cannot tell them apart.
  return [...probes, ...refill].sort((a, b) => sentAtMs(a.exchange) - sentAtMs(b.exchange) || a.exchange.seq - b.exchange.seq);
}

/** The campaign's plain message POST with the exhausted token (the burst's own form). */
function plainPost(write: WriteRun): SendOptions {
  return { method: 'POST', path: write.route.path, json: write.route.body, token: EXHAUSTED_ROLE, unpaced: true };
}

/**
 * The write pool's first refill (firstRefillOf in lib/suite/rate-limit-campaign.ts): at that
 * instant its early points are back and the burst's are not, so one more plain message POST than
 * the early points goes, one after another, until one is not served. Sent in the background like
 * the read probes, through `gate`: held while the limiter drill counts the ledger around its fault
 * (one held goes late, and the models judge it by when it went). The POSTs leave ledger rows: the
 * ledger is counted before the wait and again once their rows are in, so that the replay of the
 * refused POSTs, which goes after it, counts from a ledger they no longer move.
 */
export async function probeWriteRefill(s: Session, write: WriteRun, windowMs: number, gate?: Pick<BackgroundWriteGate, 'due' | 'write'>): Promise<Exchange[]> {
  const { atMs, count } = firstRefillOf(write, windowMs);
  gate?.due(atMs);
  const before = await countLedgerRows(s.client);
  await sleepUntil(atMs);
  const refill = async (): Promise<Exchange[]> => {
    const sent: Exchange[] = [];
    for (let i = 0; i < count; i++) {
      const exchange = await answerOf(s, plainPost(write));
      sent.push(exchange);
      if (!isServed(exchange)) break;
    }
    const rows = sent.filter(isServed).length * (write.batch.rowsPerMessage ?? 0);
    if (before.ok && rows > 0) await countLedgerRowsSettled(s.client, before.rows + rows);
    return sent;
  };
  return gate === undefined ? refill() : gate.write(refill);
}

/** The write pool's latest 429 before the replay: the first refill's when it met one, else the campaign's. */
export function latestWriteRefusal(write: WriteRun, refill: readonly Exchange[]): Exchange | undefined {
  return refill.filter(isRefusal).pop() ?? write.refusal;
}

/**
 * One more read once every point the campaign spent has aged out, for the INFO on whether
 * refusals consume points; sent by the recovery suite once the timed probes are done, beside the
 * replay, so it rarely waits.
 */
export async function finalRead(s: Session, spent: readonly Exchange[], windowMs: number): Promise<Exchange> {
  await sleepUntil(finalReadAtMs(spent, windowMs));
  return s.client.send({ path: ME_PATH, token: EXHAUSTED_ROLE, unpaced: true });
}

/** When every point of `spent` has aged out, and the final read goes. */
export function finalReadAtMs(spent: readonly Exchange[], windowMs: number): number {
  const lastSpent = Math.max(...spent.filter((e) => e.response !== undefined).map(receivedAtMs));
  return lastSpent + windowMs + AFTER_MARGIN_MS;
}

/** Harness ms at which a pool has surely served again, from its latest 429 (now, without one). */
export function healsAfterRefusalAtMs(refusal: Exchange | undefined, windowMs: number, clockWitness?: Exchange): number {
  if (refusal === undefined) return Date.now();
  return promisedAtMs(refusal, windowMs, servesAgainAtMs(refusal, windowMs, clockWitness));
}

/**
 * Harness ms at which §8.1's client sends again after a 429: once its Retry-After has elapsed (a
 * window after it, without one), whatever its Reset says. The replay does what the spec tells a
 * client to do, so a Retry-After that is too short is what it meets.
 */
export function retryAfterDueAtMs(refusal: Exchange | undefined, windowMs: number): number {
  if (refusal === undefined) return Date.now();
  return promisedAtMs(refusal, windowMs, retryAtMs(refusal, windowMs));
}

/**
 * When each point the write pool's served POSTs spent is back, earliest first: on a rolling
 * window, a window after the POST that spent it (charged by the time its headers came). A point
 * surely back before the batch's first refusal was sent was spent again by the batch (a spend
 * staged over a short window outlives its first points), so the replay does not wait for it. So
 * was one back after it for each POST of the batch sent after the refusal and served all the same
 * (a burst that a loaded machine stretches meets points coming back), and for each POST of the
 * first refill served (`servedByRefill`, its early points): the earliest of them. The refill's
 * own points come back a window after it.
 */
function pointsBackAtMs(write: WriteRun, windowMs: number, refill: readonly Exchange[], servedByRefill: number): number[] {
  const refusedAt = Math.min(...write.batch.posts.filter(isRefusal).map(sentAtMs));
  const servedAfterRefusal = write.batch.posts.filter((p) => isServed(p) && sentAtMs(p) > refusedAt).length + servedByRefill;
  return [...write.charged, ...refill]
    .filter(isServed)
    .map((e) => headersAtMs(e) + windowMs + AFTER_MARGIN_MS)
    .filter((back) => back > refusedAt)
    .sort((a, b) => a - b)
    .slice(servedAfterRefusal);
}

/**
 * When the replay of the refused POSTs should be over: after the write pool's first refill (its
 * requests, or undefined while it has not gone: then foreseen as served for each early point), once
 * the latest 429's Retry-After has elapsed and as many points of the write pool as it replays are
 * back (the first may come back well before the rest, when the write pool's first look was long
 * before its burst).
 */
export function replayDueAtMs(write: WriteRun, windowMs: number, refill: readonly Exchange[] | undefined): number {
  const replayed = Math.min(EXTRA_REFUSED_POSTS, write.batch.posts.filter(isRefusal).length);
  const first = refill === undefined ? Math.max(retryAfterDueAtMs(write.refusal, windowMs), firstRefillOf(write, windowMs).atMs) : retryAfterDueAtMs(latestWriteRefusal(write, refill), windowMs);
  const servedByRefill = refill === undefined ? write.early.length : refill.filter(isServed).length;
  const last = pointsBackAtMs(write, windowMs, refill ?? [], servedByRefill)[replayed - 1];
  return last === undefined ? first : Math.max(first, last);
}

/**
 * Whether the replay's first POST is the next request after `basis` (latestWriteRefusal): when the
 * refill ended with that 429 or sent nothing. A refill served all through (late on a loaded
 * machine) took points the campaign's 429 promised, so that 429 no longer speaks of the replay.
 */
export function replayIsNextAfter(basis: Exchange, refill: readonly Exchange[]): boolean {
  return refill.length === 0 || refill[refill.length - 1] === basis;
}

/** The replay, and its first request as a probe of the write pool's last 429 (the next request after it). */
export interface ReplayRun {
  replay: Replay;
  probe?: Probe;
}

/**
 * §8.1 "on 429, sleep for Retry-After seconds and retry the same request": the refused message
 * POSTs (as many as were planned) are sent again, one after another; the ledger is counted before
 * and after. Sent after the write pool's first refill (`refill`, its rows already in the ledger),
 * once the write pool's last 429's Retry-After has elapsed (retryAfterDueAtMs), the first of them
 * is also a probe of that 429's Retry-After, and of its Reset when that instant has passed too.
 */
export async function replayRefusedPosts(s: Session, write: WriteRun, windowMs: number, refill: readonly Exchange[] = []): Promise<ReplayRun> {
  // A pool that refuses earlier than its Remaining says leaves more refusals than planned: replaying
  // the planned number keeps the wait bounded and says as much.
  const refused = write.batch.posts.filter(isRefusal).slice(0, EXTRA_REFUSED_POSTS);
  const before = await countLedgerRows(s.client);
  const finals: Exchange[] = [];
  const request = plainPost(write);
  const basis = latestWriteRefusal(write, refill);
  let probe: Probe | undefined;
  const pointsBack = pointsBackAtMs(write, windowMs, refill, refill.filter(isServed).length);
  for (let i = 0; i < refused.length; i++) {
    // The first goes when the write pool's last 429 said (the refill's, when it met one; it is the probe of that 429); each later
    // one once its own point is back, a window after the POST that spent it, so that it meets no
    // 429 whose Retry-After, rounded up to whole seconds, it would wait out.
    if (i > 0 && pointsBack[i] !== undefined) await sleepUntil(pointsBack[i]!);
    let answer = await s.client.send(request);
    if (i === 0 && basis !== undefined) probe = { exchange: answer, basis, first: replayIsNextAfter(basis, refill) };
    // A later one, sent at the harness's own reckoning, may still meet a 429 (a pool that gives
    // its points back later): it is sent once more when that 429's Retry-After has elapsed. An
    // answer to a POST sent after a Retry-After is final: §8.1 says it will succeed.
    if (i > 0 && isRefusal(answer)) {
      await sleepUntil(retryAfterDueAtMs(answer, windowMs));
      answer = await s.client.send(request);
    }
    finals.push(answer);
  }
  const served = finals.filter(isServed).length;
  const perMessage = write.batch.rowsPerMessage ?? 0;
  const after = before.ok ? await countLedgerRowsSettled(s.client, before.rows + served * perMessage) : await countLedgerRows(s.client);
  // More rows than the replay's messages leave: other clients' rows are measured to tell.
  const background = before.ok && after.ok && after.rows - before.rows > served * perMessage ? await measureBackground(s.client, spanMs(before, after)) : undefined;
  return { replay: { finals, before, after, ...(background === undefined ? {} : { background }) }, ...(probe === undefined ? {} : { probe }) };
}
