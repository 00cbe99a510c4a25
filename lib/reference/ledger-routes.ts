import { LEDGER_PATH } from '../spec-constants.ts';
import type { ExchangeContext, Route } from './exchange-context.ts';
import { ledgerBehaviour, type LedgerBehaviour } from './ledger-behaviour.ts';
import { decodeCursor, encodeCursor, ServerSideCursors, type CursorState, type DecodedCursor } from './ledger-cursor.ts';
import { defaultWindow, parseLedgerParameters, type LedgerParameters, type LedgerWindow, type ParameterError } from './ledger-query.ts';
import { generateWorkspaces, seedWorkspaces } from './ledger-seed.ts';
import type { LedgerScan, LedgerStore, StoredOperation } from './ledger-store.ts';
import type { ReferenceState } from './state.ts';

/** Lays out the deterministic seeded ledger of both workspaces, and the generated rows the shape asks for. */
export function seedLedger(state: ReferenceState): void {
  seedWorkspaces(state.ledger, state.seedNow, { longFeatures: state.ledgerShape.longFeatures, recentBatch: state.ledgerShape.recentBatch });
  generateWorkspaces(state.ledger, state.seedNow, state.ledgerShape.generatedRows);
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
  /** Rows left after the page that issued the cursor (defect `ledger-cursor-counts-remaining` only). */
  remaining?: number;
}

type Resumed = { ok: true; listing: Listing } | { ok: false; reason: string };

const serverSideCursors = new WeakMap<ReferenceState, ServerSideCursors>();
/** How often each cursor text was passed, for the switches that remember it. */
const cursorUses = new WeakMap<ReferenceState, Map<string, number>>();

function countUse(state: ReferenceState, text: string): number {
  let uses = cursorUses.get(state);
  if (uses === undefined) cursorUses.set(state, (uses = new Map()));
  const n = (uses.get(text) ?? 0) + 1;
  uses.set(text, n);
  return n;
}

function cursorTable(state: ReferenceState): ServerSideCursors {
  let table = serverSideCursors.get(state);
  if (table === undefined) {
    table = new ServerSideCursors();
    serverSideCursors.set(state, table);
  }
  return table;
}

function refuse(ctx: ExchangeContext, error: ParameterError, b: LedgerBehaviour): void {
  const message = `Invalid ${error.parameter}: ${error.reason}.`;
  const details = { parameter: error.parameter, reason: error.reason };
  // Defect: the ledger's own refusals carry a request_id of their own, not the X-Request-Id.
  if (b.refusalRequestIdMismatch) ctx.errorRequestId = `${ctx.requestId}-ledger`;
  ctx.sendError(400, 'request.validation_failed', 'permanent', message, details);
}

/** The page a web server shows for its own failure: what defect `ledger-upstream-500-html` answers. */
const SERVER_ERROR_PAGE = '<!doctype html>\n<html><head><title>500 Internal Server Error</title></head><body><h1>Internal Server Error</h1></body></html>\n';

function listOperations(ctx: ExchangeContext): void {
  // The reference's ledger does not depend on the agents' upstream (docs/reference.md); the defect
  // makes it depend on it and fail with the server's own error page.
  if (ctx.state.faults.has('upstream_unavailable') && ctx.state.defects.has('ledger-upstream-500-html')) {
    return ctx.send(500, SERVER_ERROR_PAGE, { 'content-type': 'text/html; charset=utf-8' });
  }
  const b = ledgerBehaviour(ctx.state);
  if (b.rateLimitHeadersDropped) ctx.dropPoolHeaders();
  const parsed = parseLedgerParameters(ctx.url.search, b);
  if (!parsed.ok) return refuse(ctx, parsed.error, b);
  const p = parsed.parameters;
  const workspace = ctx.token!.workspace;
  let listing: Listing;
  let skip = 0;
  if (p.cursor === undefined || (b.cursorJsonAccepted && isEmptyJsonObject(p.cursor))) {
    // Variant: a cursor written as a JSON object without a position (`{}`) starts the listing.
    listing = { workspace, window: p.window ?? windowWithoutBounds(ctx, p, b), feature: p.feature ?? null, order: b.order };
  } else {
    const resumed = resume(ctx, p, p.cursor, b);
    if (!resumed.ok) return refuse(ctx, { parameter: 'cursor', reason: resumed.reason }, b);
    listing = resumed.listing;
    // Defect: the server keeps a position per cursor and moves it on each time the cursor is used.
    if (b.cursorReplayAdvances) skip = (countUse(ctx.state, `replay ${p.cursor}`) - 1) * p.limit;
  }
  servePage(ctx, listing, p, b, skip);
}

/** > When neither bound is given, the window is the last 30 days. */
function windowWithoutBounds(ctx: ExchangeContext, p: LedgerParameters, b: LedgerBehaviour): LedgerWindow {
  // Defect: a filtered listing without bounds reads all of that feature's rows.
  if (b.featureUnboundedDefault && p.feature !== undefined) return { fromMs: null, toMs: null, implicit: true };
  return defaultWindow(ctx.state.now(), b);
}

function isEmptyJsonObject(text: string): boolean {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) && Object.keys(value).length === 0;
  } catch {
    return false;
  }
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
  // Variant: a cursor is valid once, and passing it again is refused.
  if (b.cursorSingleUse && countUse(ctx.state, `single ${text}`) > 1) return { ok: false, reason: 'the cursor was already used' };
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
  if (s.remaining !== undefined) listing.remaining = s.remaining;
  return { ok: true, listing };
}

