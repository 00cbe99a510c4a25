import { createHash } from 'node:crypto';
import { testIsSelected } from '../catalogue/selection.ts';
import { jobIdOf, jobPollPath } from '../checks/conversation-job.ts';
import { integerHeader } from '../checks/pool-headers.ts';
import { isRefusal } from '../checks/rate-limit-refusal.ts';
import { ACCEPT_FORM_LIST, asksForStream } from '../coverage/accept-forms.ts';
import type { Cell, CoverageContext } from '../coverage/exchange-dimensions.ts';
import { exchangePlan, type ExchangePlan, type Phase, type PlannedRow } from '../coverage/exchange-plan.ts';
import type { Exchange } from '../model/exchange.ts';
import type { ResolvedProfile } from '../profile/resolved-profile.ts';
import { ME_PATH, poolOfMethod, SLOW_DOWN_FRACTION, type Pool } from '../spec-constants.ts';
import { sleepUntil, type SendOptions } from '../http/client.ts';
import { retryAfterDueAtMs } from './rate-limit-probes.ts';
import { waitingFor } from './wait-notices.ts';
import type { Session } from './session.ts';
import { sendAll } from './side-by-side.ts';
import { medianRoundTripMs, spendInFlight } from './spend-in-flight.ts';

/** What the rows' paths and headers need beyond the profile: the jobs each workspace was given, and ids and tokens never issued. */
export interface MatrixIds {
  jobs: { main?: string; other?: string };
  neverAgent: string;
  neverJob: string;
  /** A well-formed `<prefix>_live_<hex>` token never issued. */
  unknownToken: string;
  /** A token of the right prefix that is not hex. */
  malformedToken: string;
}

/** The media range each Accept form sends, and the `stream` field, by form (lib/domains/request-header-domains.ts names them). */
const FORMS = new Map(ACCEPT_FORM_LIST.map((f) => [f.name, f]));

/** A Basic credential of no one: another scheme, no token of the profile in it. */
const OTHER_SCHEME = 'Basic dXNlcjpwYXNzd29yZA==';

/** Fewest requests in flight while a pool is spent on purpose (a nearby target: the spend is short anyway). */
const SPEND_IN_FLIGHT_FLOOR = 16;

/**
 * Requests in flight to send `requests` on purpose (a pool spent, a volume of refused ones), sized
 * as the rate-limit campaign sizes its bursts: from the round trip of those `sent` so far, the
 * count and the window, within the profile's pacing.max_in_flight. A far target or a big pool gets
 * more at once, so that its round trips overlap instead of adding up.
 */
export function matrixSpendInFlight(s: Session, requests: number, sent: readonly Exchange[]): number {
  const { limits, pacing } = s.context.profile;
  return spendInFlight({ requests, roundTripMs: medianRoundTripMs(sent), windowMs: limits.windowS * 1000, floor: SPEND_IN_FLIGHT_FLOOR, cap: pacing.maxInFlight });
}

/** A live token's role for a row: the valid token whose pool is in the row's state, or the other workspace's. */
export function roleFor(cell: Cell, phase: Phase): string | undefined {
  if (cell.token === "another workspace's") return 'other_workspace';
  if (cell.token === 'revoked' || cell.token === 'expired') return cell.token;
  if (cell.token !== 'valid') return undefined;
  // The secondary token's pools are spent by the rate-limit campaign and refilled in its recovery.
  return phase === 'spent' || phase === 'refilled' ? 'secondary' : 'primary';
}

function pathFor(cell: Cell, profile: ResolvedProfile, ids: MatrixIds): string {
  const message = profile.messages.routes.find((r) => r.template === cell.route);
  if (message !== undefined) return cell.owner === 'never issued' ? message.template.replace(/\{[^}]+\}/, encodeURIComponent(ids.neverAgent)) : message.path;
  const jobs = profile.messages.async;
  if (jobs !== undefined && cell.route === jobs.poll) {
    const callerIsOther = cell.token === "another workspace's";
    const own = callerIsOther ? ids.jobs.other : ids.jobs.main;
    const theirs = callerIsOther ? ids.jobs.main : ids.jobs.other;
    const id = cell.owner === 'own' ? own : cell.owner === "another workspace's" ? theirs : undefined;
    return jobPollPath(jobs.poll, id ?? ids.neverJob);
  }
  return cell.route;
}

