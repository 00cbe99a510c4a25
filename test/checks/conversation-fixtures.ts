import type { Exchange, SseEventRecord } from '../../lib/model/exchange.ts';

/** Pool headers as a well-behaved server sends them now. */
export function poolHeaders(pool: 'read' | 'write', limit = pool === 'read' ? 600 : 60): Record<string, string> {
  return {
    'x-ratelimit-pool': pool,
    'x-ratelimit-limit': String(limit),
    'x-ratelimit-remaining': String(limit - 1),
    'x-ratelimit-reset': String(Math.ceil(Date.now() / 1000) + 60),
  };
}

export const POOLS = { read: 600, write: 60, windowS: 60 };

/** A recorded exchange with a JSON (or any text) body. */
export function answer(
  status: number,
  body: unknown,
  options: { method?: string; headers?: Record<string, string>; accept?: string; events?: SseEventRecord[]; closed?: boolean } = {},
): Exchange {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  const contentType = options.events === undefined ? 'application/json' : 'text/event-stream';
  const ex: Exchange = {
    seq: 1,
    startedAt: new Date().toISOString(),
    request: {
      method: options.method ?? 'POST',
      url: 'http://target.test/v1/deal-agents/da_1/messages',
      headers: options.accept === undefined ? {} : { accept: options.accept },
      body: '{"message":"hi"}',
    },
    response: { status, headers: { 'content-type': contentType, 'x-request-id': 'req_1', ...options.headers }, body: text, bodyBytes: text.length, truncated: false },
    timings: { totalMs: 5 },
  };
  if (options.events !== undefined) {
    ex.response!.events = options.events;
    ex.response!.chunkTimes = options.events.map((e) => e.atMs);
    ex.response!.streamClosed = options.closed ?? true;
  }
  return ex;
}

export function envelope(code: string, category: string): unknown {
  return { error: { code, category, message: 'm', request_id: 'req_1' } };
}

export const ev = (event: string, data: unknown, atMs = 0): SseEventRecord => ({ event, data: JSON.stringify(data), atMs });

export const DONE = ev('done', { conversation_id: 'c', messages: [] });
