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