/** What the client sends for a row of the matrix, in the phase it is sent in. */
export function matrixRequest(cell: Cell, phase: Phase, profile: ResolvedProfile, ids: MatrixIds): SendOptions {
  const role = roleFor(cell, phase);
  const out: SendOptions = { method: cell.method, path: pathFor(cell, profile, ids) };
  if (role !== undefined) out.token = role;
  if (cell.token === 'unknown') out.authorization = `Bearer ${ids.unknownToken}`;
  if (cell.token === 'malformed') out.authorization = `Bearer ${ids.malformedToken}`;
  if (cell.token === 'other scheme') out.authorization = OTHER_SCHEME;
  const form = FORMS.get(cell.accept);
  const accept = form?.accept;
  if (accept !== undefined) out.headers = { accept };
  const message = profile.messages.routes.find((r) => r.template === cell.route);
  if (message !== undefined && cell.method === 'POST') {
    const stream = form?.stream === undefined ? {} : { stream: form.stream };
    out.json = { ...message.body, ...stream };
    out.stream = asksForStream(form);
  }
  // A pool spent, low or just refilled on purpose is asked as it stands: the budget service would
  // wait for it to heal, or spread the last points of a pool under 10% over its window (§8.1).
  if (phase === 'spent' || phase === 'low' || phase === 'low-read' || phase === 'refilled') out.unpaced = true;
  return out;
}

/** The job a live token's workspace is given, through the profile's job mode (one write point). */
export async function createJob(s: Session, role: string): Promise<{ id?: string; exchange: Exchange }> {
  const jobs = s.context.profile.messages.async;
  const route = s.context.profile.messages.routes[0];
  if (jobs === undefined || route === undefined || !s.client.hasToken(role)) return { exchange: await s.client.send({ path: ME_PATH, token: role }) };
  const exchange = await s.client.send({ method: 'POST', path: route.path, token: role, json: { ...route.body, ...jobs.body } });
  const id = jobIdOf(exchange, jobs.jobIdPointer);
  return id.ok ? { id: id.id, exchange } : { exchange };
}

/**
 * The request that spends a point of a pool without touching any data: GET /me, or PUT on /me,
 * where the spec shows no operation. Not HEAD: undici closes the connection after every HEAD (in
 * case a server sends a body), so a spend of thousands would open a connection for each.
 */
function spender(role: string, pool: Pool): SendOptions {
  return { method: pool === 'read' ? 'GET' : 'PUT', path: ME_PATH, token: role, unpaced: true };
}

/**
 * Spends a pool of `role` until it is low (under 10% left, §8.1's slow-down line) or spent (a 429).
 * Returns what it sent; a target that charges no point for the spender never gets there, and the
 * coverage says so.
 */
export async function spendPool(s: Session, role: string, pool: Pool, until: 'low' | 'spent'): Promise<Exchange[]> {
  const limit = s.context.profile.limits[pool];
  const lowLine = Math.ceil(limit * SLOW_DOWN_FRACTION) - 1;
  const sent: Exchange[] = [await s.client.send(spender(role, pool))];
  let batch = sent;
  for (let round = 0; round < 4 && !sent.some(isRefusal); round += 1) {
    // Side by side, the last sent is not the last counted: the fewest points any answer showed.
    const counts = batch.map((e) => integerHeader(e, 'x-ratelimit-remaining')).filter((n) => n !== undefined);
    if (counts.length === 0) break;
    const remaining = Math.min(...counts);
    const target = until === 'low' ? lowLine : -1;
    if (remaining <= target) break;
    const count = Math.min(limit + 1, remaining - target);
    batch = await sendAll(s.client, new Array<SendOptions>(count).fill(spender(role, pool)), matrixSpendInFlight(s, count, sent));
    sent.push(...batch);
  }
  return sent;
}

