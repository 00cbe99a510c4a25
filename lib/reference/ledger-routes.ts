import { LEDGER_PATH } from '../spec-constants.ts';
import type { ExchangeContext, Route } from './exchange-context.ts';
import { ledgerBehaviour, type LedgerBehaviour } from './ledger-behaviour.ts';
import { decodeCursor, encodeCursor, ServerSideCursors, type CursorState, type DecodedCursor } from './ledger-cursor.ts';
import { defaultWindow, inWindow, parseLedgerParameters, type LedgerParameters, type LedgerWindow, type ParameterError } from './ledger-query.ts';
import { seedWorkspaces } from './ledger-seed.ts';
import type { StoredOperation } from './ledger-store.ts';
import type { ReferenceState } from './state.ts';

/** Lays out the deterministic seeded ledger of both workspaces. */
export function seedLedger(state: ReferenceState): void {
  seedWorkspaces(state.ledger, state.seedNow);
}

/** §4.1 GET /credits/operations. */
export function ledgerRoutes(): Route[] {
  return [{ path: LEDGER_PATH, methods: ['GET', 'HEAD'], handler: listOperations }];
}

/** What one page request lists: the query (fixed by the first page) and where the walk stands. */
interface Listing {
  workspace: string;
  window: LedgerWindow;
  feature: string | null;
  order: 'asc' | 'desc';
  after?: { at: number; uuid: string };
  offset?: number;
}

type Resumed = { ok: true; listing: Listing } | { ok: false; reason: string };

const serverSideCursors = new WeakMap<ReferenceState, ServerSideCursors>();
const usedCursors = new WeakMap<ReferenceState, Set<string>>();

function cursorTable(state: ReferenceState): ServerSideCursors {
  let table = serverSideCursors.get(state);
  if (table === undefined) {
    table = new ServerSideCursors();
    serverSideCursors.set(state, table);
  }
  return table;
}

function refuse(ctx: ExchangeContext, error: ParameterError): void {
  ctx.sendError(400, 'request.validation_failed', 'permanent', `Invalid ${error.parameter}: ${error.reason}.`, { parameter: error.parameter, reason: error.reason });
}

function listOperations(ctx: ExchangeContext): void {
  const b = ledgerBehaviour(ctx.state);
  if (b.rateLimitHeadersDropped) {
    for (const name of Object.keys(ctx.headers)) if (name.startsWith('x-ratelimit-')) delete ctx.headers[name];
  }
  const parsed = parseLedgerParameters(ctx.url.searchParams, b);
  if (!parsed.ok) return refuse(ctx, parsed.error);
  const p = parsed.parameters;
  const workspace = ctx.token!.workspace;
  let listing: Listing;
  if (p.cursor === undefined) {
    listing = { workspace, window: p.window ?? defaultWindow(ctx.state.now(), b), feature: p.feature ?? null, order: b.order };
  } else {
    const resumed = resume(ctx, p, p.cursor, b);
    if (!resumed.ok) return refuse(ctx, { parameter: 'cursor', reason: resumed.reason });
    listing = resumed.listing;
  }
  servePage(ctx, listing, p.limit, p.cursor, b);
}

function decode(ctx: ExchangeContext, text: string, b: LedgerBehaviour): DecodedCursor {
  if (b.serverSideCursors) return cursorTable(ctx.state).lookup(text);
  return decodeCursor(text, ctx.state.ledger.cursorSecret, b.cursorFormat, { unsigned: b.cursorUnsigned });
}

/**
 * Continues the listing a cursor belongs to. The cursor carries the query; a request may repeat
 * `from`, `to` and `feature` alongside it, and they must then be the ones the walk began with.
 * `limit` may change from page to page.
 */
function resume(ctx: ExchangeContext, p: LedgerParameters, given: string, b: LedgerBehaviour): Resumed {
  // Defect: the value is form-decoded a second time, so a `+` in it turns into a space.
  const text = b.cursorPlusAsSpace ? given.replace(/\+/g, ' ') : given;
  const decoded = decode(ctx, text, b);
  if (!decoded.ok) {
    if (b.cursorGarbage500) throw new Error(`cursor decoding failed: ${decoded.reason}`);
    return decoded;
  }
  if (b.cursorSingleUse) {
    let used = usedCursors.get(ctx.state);
    if (used === undefined) usedCursors.set(ctx.state, (used = new Set()));
    if (used.has(text)) return { ok: false, reason: 'the cursor was already used' };
    used.add(text);
  }
  const s = decoded.state;
  const tokenWorkspace = ctx.token!.workspace;
  if (s.workspace !== tokenWorkspace && !b.cursorCrossWorkspace) return { ok: false, reason: 'the cursor belongs to another workspace' };
  if (p.window !== undefined && (s.implicit || s.fromMs !== p.window.fromMs || s.toMs !== p.window.toMs)) {
    return { ok: false, reason: 'the cursor belongs to another window' };
  }
  if (p.feature !== undefined && !b.cursorForgetsFeature && p.feature !== s.feature) return { ok: false, reason: 'the cursor belongs to another feature filter' };
  // Defect: the default window is computed again for every page instead of staying pinned.
  const window = s.implicit && b.defaultWindowSlides ? defaultWindow(ctx.state.now(), b) : { fromMs: s.fromMs, toMs: s.toMs, implicit: s.implicit };
  const listing: Listing = {
    workspace: b.cursorCrossWorkspace ? s.workspace : tokenWorkspace,
    window,
    feature: b.cursorForgetsFeature ? null : s.feature,
    order: s.order,
  };
  if (s.after !== undefined) listing.after = s.after;
  if (s.offset !== undefined) listing.offset = s.offset;
  return { ok: true, listing };
}

