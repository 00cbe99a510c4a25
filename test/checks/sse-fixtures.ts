import { readEventStream, type StreamBudget, type StreamReading } from '../../lib/http/event-stream-reader.ts';
import type { Exchange, SseEventRecord } from '../../lib/model/exchange.ts';

export type LineEnd = '\n' | '\r\n' | '\r';

export const LINE_ENDS: ReadonlyArray<[string, LineEnd]> = [
  ['LF', '\n'],
  ['CRLF', '\r\n'],
  ['CR', '\r'],
];

/** A budget no in-memory test comes near. */
export const GENEROUS: StreamBudget = { totalMs: 10_000, idleMs: 5_000, maxBytes: 1 << 20 };

/** Frames events as an event stream: `event:` and one `data:` line each, then a blank line. */
export function frame(events: ReadonlyArray<[string, unknown]>, eol: LineEnd = '\n'): string {
  return events.map(([name, data]) => `event: ${name}${eol}data: ${typeof data === 'string' ? data : JSON.stringify(data)}${eol}${eol}`).join('');
}

/** A well-formed turn: deltas (one with a multi-byte character), a tool call and its result, done. */
export const GOOD_TURN: ReadonlyArray<[string, unknown]> = [
  ['text_delta', { content: 'Grüße ' }],
  ['tool_use', { id: 't1', tool_name: 'crm.get_deal' }],
  ['tool_result', { id: 't1' }],
  ['text_delta', { content: 'from 日本 👋🏽' }],
  ['done', { conversation_id: 'c1', messages: [{ role: 'assistant', content: 'Grüße from 日本 👋🏽' }] }],
];

/** An async body of Buffers, one per chunk, as undici hands a response body over. */
export async function* chunked(chunks: readonly Uint8Array[]): AsyncGenerator<Buffer> {
  for (const c of chunks) yield Buffer.from(c);
}

export function bytesOf(text: string): Uint8Array {
  return new TextEncoder().encode(text);
}

/** The stream's bytes cut at the given offsets. */
export function splitAt(bytes: Uint8Array, cuts: readonly number[]): Uint8Array[] {
  const out: Uint8Array[] = [];
  let from = 0;
  for (const cut of cuts) {
    out.push(bytes.subarray(from, cut));
    from = cut;
  }
  out.push(bytes.subarray(from));
  return out;
}

export function read(chunks: readonly Uint8Array[], budget: StreamBudget = GENEROUS): Promise<StreamReading> {
  return readEventStream(chunked(chunks), Date.now(), budget);
}

/** Events without their arrival times: what must not depend on chunking. */
export function shapeOf(events: readonly SseEventRecord[]): Array<{ event: string; data: string; id?: string }> {
  return events.map(({ event, data, id }) => (id === undefined ? { event, data } : { event, data, id }));
}

/** A recorded streamed exchange built from a reading, as the client would record it. */
export function streamExchange(reading: StreamReading, options: { status?: number; contentType?: string; headers?: Record<string, string> } = {}): Exchange {
  const exchange: Exchange = {
    seq: 1,
    startedAt: new Date().toISOString(),
    request: { method: 'POST', url: 'http://target.test/v1/deal-agents/da_1/messages', headers: { accept: 'text/event-stream' }, body: '{"message":"hi"}' },
    response: {
      status: options.status ?? 200,
      headers: { 'content-type': options.contentType ?? 'text/event-stream; charset=utf-8', ...options.headers },
      body: reading.text,
      bodyBytes: reading.bytes,
      truncated: false,
      events: reading.events,
      chunkTimes: reading.chunkTimes,
      streamClosed: reading.closed,
    },
    timings: { totalMs: 10 },
  };
  if (reading.cutShort !== undefined) exchange.error = { code: `ASI_STREAM_${reading.cutShort}`, message: reading.cutShort };
  return exchange;
}

/** A recorded exchange with given events and times, for delivery and grammar checks. */
export function eventsExchange(events: SseEventRecord[], options: { closed?: boolean; chunkTimes?: number[] } = {}): Exchange {
  return {
    seq: 1,
    startedAt: new Date().toISOString(),
    request: { method: 'POST', url: 'http://target.test/v1/deal-agents/da_1/messages', headers: {} },
    response: {
      status: 200,
      headers: { 'content-type': 'text/event-stream' },
      body: '',
      bodyBytes: 0,
      truncated: false,
      events,
      chunkTimes: options.chunkTimes ?? events.map((e) => e.atMs),
      streamClosed: options.closed ?? true,
    },
    timings: { totalMs: 10 },
  };
}
