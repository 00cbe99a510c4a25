import type { Exchange } from '../model/exchange.ts';
import { fail, inconclusive, pass, type Finding } from '../model/finding.ts';
import { describeResponse, isObject, jsonBody } from './json-body.ts';
import { exchangeLabel } from './rate-limit-headers.ts';
import { isRefusal, isServed } from './rate-limit-refusal.ts';
import { judged } from './judged.ts';

export type LedgerPage = { ok: true; rows: number; nextCursor: string | null } | { ok: false; why: string };

/** The rows of one §2.2 `CreditsOperations` page and its cursor; the rows themselves are not judged here. */
export function ledgerPage(exchange: Exchange): LedgerPage {
  if (exchange.response?.status !== 200) return { ok: false, why: `the ledger answered ${describeResponse(exchange)}` };
  const body = jsonBody(exchange);
  if (!body.ok) return { ok: false, why: body.why };
  const v = body.value;
  if (!isObject(v) || !Array.isArray(v['operations'])) return { ok: false, why: 'the ledger page has no `operations` array' };
  const next = v['next_cursor'];
  return { ok: true, rows: v['operations'].length, nextCursor: typeof next === 'string' ? next : null };
}

/** A count of ledger rows in a window at one moment (harness ms when its walk began and ended), with the pages that show it. */
export type LedgerCount = { ok: true; rows: number; pages: Exchange[]; startedMs: number; endedMs: number } | { ok: false; why: string; pages: Exchange[] };

/**
 * Rows other clients of the workspace added over a pause in which the harness sent nothing that
 * leaves one: a staging ledger is written by more than the harness.
 */
export interface Background {
  rows: number;
  spanMs: number;
}

/** The longest time over which rows can have landed between two counts. */
export function spanMs(before: LedgerCount, after: LedgerCount): number {
  return before.ok && after.ok ? Math.max(0, after.endedMs - before.startedMs) : 0;
}

/**
 * Rows other clients may add over `intervalMs` without the harness reading anything into them:
 * none on a ledger seen quiet (judged exactly, as on the reference), else the measured rate taken
 * high and a margin that a steady writer exceeds about once in a thousand intervals.
 */
export function backgroundAllowance(background: Background | undefined, intervalMs: number): number {
  if (background === undefined || background.rows === 0) return 0;
  const rowsHigh = background.rows + 2 * Math.sqrt(background.rows) + 1;
  const expected = (rowsHigh * intervalMs) / Math.max(1, background.spanMs);
  return Math.ceil(expected + 3 * Math.sqrt(expected) + 1);
}

function rowsText(n: number): string {
  return `${n} ${n === 1 ? 'row' : 'rows'}`;
}

/** Other clients' rows as measured, for a finding's text. */
export function backgroundNote(background: Background | undefined): string {
  return background === undefined || background.rows === 0 ? 'none' : `${rowsText(background.rows)} in ${(background.spanMs / 1000).toFixed(1)} s`;
}

/**
 * Refused POSTs sent again and again while the write pool is still spent, counted in the ledger
 * around them, then the rows others add measured: sent when the batch shows rows its served
 * POSTs do not explain, to tell other clients' rows from refused work.
 */
export interface RefusedTrial {
  posts: Exchange[];
  before: LedgerCount;
  after: LedgerCount;
  background?: Background;
}

/** What the write campaign saw: message POSTs and the ledger counted around them. */
export interface RefusedBatch {
  /** Rows one served message leaves (measured on the first POST), or undefined when unknown. */
  rowsPerMessage: number | undefined;
  /** The POSTs of the batch (served and refused). */
  posts: Exchange[];
  before: LedgerCount;
  after: LedgerCount;
  trial?: RefusedTrial;
}

function witness(batch: Pick<RefusedBatch, 'rowsPerMessage'>): string | undefined {
  if (batch.rowsPerMessage === undefined) return 'the ledger could not be read around the first message POST';
  if (batch.rowsPerMessage <= 0) return 'a served message POST left no ledger row, so the ledger cannot witness what a refused one did';
  return undefined;
}

