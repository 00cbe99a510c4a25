import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Where a walk stands, and the query it walks: the window (pinned when the first page was
 * served), the feature filter, the order and the workspace. A cursor carries all of it, so a
 * page request that passes a cursor continues exactly the listing that produced it.
 */
export interface CursorState {
  workspace: string;
  fromMs: number | null;
  toMs: number | null;
  /** The window was the default one (neither bound given). */
  implicit: boolean;
  feature: string | null;
  order: 'asc' | 'desc';
  /** Keyset position: the last row served, by (at, operation_uuid). */
  after?: { at: number; uuid: string };
  /** Position by count of rows served (defect `ledger-offset-cursor` only). */
  offset?: number;
  /** Position by count of rows left (defect `ledger-cursor-counts-remaining` only). */
  remaining?: number;
}

/** The cursor text formats the reference can speak. */
export type CursorFormat =
  /** `<payload>.<mac>`, both base64url: signed, stateless. */
  | 'signed'
  /** Signed, wrapped in characters that need percent-encoding in a query (variant). */
  | 'reserved-characters'
  /** Signed, with `+` as separator (defect `ledger-cursor-plus-as-space`). */
  | 'plus-separated';

export type DecodedCursor = { ok: true; state: CursorState } | { ok: false; reason: string };

const MAC_BYTES = 16;
const RESERVED_PREFIX = '~ ';
const RESERVED_SUFFIX = '&=/?#%é';

function mac(secret: Buffer, payload: string): string {
  return createHmac('sha256', secret).update(payload).digest().subarray(0, MAC_BYTES).toString('base64url');
}

function payloadOf(state: CursorState): string {
  const p: Record<string, unknown> = { w: state.workspace, f: state.fromMs, t: state.toMs, i: state.implicit ? 1 : 0, ft: state.feature, o: state.order };
  if (state.after !== undefined) p['k'] = [state.after.at, state.after.uuid];
  if (state.offset !== undefined) p['n'] = state.offset;
  if (state.remaining !== undefined) p['r'] = state.remaining;
  return Buffer.from(JSON.stringify(p), 'utf8').toString('base64url');
}

export function encodeCursor(state: CursorState, secret: Buffer, format: CursorFormat): string {
  const payload = payloadOf(state);
  const signature = mac(secret, payload);
  if (format === 'plus-separated') return `${payload}+${signature}`;
  if (format === 'reserved-characters') return `${RESERVED_PREFIX}${payload}.${signature}${RESERVED_SUFFIX}`;
  return `${payload}.${signature}`;
}

function isNumberOrNull(v: unknown): v is number | null {
  return v === null || (typeof v === 'number' && Number.isFinite(v));
}

/** Reads the payload object back into a state, refusing anything of the wrong shape. */
function stateOf(value: unknown): CursorState | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const p = value as Record<string, unknown>;
  const { w, f, t, i, ft, o, k, n, r } = p;
  if (typeof w !== 'string' || !isNumberOrNull(f) || !isNumberOrNull(t) || (i !== 0 && i !== 1)) return undefined;
  if (ft !== null && typeof ft !== 'string') return undefined;
  if (o !== 'asc' && o !== 'desc') return undefined;
  const state: CursorState = { workspace: w, fromMs: f, toMs: t, implicit: i === 1, feature: ft, order: o };
  if (k !== undefined) {
    if (!Array.isArray(k) || k.length !== 2 || typeof k[0] !== 'number' || typeof k[1] !== 'string') return undefined;
    state.after = { at: k[0], uuid: k[1] };
  }
  if (n !== undefined) {
    if (typeof n !== 'number' || !Number.isInteger(n) || n < 0) return undefined;
    state.offset = n;
  }
  if (r !== undefined) {
    if (typeof r !== 'number' || !Number.isInteger(r) || r < 0) return undefined;
    state.remaining = r;
  }
  return state;
}

export interface DecodeOptions {
  /** Skips the signature check (defect `ledger-cursor-unsigned`). */
  unsigned?: boolean;
}

export function decodeCursor(text: string, secret: Buffer, format: CursorFormat, options: DecodeOptions = {}): DecodedCursor {
  let body = text;
  if (format === 'reserved-characters') {
    if (!body.startsWith(RESERVED_PREFIX) || !body.endsWith(RESERVED_SUFFIX)) return { ok: false, reason: 'not a cursor of this server' };
    body = body.slice(RESERVED_PREFIX.length, body.length - RESERVED_SUFFIX.length);
  }
  const parts = body.split(format === 'plus-separated' ? '+' : '.');
  if (parts.length !== 2) return { ok: false, reason: 'not a cursor of this server' };
  const [payload, signature] = parts as [string, string];
  if (options.unsigned !== true) {
    const expected = Buffer.from(mac(secret, payload));
    const given = Buffer.from(signature);
    // Compared as text: two encodings of the same bytes are still two different cursors.
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { ok: false, reason: 'the cursor was altered or was not issued by this server' };
  }
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    return { ok: false, reason: 'the cursor cannot be read' };
  }
  const state = stateOf(value);
  return state === undefined ? { ok: false, reason: 'the cursor cannot be read' } : { ok: true, state };
}

/**
 * Variant `ledger-cursor-server-side`: cursors are random ids of states kept by the server.
 * A cursor can be passed any number of times; the oldest ids are forgotten past a bound.
 */
export class ServerSideCursors {
  readonly #states = new Map<string, CursorState>();
  readonly #capacity: number;

  constructor(capacity = 50_000) {
    this.#capacity = capacity;
  }

  issue(state: CursorState): string {
    const id = randomBytes(18).toString('base64url');
    this.#states.set(id, state);
    if (this.#states.size > this.#capacity) {
      const oldest = this.#states.keys().next().value;
      if (oldest !== undefined) this.#states.delete(oldest);
    }
    return id;
  }

  lookup(id: string): DecodedCursor {
    const state = this.#states.get(id);
    return state === undefined ? { ok: false, reason: 'unknown cursor' } : { ok: true, state };
  }
}
