import type { Exchange } from '../../lib/model/exchange.ts';
import type { LedgerQuery, PageFetcher } from '../../lib/checks/ledger-walk.ts';

let seq = 0;
const NOW_S = Math.floor(Date.parse('2025-03-01T12:00:00Z') / 1000);

/** Headers of a read served with 599 points left, as §8.1 describes them. */
export function readHeaders(): Record<string, string> {
  return { 'x-ratelimit-pool': 'read', 'x-ratelimit-limit': '600', 'x-ratelimit-remaining': '599', 'x-ratelimit-reset': String(NOW_S + 60), 'x-request-id': 'req_1' };
}

/** A recorded GET /credits/operations answer. */
export function ledgerExchange(body: unknown, options: { status?: number; headers?: Record<string, string>; url?: string } = {}): Exchange {
  seq += 1;
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  return {
    seq,
    startedAt: '2025-03-01T12:00:00.000Z',
    request: { method: 'GET', url: options.url ?? 'http://127.0.0.1:1/v1/credits/operations', headers: { authorization: 'Bearer $ASI_TOKEN' }, tokenRole: 'primary' },
    response: { status: options.status ?? 200, headers: { 'content-type': 'application/json', ...(options.headers ?? readHeaders()) }, body: text, bodyBytes: Buffer.byteLength(text), truncated: false },
    timings: { totalMs: 2 },
    pool: 'read',
  };
}

/** A valid ledger row; `n` makes the uuid, `timestamp` defaults to a fixed instant. */
export function row(n: number, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    operation_uuid: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
    operation_type: 'agent_message',
    feature: 'deal_agent',
    credits: 1,
    metadata: {},
    timestamp: '2025-02-20T10:00:00Z',
    ...overrides,
  };
}

export function page(rows: unknown[], nextCursor: string | null): Record<string, unknown> {
  return { operations: rows, next_cursor: nextCursor };
}

export function errorExchange(status: number, code = 'request.validation_failed', category = 'permanent'): Exchange {
  return ledgerExchange({ error: { code, category, message: 'no', request_id: 'req_1' } }, { status });
}

/**
 * A fetcher that answers from a table: the key is the cursor ('' for the first page), the value
 * the body or a whole exchange. Records the calls.
 */
export function tableFetcher(table: Record<string, unknown>): PageFetcher & { calls: Array<{ query: LedgerQuery; cursor: string | undefined }> } {
  const calls: Array<{ query: LedgerQuery; cursor: string | undefined }> = [];
  const fetcher = async (query: LedgerQuery, cursor: string | undefined): Promise<Exchange> => {
    calls.push({ query, cursor });
    const entry = table[cursor ?? ''];
    if (entry === undefined) return errorExchange(400);
    if (typeof entry === 'object' && entry !== null && 'seq' in entry) return entry as Exchange;
    return ledgerExchange(entry);
  };
  return Object.assign(fetcher, { calls });
}

export interface PagedServerOptions {
  /** Rows in time order: the instant (Unix ms) of row `i`, non-decreasing in `i`. */
  instantOf: (i: number) => number;
  count: number;
  /** The server's clock (also sent as the Date header). */
  now: number;
  /** Time order either way, or `scattered`: a fixed permutation that spreads every page across the window. */
  order?: 'asc' | 'desc' | 'scattered';
  /** At most this many rows a page, whatever `limit` says. */
  pageCap?: number;
  /** The default window's start, given the server's now. Default: 30 × 24 hours before it. */
  defaultFrom?: (now: number) => number;
}

/**
 * A paginating ledger server over rows given as a function of their index (so a test ledger may
 * hold a million rows): `from`/`to` select an index range, pages follow the order and the cursor
 * is the next index. Records how many requests it answered.
 */
export function pagedServer(options: PagedServerOptions): PageFetcher & { requests: number } {
  const { instantOf, count, now } = options;
  const order = options.order ?? 'desc';
  const first = (ms: number): number => {
    let lo = 0;
    let hi = count;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (instantOf(mid) >= ms) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  };
  const headers = { ...readHeaders(), date: new Date(now).toUTCString() };
  const fetcher = async (q: LedgerQuery, cursor: string | undefined): Promise<Exchange> => {
    server.requests += 1;
    const bounded = q.from !== undefined || q.to !== undefined;
    const lo = first(bounded ? (q.from === undefined ? -Infinity : Date.parse(q.from)) : (options.defaultFrom?.(now) ?? now - 30 * 86_400_000));
    const hi = first(bounded ? (q.to === undefined ? Infinity : Date.parse(q.to)) : now);
    const limit = Math.min(q.limit === undefined ? 50 : Number(q.limit), options.pageCap ?? Infinity);
    const n = Math.max(0, hi - lo);
    // The k-th row listed: in time order, or at a stride coprime to n (a permutation of the window).
    const stride = [7919, 104_729, 1_299_709].find((p) => n % p !== 0) ?? 1;
    const nth = (k: number): number => (order === 'asc' ? lo + k : order === 'desc' ? hi - 1 - k : lo + ((k * stride) % n));
    const at = cursor === undefined ? 0 : Number(cursor);
    const indices: number[] = [];
    for (let k = at; indices.length < limit && k < n; k++) indices.push(nth(k));
    const next = at + indices.length;
    const more = next < n;
    const rows = indices.map((i) => row(i, { timestamp: new Date(instantOf(i)).toISOString() }));
    return ledgerExchange(page(rows, more ? String(next) : null), { headers });
  };
  const server = Object.assign(fetcher, { requests: 0 });
  return server;
}