/** Rows the batch's refused POSTs left: the rows counted beyond those of its served POSTs. */
export function rowsLeftByRefused(batch: Pick<RefusedBatch, 'rowsPerMessage' | 'posts' | 'before' | 'after'>): number | undefined {
  if (!batch.before.ok || !batch.after.ok || batch.rowsPerMessage === undefined) return undefined;
  return batch.after.rows - batch.before.rows - batch.posts.filter(isServed).length * batch.rowsPerMessage;
}

/** The trial's verdict on refused work: rows beyond its served POSTs and beyond what others add. */
type TrialReading = { ok: true; extra: number; allowance: number; refused: number } | { ok: false; why: string };

function readTrial(trial: RefusedTrial, rowsPerMessage: number): TrialReading {
  const refused = trial.posts.filter(isRefusal).length;
  if (refused === 0) return { ok: false, why: 'the trial POSTs were not refused (the write pool served again)' };
  const extra = rowsLeftByRefused({ rowsPerMessage, posts: trial.posts, before: trial.before, after: trial.after });
  if (extra === undefined || trial.background === undefined) return { ok: false, why: 'the ledger could not be counted around the trial POSTs' };
  return { ok: true, extra, allowance: backgroundAllowance(trial.background, spanMs(trial.before, trial.after)), refused };
}

/** Whether the refused POSTs of the batch did work: settled by the batch alone, or by its trial. */
type RefusedWork = { did: false; note: string } | { did: true; actual: string } | { did: 'unknown'; why: string };

function refusedWork(batch: RefusedBatch): RefusedWork {
  if (!batch.before.ok || !batch.after.ok || batch.rowsPerMessage === undefined) return { did: 'unknown', why: 'the ledger could not be counted around the batch' };
  const grew = batch.after.rows - batch.before.rows;
  const extra = rowsLeftByRefused(batch)!;
  const served = batch.posts.filter(isServed).length;
  if (extra === 0) return { did: false, note: `${served} served and ${batch.posts.filter(isRefusal).length} refused message POSTs; the ledger grew by the served ones only` };
  if (extra < 0) return { did: 'unknown', why: `the ledger grew by ${grew} rows for ${served} served messages of ${batch.rowsPerMessage} rows each: it may lag` };
  const grewMore = `the ledger grew by ${grew} rows: ${extra} more than the served messages account for`;
  if (batch.trial === undefined) return { did: true, actual: grewMore };
  const t = readTrial(batch.trial, batch.rowsPerMessage);
  if (!t.ok) return { did: 'unknown', why: `${grewMore}, and ${t.why}` };
  const others = backgroundNote(batch.trial.background);
  if (t.extra > t.allowance) {
    return { did: true, actual: `${grewMore}; ${t.refused} more refused POSTs then left ${rowsText(t.extra)}, beyond the ${t.allowance} that other clients' rows (${others}) explain` };
  }
  return {
    did: false,
    note: `${rowsText(extra)} of the batch beyond its served POSTs came from other clients: ${t.refused} more refused POSTs then left ${rowsText(Math.max(0, t.extra))}, within the ${t.allowance} that other clients' rows (${others}) explain`,
  };
}

/** §8.1 rule 5 "A rejected 429 request has done no work": the refused message POSTs left no ledger row. */
export const refusedNoWorkFinding = judged('rate-limit-ledger/refusedNoWorkFinding', function refusedNoWorkFinding(requirement: string, batch: RefusedBatch): Finding {
  const refused = batch.posts.filter(isRefusal);
  if (refused.length === 0) return inconclusive(requirement, 'no message POST was refused', batch.posts.slice(-1));
  const why = witness(batch);
  if (why !== undefined) return inconclusive(requirement, why, refused.slice(0, 1));
  if (!batch.before.ok || !batch.after.ok) return inconclusive(requirement, `the ledger could not be counted: ${batch.before.ok ? '' : batch.before.why}${batch.after.ok ? '' : batch.after.why}`, refused.slice(0, 1));
  const served = batch.posts.filter(isServed).length;
  const work = refusedWork(batch);
  const trialEvidence = batch.trial === undefined ? [] : [...batch.trial.posts.filter(isRefusal).slice(0, 1), ...(batch.trial.after.pages.slice(0, 1))];
  const evidence = [...refused.slice(0, 2), ...batch.after.pages.slice(0, 1), ...trialEvidence];
  if (work.did === false) return pass(requirement, evidence, work.note);
  if (work.did === 'unknown') return inconclusive(requirement, work.why, evidence);
  return fail(requirement, `no ledger row from the ${refused.length} refused message POSTs (${served} served ones leave ${served * batch.rowsPerMessage!} rows)`, work.actual, evidence);
});

