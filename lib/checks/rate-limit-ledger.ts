import type { Exchange } from '../model/exchange.ts';
import { fail, inconclusive, pass, type Finding } from '../model/finding.ts';
import { describeResponse, isObject, jsonBody } from './json-body.ts';
import { exchangeLabel } from './rate-limit-headers.ts';
import { isRefusal, isServed } from './rate-limit-refusal.ts';

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

/** A count of ledger rows in a window at one moment, with the pages that show it. */
export type LedgerCount = { ok: true; rows: number; pages: Exchange[] } | { ok: false; why: string; pages: Exchange[] };

/** What the write campaign saw: message POSTs and the ledger counted around them. */
export interface RefusedBatch {
  /** Rows one served message leaves (measured on the first POST), or undefined when unknown. */
  rowsPerMessage: number | undefined;
  /** The POSTs of the batch (served and refused). */
  posts: Exchange[];
  before: LedgerCount;
  after: LedgerCount;
}

function witness(batch: Pick<RefusedBatch, 'rowsPerMessage'>): string | undefined {
  if (batch.rowsPerMessage === undefined) return 'the ledger could not be read around the first message POST';
  if (batch.rowsPerMessage <= 0) return 'a served message POST left no ledger row, so the ledger cannot witness what a refused one did';
  return undefined;
}

/** Rows the batch's refused POSTs left: the rows counted beyond those of its served POSTs. */
export function rowsLeftByRefused(batch: RefusedBatch): number | undefined {
  if (!batch.before.ok || !batch.after.ok || batch.rowsPerMessage === undefined) return undefined;
  return batch.after.rows - batch.before.rows - batch.posts.filter(isServed).length * batch.rowsPerMessage;
}

/** §8.1 rule 5 "A rejected 429 request has done no work": the refused message POSTs left no ledger row. */
export function refusedNoWorkFinding(requirement: string, batch: RefusedBatch): Finding {
  const refused = batch.posts.filter(isRefusal);
  if (refused.length === 0) return inconclusive(requirement, 'no message POST was refused', batch.posts.slice(-1));
  const why = witness(batch);
  if (why !== undefined) return inconclusive(requirement, why, refused.slice(0, 1));
  if (!batch.before.ok || !batch.after.ok) return inconclusive(requirement, `the ledger could not be counted: ${batch.before.ok ? '' : batch.before.why}${batch.after.ok ? '' : batch.after.why}`, refused.slice(0, 1));
  const extra = rowsLeftByRefused(batch)!;
  const served = batch.posts.filter(isServed).length;
  const evidence = [...refused.slice(0, 2), ...batch.after.pages.slice(0, 1)];
  if (extra === 0) return pass(requirement, evidence, `${served} served and ${refused.length} refused message POSTs; the ledger grew by the served ones only`);
  if (extra < 0) return inconclusive(requirement, `the ledger grew by ${batch.after.rows - batch.before.rows} rows for ${served} served messages of ${batch.rowsPerMessage} rows each: it may lag`, evidence);
  return fail(
    requirement,
    `no ledger row from the ${refused.length} refused message POSTs (${served} served ones leave ${served * batch.rowsPerMessage!} rows)`,
    `the ledger grew by ${batch.after.rows - batch.before.rows} rows: ${extra} more than the served messages account for`,
    evidence,
  );
}

/** The refused messages sent again after Retry-After, with the ledger counted around them. */
export interface Replay {
  /** The last answer to each replayed message (after any 429 and Retry-After of its own). */
  finals: Exchange[];
  before: LedgerCount;
  after: LedgerCount;
}

/**
 * §8.1 rule 5 "repeating it is safe, including POST": every replayed message is served, and each
 * message's work is done exactly once in all, counting rows left at refusal and at replay.
 */
export function replayOnceFinding(requirement: string, batch: RefusedBatch, replay: Replay): Finding {
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
  let atRefusal: number;
  if (extra <= 0) atRefusal = 0;
  else if (extra === refusedCount * perMessage) atRefusal = replayed * perMessage;
  else if (atReplay === expected) return inconclusive(requirement, `${extra} rows came from some of the ${refusedCount} refused messages; which ones cannot be told`, replay.finals.slice(0, 1));
  else atRefusal = 0;
  const total = atRefusal + atReplay;
  const evidence = [...replay.finals.slice(0, 2), ...replay.after.pages.slice(0, 1)];
  if (total === expected) return pass(requirement, evidence, `${replayed} replayed messages left ${atReplay} rows, ${perMessage} each`);
  if (total < expected) return inconclusive(requirement, `${replayed} replayed messages left ${atReplay} rows, fewer than ${expected}: the ledger may lag`, evidence);
  return fail(
    requirement,
    `${expected} ledger rows in all for ${replayed} messages refused once and replayed (${perMessage} per message)`,
    `${total}: ${atRefusal} left when they were refused and ${atReplay} when they were replayed`,
    evidence,
  );
}
