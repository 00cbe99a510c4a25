import type { Exchange } from '../model/exchange.ts';
import { fail, inconclusive, pass, type Finding } from '../model/finding.ts';
import { describeResponse } from './json-body.ts';
import { refusalFindings } from './ledger-acceptance.ts';
import { describeRows, rowSetDifference, type LedgerPage } from './ledger-page.ts';
import { isComplete, walkExchanges, type Walk } from './ledger-walk.ts';
import { walkTrouble } from './ledger-window-rows.ts';
import { judged } from './judged.ts';

export const CURSOR_REPLAY_STABLE = 'ledger/4.1/cursor-replay-stable';
export const CURSOR_WORKSPACE_BOUND = 'ledger/4.1/cursor-workspace-bound';
export const WORKSPACES_DISJOINT = 'ledger/4.1/workspaces-disjoint';

/**
 * The same cursor twice: the same rows (in any order; a new next_cursor is fine), or a refusal
 * with 400 and the envelope (a cursor valid once: the spec does not say a cursor can be passed
 * twice). Other rows for the same cursor are a position that moved.
 */
export const replayFindings = judged('ledger-cursor-findings/replayFindings', function replayFindings(first: LedgerPage, again: LedgerPage): Finding[] {
  const ex = [first.exchange, again.exchange];
  if (!first.ok) return [];
  if (!again.ok) {
    const refused = refusalFindings(CURSOR_REPLAY_STABLE, again.exchange);
    if (refused[0]?.verdict !== 'pass') {
      return [fail(CURSOR_REPLAY_STABLE, 'the same page, or 400 with the envelope, when a cursor is passed again', describeResponse(again.exchange), ex), ...refused.slice(1)];
    }
    return [pass(CURSOR_REPLAY_STABLE, ex, 'the cursor was refused the second time (a cursor valid once)'), ...refused.slice(1)];
  }
  const { missing, extra } = rowSetDifference(again.rows, first.rows);
  if (missing.length === 0 && extra.length === 0) return [pass(CURSOR_REPLAY_STABLE, ex)];
  const parts = [
    ...(missing.length > 0 ? [`the second answer lacks ${describeRows(missing)}`] : []),
    ...(extra.length > 0 ? [`the second answer adds ${describeRows(extra)}`] : []),
  ];
  return [fail(CURSOR_REPLAY_STABLE, `the same ${first.rows.length} rows for the same cursor`, parts.join('; '), ex)];
});

/**
 * A cursor of one workspace passed with another workspace's token: refusing it is fine, and so is
 * a page of the other workspace's own rows; rows of the first workspace are a leak.
 */
export const foreignCursorFindings = judged('ledger-cursor-findings/foreignCursorFindings', function foreignCursorFindings(exchange: Exchange, page: LedgerPage, ownKeys: ReadonlySet<string>): Finding[] {
  const leaked = page.rows.filter((r) => ownKeys.has(r.key));
  if (leaked.length > 0) {
    return [fail(CURSOR_WORKSPACE_BOUND, "no row of the cursor's workspace for another workspace's token", `${leaked.length} rows of the first workspace: ${describeRows(leaked)}`, [exchange])];
  }
  return [pass(CURSOR_WORKSPACE_BOUND, [exchange])];
});

/** The other workspace's ledger shares no operation with the primary workspace's rows. */
export const disjointFindings = judged('ledger-cursor-findings/disjointFindings', function disjointFindings(other: Walk, ownKeys: ReadonlySet<string>): Finding[] {
  const ex = walkExchanges(other);
  const shared = other.rows.filter((r) => ownKeys.has(r.key));
  if (shared.length > 0) {
    return [fail(WORKSPACES_DISJOINT, 'no operation in both workspaces', `${shared.length} operations of the primary workspace listed for the other: ${describeRows(shared)}`, ex)];
  }
  if (!isComplete(other) && other.rows.length === 0) return [inconclusive(WORKSPACES_DISJOINT, walkTrouble(other) ?? 'no rows', ex)];
  return [pass(WORKSPACES_DISJOINT, ex)];
});