/** Hex digits drawn from the run's seed: ids and tokens never issued, the same on every run of a seed. */
export function seededHex(seed: number, label: string, length: number): string {
  let out = '';
  for (let i = 0; out.length < length; i += 1) out += createHash('sha256').update(`${seed}:${label}:${i}`).digest('hex');
  return out.slice(0, length);
}

/** The coverage context of a run, as the suites see it. */
export function matrixContext(s: Session): CoverageContext {
  const { profile, tokens } = s.context;
  return { baseUrl: profile.baseUrl, messages: profile.messages, limits: profile.limits, roles: Object.keys(tokens) };
}

let planned: ExchangePlan | undefined;
let idsMade: Promise<{ ids: MatrixIds; exchanges: Exchange[] }> | undefined;
let otherEarly: Promise<OtherWorkspaceEarly> | undefined;

/** The other workspace's job, and the write points spent beside it at the run's start. */
interface OtherWorkspaceEarly {
  job: { id?: string; exchange: Exchange };
  spent: Exchange[];
}

/** The run's plan, made once from its seed (both matrix suites read it). */
export function matrixPlan(s: Session): ExchangePlan {
  planned ??= exchangePlan(matrixContext(s), s.context.seed);
  return planned;
}

/**
 * The other workspace's job, and as many more write points (PUT /me, where the spec shows no
 * operation) as its rows of a pool just refilled need, made once. Started at the run's start
 * beside the rate-limit campaign (suites/ratelimit-exhaust.test.ts), these are the points its
 * write pool, spent a few seconds later by this module's rows, gives back first: a window after
 * the start, before the secondary token's pools have healed, so its refilled rows wait for
 * nothing. A workspace of its own, so nothing the campaign counts sees them.
 */
export function otherWorkspaceEarlyWrites(s: Session): Promise<OtherWorkspaceEarly> {
  otherEarly ??= (async () => {
    const role = 'other_workspace';
    const job = await createJob(s, role);
    const refilledWrites = matrixPlan(s).rows.filter((r) => r.phase === 'refilled' && roleFor(r.cell, r.phase) === role && poolOfMethod(r.cell.method) === 'write').length;
    const charged = poolOfMethod(job.exchange.request.method) === 'write' ? 1 : 0;
    const more = Math.max(0, refilledWrites - charged);
    const spent = more === 0 ? [] : await sendAll(s.client, new Array<SendOptions>(more).fill(spender(role, 'write')), more);
    return { job, spent };
  })();
  return otherEarly;
}

/**
 * Starts otherWorkspaceEarlyWrites at the run's start, when the run sends the rows of pools just
 * refilled and the profile has the other workspace's token; it settles on its own.
 */
export function startOtherWorkspaceEarlyWrites(s: Session): void {
  if (!s.client.hasToken('other_workspace') || !sendsRefilledRows(s)) return;
  otherWorkspaceEarlyWrites(s).catch(() => undefined);
}

/** The ids the rows' paths use, made once: a job of each workspace (one write each), and ids and tokens never issued. */
export function matrixIds(s: Session): Promise<{ ids: MatrixIds; exchanges: Exchange[] }> {
  idsMade ??= (async () => {
    const shape = s.client.tokenShape('primary') ?? { prefix: 'asi', hexLength: 32 };
    const seed = s.context.seed;
    const [main, early] = await Promise.all([createJob(s, 'primary'), s.client.hasToken('other_workspace') ? otherWorkspaceEarlyWrites(s) : undefined]);
    const other = early?.job;
    const ids: MatrixIds = {
      jobs: { ...(main.id === undefined ? {} : { main: main.id }), ...(other?.id === undefined ? {} : { other: other.id }) },
      neverAgent: `never-${seededHex(seed, 'agent', 12)}`,
      neverJob: `never-${seededHex(seed, 'job', 12)}`,
      unknownToken: `${shape.prefix}_live_${seededHex(seed, 'token', shape.hexLength)}`,
      malformedToken: `${shape.prefix}_live_${'z'.repeat(shape.hexLength)}`,
    };
    return { ids, exchanges: [main.exchange, ...(early === undefined ? [] : [early.job.exchange, ...early.spent])] };
  })();
  return idsMade;
}