/** The refused messages sent again after Retry-After, with the ledger counted around them. */
export interface Replay {
  /** The last answer to each replayed message (after any 429 and Retry-After of its own). */
  finals: Exchange[];
  before: LedgerCount;
  after: LedgerCount;
  /** Other clients' rows, measured when the replay left more rows than its messages account for. */
  background?: Background;
}

/**
 * §8.1 rule 5 "repeating it is safe, including POST": every replayed message is served, and each
 * message's work is done exactly once in all, counting rows left at refusal and at replay.
 */
export const replayOnceFinding = judged('rate-limit-ledger/replayOnceFinding', function replayOnceFinding(requirement: string, batch: RefusedBatch, replay: Replay): Finding {
  if (replay.finals.length === 0) return inconclusive(requirement, 'no refused message POST to replay');
  const why = witness(batch);
  if (why !== undefined) return inconclusive(requirement, why, replay.finals.slice(0, 1));
  const refusedAgain = replay.finals.find((e) => !isServed(e));
  if (refusedAgain !== undefined) {
    if (refusedAgain.response === undefined) return inconclusive(requirement, `a replay got no answer: ${exchangeLabel(refusedAgain)}`, [refusedAgain]);
    return fail(requirement, 'every refused message served when sent again after Retry-After', `${exchangeLabel(refusedAgain)} after waiting Retry-After`, [refusedAgain]);
  }
  const extra = rowsLeftByRefused(batch);
  if (extra === undefined || !replay.before.ok || !replay.after.ok) return inconclusive(requirement, 'the ledger could not be counted around the replay', replay.finals.slice(0, 1));
  const perMessage = batch.rowsPerMessage!;
  const refusedCount = batch.posts.filter(isRefusal).length;
  const replayed = replay.finals.length;
  const atReplay = replay.after.rows - replay.before.rows;
  const expected = replayed * perMessage;
  // Rows the replayed messages left when refused: none, or all of theirs when every refused one
  // left its rows; a share in between cannot be told apart per message.
  const work = refusedWork(batch);
  let atRefusal: number;
  if (work.did === false || extra <= 0) atRefusal = 0;
  else if (work.did === 'unknown') return inconclusive(requirement, `whether the refused messages left rows is not known: ${work.why}`, replay.finals.slice(0, 1));
  else if (extra === refusedCount * perMessage || batch.trial !== undefined) atRefusal = replayed * perMessage;
  else if (atReplay === expected) return inconclusive(requirement, `${extra} rows came from some of the ${refusedCount} refused messages; which ones cannot be told`, replay.finals.slice(0, 1));
  else atRefusal = 0;
  const total = atRefusal + atReplay;
  const allowance = backgroundAllowance(replay.background, spanMs(replay.before, replay.after));
  const evidence = [...replay.finals.slice(0, 2), ...replay.after.pages.slice(0, 1)];
  if (total === expected) return pass(requirement, evidence, `${replayed} replayed messages left ${atReplay} rows, ${perMessage} each`);
  if (total < expected) return inconclusive(requirement, `${replayed} replayed messages left ${atReplay} rows, fewer than ${expected}: the ledger may lag`, evidence);
  if (total - expected <= allowance) {
    return pass(requirement, evidence, `${replayed} replayed messages; the ledger grew by ${atReplay} rows, ${atReplay - expected} of them within the ${allowance} that other clients' rows (${backgroundNote(replay.background)}) explain`);
  }
  return fail(
    requirement,
    `${expected} ledger rows in all for ${replayed} messages refused once and replayed (${perMessage} per message)${allowance > 0 ? `, give or take ${allowance} rows of other clients` : ''}`,
    `${total}: ${atRefusal} left when they were refused and ${atReplay} when they were replayed`,
    evidence,
  );
});