function compareRows(a: StoredOperation, b: StoredOperation): number {
  return a.at - b.at || (a.operation_uuid < b.operation_uuid ? -1 : a.operation_uuid > b.operation_uuid ? 1 : 0);
}

/** Whether `row` comes after the keyset position in the listing's order. */
function isAfter(row: StoredOperation, after: { at: number; uuid: string }, order: 'asc' | 'desc', skipTies: boolean): boolean {
  const sign = order === 'asc' ? 1 : -1;
  const byTime = sign * (row.at - after.at);
  if (byTime !== 0 || skipTies) return byTime > 0;
  return sign * (row.operation_uuid < after.uuid ? -1 : row.operation_uuid > after.uuid ? 1 : 0) > 0;
}

function rowsOf(ctx: ExchangeContext, listing: Listing, b: LedgerBehaviour): StoredOperation[] {
  const store = ctx.state.ledger;
  // Defect: the listing is not narrowed to one workspace.
  const source = b.workspacesShareRows ? store.workspaces().flatMap((w) => store.rows(w)) : store.rows(listing.workspace);
  const feature = listing.feature;
  const matches = (row: StoredOperation): boolean =>
    feature === null || (b.featurePrefixMatch ? row.feature.startsWith(feature) : row.feature === feature);
  const sign = listing.order === 'asc' ? 1 : -1;
  return source.filter((row) => inWindow(row.at, listing.window, b) && matches(row)).sort((x, y) => sign * compareRows(x, y));
}

/** A stable small number from a row, for the switches that touch only some rows. */
function rowHash(row: StoredOperation): number {
  return Number.parseInt(row.operation_uuid.slice(0, 6), 16);
}

/** Rows in the spec's shape. > timestamp | Always output as full ISO 8601 with a trailing `Z`. */
function renderRow(row: StoredOperation, workspace: string, b: LedgerBehaviour): Record<string, unknown> {
  let timestamp = new Date(row.at).toISOString();
  if (b.timestampPlusZero) timestamp = timestamp.replace(/Z$/, '+00:00');
  if (b.timestampSomeOffset && rowHash(row) % 7 === 0) timestamp = new Date(row.at + 2 * 3_600_000).toISOString().replace(/Z$/, '+02:00');
  const rendered: Record<string, unknown> = {
    operation_uuid: row.operation_uuid,
    operation_type: row.operation_type,
    feature: row.feature,
    credits: b.creditsAsString ? String(row.credits) : row.credits,
    metadata: b.metadataSometimesNull && rowHash(row) % 9 === 0 ? null : row.metadata,
    timestamp,
  };
  if (b.extraFields) {
    rendered['workspace_id'] = workspace;
    rendered['unit'] = 'credits';
  }
  return rendered;
}

function shuffled<T>(list: T[]): T[] {
  const out = [...list];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/** Rows on this page: `limit`, except for the switches that change it. */
function pageSize(limit: number, remaining: number, listing: Listing, b: LedgerBehaviour): number {
  if (b.extraRowPerPage) return limit + 1;
  if (b.shortPages && remaining > limit) {
    // Variant: a non-final page may hold fewer rows than `limit`; the spec does not say it is full.
    const seed = (listing.after?.at ?? 0) + (listing.offset ?? 0) + remaining;
    return 1 + (seed % limit);
  }
  return limit;
}

function servePage(ctx: ExchangeContext, listing: Listing, limit: number, givenCursor: string | undefined, b: LedgerBehaviour): void {
  const all = rowsOf(ctx, listing, b);
  let rest: StoredOperation[];
  if (listing.offset !== undefined) rest = all.slice(listing.offset);
  else if (listing.after !== undefined) rest = all.filter((row) => isAfter(row, listing.after!, listing.order, b.keysetSkipsTies));
  else rest = all;
  const page = rest.slice(0, pageSize(limit, rest.length, listing, b));
  const last = page[page.length - 1];
  const more = rest.length > page.length;

  // > next_cursor | Opaque cursor for the next page. It is null when there is no further page.
  let next: string | null = null;
  if (more || (b.cursorOnLastPage && (last !== undefined || givenCursor !== undefined))) {
    const state: CursorState = {
      workspace: listing.workspace,
      fromMs: listing.window.fromMs,
      toMs: listing.window.toMs,
      implicit: listing.window.implicit,
      feature: b.cursorForgetsFeature ? null : listing.feature,
      order: listing.order,
    };
    if (b.offsetCursor) state.offset = (listing.offset ?? 0) + page.length;
    else {
      const after = last === undefined ? listing.after : { at: last.at, uuid: last.operation_uuid };
      if (after !== undefined) state.after = after;
    }
    next = b.serverSideCursors ? cursorTable(ctx.state).issue(state) : encodeCursor(state, ctx.state.ledger.cursorSecret, b.cursorFormat);
  }

  const rows = (b.rowsShuffled ? shuffled(page) : page).map((row) => renderRow(row, listing.workspace, b));
  const body: Record<string, unknown> = {
    operations: b.operationsKeyed ? Object.fromEntries(rows.map((r) => [r['operation_uuid'], r])) : rows,
  };
  if (next !== null || !b.nextCursorOmitted) body['next_cursor'] = next;
  if (b.extraFields) {
    body['has_more'] = next !== null;
    body['limit'] = limit;
    body['window'] = {
      from: listing.window.fromMs === null ? null : new Date(listing.window.fromMs).toISOString(),
      to: listing.window.toMs === null ? null : new Date(listing.window.toMs).toISOString(),
    };
  }
  ctx.sendJson(200, body);
}