/**
 * Rows with, for each, its twin carrying an unknown token: what a live token is served in that
 * state is refused without one (§5.1), whatever state the live tokens' pools are in.
 */
export function withUnknownTwins(rows: readonly PlannedRow[]): PlannedRow[] {
  return rows.flatMap((r) => [r, { cell: { ...r.cell, token: 'unknown', pool: 'no pool' }, phase: r.phase }]);
}

/**
 * Sends the rows of one phase side by side, event streams first (the longest: they overlap the
 * rest); rows of a token the profile lacks are left out.
 */
export function sendRows(s: Session, rows: readonly PlannedRow[], ids: MatrixIds): Promise<Exchange[]> {
  const requests = rows.flatMap((r) => {
    const role = roleFor(r.cell, r.phase);
    return role !== undefined && !s.client.hasToken(role) ? [] : [matrixRequest(r.cell, r.phase, s.context.profile, ids)];
  });
  requests.sort((a, b) => Number(b.stream === true) - Number(a.stream === true));
  return s.sendAll(requests).then((sent) => {
    matrixExchanges.push(...sent);
    return sent;
  });
}

/**
 * A row of pools just refilled that charges no read point of the secondary token: its write pool's
 * rows, and the other workspace's. The rate-limit recovery's last timed probe judges the read
 * pool's Reset by the first request after it; these need not wait for it.
 */
function besideReadProbes(row: PlannedRow): boolean {
  const role = roleFor(row.cell, row.phase);
  return role === 'other_workspace' || (role === 'secondary' && poolOfMethod(row.cell.method) === 'write');
}

/** The rows of pools just refilled, each with its unknown twin: those that may go beside the read pool's last probe, and the rest. */
export function refilledRows(s: Session): { beside: PlannedRow[]; after: PlannedRow[] } {
  const rows = matrixPlan(s).rows.filter((r) => r.phase === 'refilled');
  return { beside: withUnknownTwins(rows.filter(besideReadProbes)), after: withUnknownTwins(rows.filter((r) => !besideReadProbes(r))) };
}

let refilledBeside: Promise<Exchange[]> | undefined;
let otherRefilled: Promise<Exchange[]> | undefined;

/** The requirement the rows of pools just refilled are judged under (suites/exchange-matrix-refilled.test.ts). */
export const REFILLED_ROWS_REQUIREMENT = 'auth/5.1/no-service-without-token';

/**
 * Whether the run sends the rows of pools just refilled: their suite runs and --only or --skip
 * leave its test in. The other workspace's early writes and rows are theirs: a run that leaves the
 * test out sends none of them.
 */
function sendsRefilledRows(s: Session): boolean {
  const { suites, selection } = s.context;
  return suites?.includes('exchange-matrix-refilled') === true && (selection === undefined || testIsSelected([REFILLED_ROWS_REQUIREMENT], selection));
}

/**
 * The other workspace's rows of pools just refilled, sent once its write pool, spent at the run's
 * start, has points again (by its 429's Retry-After and a margin): about a window into the run,
 * while the rate-limit recovery still waits for the secondary token's pools, so that none of them
 * (an event stream among them, exchangePlan) adds to the run's end.
 */
function otherWorkspaceRefilledRows(s: Session): Promise<Exchange[]> {
  otherRefilled ??= (async () => {
    const rows = refilledRows(s).beside.filter((r) => roleFor(r.cell, r.phase) === 'other_workspace');
    const { ids } = await matrixIds(s);
    const dueMs = otherWorkspaceRefilledAtMs(s.context.profile.limits.windowS * 1000);
    await waitingFor(s.context.transcriptFile, "the other workspace's pools to refill", dueMs, sleepUntil(dueMs));
    return sendRows(s, rows, ids);
  })();
  return otherRefilled;
}