/** What the listing reads from the store: its window, filter and order, from its keyset position on. */
function scanOf(listing: Listing, b: LedgerBehaviour, store: LedgerStore): LedgerScan {
  const feature = listing.feature;
  const scan: LedgerScan = {
    // Defect: the listing is not narrowed to one workspace.
    workspaces: b.workspacesShareRows ? store.workspaces() : [listing.workspace],
    fromMs: listing.window.fromMs,
    fromStrict: b.fromExclusive,
    toMs: listing.window.toMs,
    toInclusive: b.toInclusive,
    match: (f) => feature === null || (b.featurePrefixMatch ? f.startsWith(feature) : f === feature),
    order: listing.order,
  };
  if (listing.after !== undefined) scan.after = { ...listing.after, skipTies: b.keysetSkipsTies };
  return scan;
}

/** Up to `count` rows from the start of an iterator, skipping `skip` first. */
function take<T>(rows: Iterator<T>, count: number, skip = 0): T[] {
  const out: T[] = [];
  for (let i = 0; out.length < count; i++) {
    const next = rows.next();
    if (next.done === true) break;
    if (i >= skip) out.push(next.value);
  }
  return out;
}

/** A stable small number from a row, for the switches that touch only some rows. */
function rowHash(row: StoredOperation): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < row.operation_uuid.length; i++) h = Math.imul(h ^ row.operation_uuid.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** Rows in the spec's shape. > timestamp | Always output as full ISO 8601 with a trailing `Z`. */
function renderRow(row: StoredOperation, workspace: string, b: LedgerBehaviour): Record<string, unknown> {
  let timestamp = new Date(row.at).toISOString();
  if (b.microsecondTimestamps) timestamp = timestamp.replace(/Z$/, '000Z');
  if (b.timestampPlusZero || (b.timestampPlusZeroElsewhere && workspace !== 'ws_1')) timestamp = timestamp.replace(/Z$/, '+00:00');
  if (b.timestampSomeOffset && rowHash(row) % 7 === 0) timestamp = new Date(row.at + 2 * 3_600_000).toISOString().replace(/Z$/, '+02:00');
  const rendered: Record<string, unknown> = {
    operation_uuid: b.opaqueOperationIds ? `op_${row.operation_uuid.replaceAll('-', '').slice(0, 20)}` : row.operation_uuid,
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

/** Rows this listing has in all, counted (defect `ledger-cursor-counts-remaining` only). */
function countRows(store: LedgerStore, listing: Listing, b: LedgerBehaviour): number {
  const rows = store.scan(scanOf({ ...listing, after: undefined }, b, store));
  let n = 0;
  while (rows.next().done !== true) n += 1;
  return n;
}

function servePage(ctx: ExchangeContext, listing: Listing, p: LedgerParameters, b: LedgerBehaviour, skipped: number): void {
  const store = ctx.state.ledger;
  const { limit, cursor: givenCursor } = p;
  let skip = skipped + (listing.offset ?? 0);
  // Defect: the position is the count of rows left, and the rows now in the listing are counted again.
  if (listing.remaining !== undefined) skip += Math.max(0, countRows(store, listing, b) - listing.remaining);
  // Rows on this page: `limit`, or fewer under a page cap (variant); one more is read to know whether any is left.
  let size = b.extraRowPerPage ? limit + 1 : Math.min(limit, b.pageCap ?? limit);
  // Defect: without `limit`, the cursor moves on by twice the page (an older default), past rows never served.
  const stride = b.defaultLimitCursorSkips && !p.limitGiven ? 2 : 1;
  // Defect: a window that ends before the default window begins is read without its `to` (an
  // older index of the rows, say, that only the recent days' reads ever exercised).
  const oldTo = b.oldWindowToIgnored && listing.window.toMs !== null && listing.window.toMs < defaultWindow(ctx.state.now(), b).fromMs!;
  const scanned = oldTo ? { ...listing, window: { ...listing.window, toMs: null } } : listing;
  const read = take(store.scan(scanOf(scanned, b, store)), stride * size + 1, skip);
  // Variant: a non-final page may hold fewer rows than `limit`; the spec does not say it is full.
  if (b.shortPages && read.length > size) size = 1 + (read[0]!.at % size);
  const page = read.slice(0, size);
  const last = stride === 1 ? page[page.length - 1] : read[Math.min(read.length - 1, stride * size - 1)];
  const more = read.length > (stride === 1 ? page.length : stride * size);

  // > next_cursor | Opaque cursor for the next page. It is null when there is no further page.
  let next: string | null = null;
  const pointless = (b.cursorOnLastPage && (last !== undefined || givenCursor !== undefined)) || (b.cursorToEmptyPage && last !== undefined);
  if (more || pointless) {
    const state: CursorState = {
      workspace: listing.workspace,
      fromMs: listing.window.fromMs,
      toMs: listing.window.toMs,
      implicit: listing.window.implicit,
      feature: b.cursorForgetsFeature ? null : listing.feature,
      order: listing.order,
    };
    if (b.offsetCursor) state.offset = (listing.offset ?? 0) + page.length;
    else if (b.cursorCountsRemaining) state.remaining = countRows(store, listing, b) - (skip + page.length);
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
  ctx.sendJson(200, body, ctx.mislabelledIf('ledger-page-as-text-plain'));
}