/**
 * Starts otherWorkspaceRefilledRows when the run sends the rows of pools just refilled: called as
 * the rate-limit recovery begins, once the ledger suites, which read the other workspace's ledger,
 * are done. It settles on its own, and the refilled rows' suite awaits it.
 */
export function startOtherWorkspaceRefilledRows(s: Session): void {
  if (!sendsRefilledRows(s)) return;
  otherWorkspaceRefilledRows(s).catch(() => undefined);
}

/**
 * The rows of pools just refilled that charge no read point of the secondary token, sent once: the
 * secondary token's as soon as the rate-limit recovery has replayed the refused POSTs (its write
 * pool serves again and the replay's counts of the ledger are done), the other workspace's once its
 * pools are back (otherWorkspaceRefilledRows, started earlier). They go beside the read pool's last
 * timed probe, which waits for the pool's Retry-After and Reset to pass.
 */
export function refilledRowsBesideReads(s: Session): Promise<Exchange[]> {
  refilledBeside ??= (async () => {
    const { beside } = refilledRows(s);
    const { ids } = await matrixIds(s);
    const [secondary, other] = await Promise.all([sendRows(s, beside.filter((r) => roleFor(r.cell, r.phase) !== 'other_workspace'), ids), otherWorkspaceRefilledRows(s)]);
    return [...secondary, ...other];
  })();
  return refilledBeside;
}

/**
 * Starts refilledRowsBesideReads once the recovery has replayed the refused POSTs, when the run
 * sends the rows of pools just refilled; it settles on its own, and that suite awaits it.
 */
export function startRefilledRowsBesideReads(s: Session): void {
  if (!sendsRefilledRows(s)) return;
  refilledRowsBesideReads(s).catch(() => undefined);
}

/** After the instant a spent pool promised a point back, before its refilled rows go: a few more points are back by then. */
const REFILL_MARGIN_MS = 1_000;

/** The other workspace's 429 of its write spend: when its refilled rows may go. */
const spentAt: Exchange[] = [];

/** Every exchange the matrix's rows sent this run, in the three files: the last judges them all. */
export const matrixExchanges: Exchange[] = [];

/**
 * The other workspace's write pool from fresh to low to spent, its rows sent in each state: the
 * pool brought under 10% (low), its low rows, then spent (a 429), its spent rows.
 */
export async function otherWorkspaceWrites(s: Session, rows: readonly PlannedRow[], ids: MatrixIds): Promise<Exchange[]> {
  const role = 'other_workspace';
  if (!s.client.hasToken(role)) return [];
  const mine = (phase: Phase): PlannedRow[] => rows.filter((r) => r.phase === phase && roleFor(r.cell, r.phase) === role);
  const sent: Exchange[] = [...(await spendPool(s, role, 'write', 'low'))];
  sent.push(...(await sendRows(s, mine('low'), ids)));
  const spend = await spendPool(s, role, 'write', 'spent');
  sent.push(...spend);
  const refusal = spend.filter(isRefusal).pop();
  if (refusal !== undefined) spentAt.push(refusal);
  sent.push(...(await sendRows(s, mine('spent'), ids)));
  return sent;
}

/**
 * The other workspace's read pool brought under 10% and its low rows sent, once its ledger reads
 * are done; never spent, so that no later request of this run or the next waits for it.
 */
export async function otherWorkspaceLowReads(s: Session, rows: readonly PlannedRow[], ids: MatrixIds): Promise<Exchange[]> {
  const role = 'other_workspace';
  if (!s.client.hasToken(role)) return [];
  const sent = await spendPool(s, role, 'read', 'low');
  sent.push(...(await sendRows(s, withUnknownTwins(rows.filter((r) => r.phase === 'low-read')), ids)));
  return sent;
}

/** When the other workspace's pools have points again, by their 429s' word (now when they never refused). */
export function otherWorkspaceRefilledAtMs(windowMs: number): number {
  return Math.max(Date.now(), ...spentAt.map((e) => retryAfterDueAtMs(e, windowMs) + REFILL_MARGIN_MS));
}
