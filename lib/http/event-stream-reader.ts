import { createParser, type EventSourceMessage } from 'eventsource-parser';
import type { SseEventRecord } from '../model/exchange.ts';

/** How long and how much of an event stream the harness reads before it gives up (bounded reading). */
export interface StreamBudget {
  /** Whole stream, from the request. */
  totalMs: number;
  /** Longest silence between two chunks. */
  idleMs: number;
  maxBytes: number;
}

export interface StreamReading {
  text: string;
  bytes: number;
  events: SseEventRecord[];
  /** Arrival of each chunk, ms since the request; used to tell streaming from one burst. */
  chunkTimes: number[];
  /** Why reading stopped early, when it did: `total-timeout`, `idle-timeout`, `too-large`. */
  cutShort?: 'total-timeout' | 'idle-timeout' | 'too-large';
  closed: boolean;
}

/**
 * Reads an event stream as it arrives: decodes UTF-8 incrementally (a BOM is dropped by the
 * decoder, which eventsource-parser would not do for us), feeds the WHATWG parser, and stamps each
 * event with its arrival time. Never waits longer than the budget.
 */
export async function readEventStream(
  body: AsyncIterable<Buffer> & { destroy?: (err?: Error) => unknown },
  startedAt: number,
  budget: StreamBudget,
): Promise<StreamReading> {
  const decoder = new TextDecoder('utf-8');
  const events: SseEventRecord[] = [];
  const chunkTimes: number[] = [];
  let text = '';
  let bytes = 0;
  const parser = createParser({
    onEvent(message: EventSourceMessage) {
      const record: SseEventRecord = { event: message.event ?? 'message', data: message.data, atMs: Date.now() - startedAt };
      if (message.id !== undefined) record.id = message.id;
      events.push(record);
    },
  });

  const iterator = body[Symbol.asyncIterator]();
  let cutShort: StreamReading['cutShort'];
  let closed = false;
  for (;;) {
    const now = Date.now();
    const left = startedAt + budget.totalMs - now;
    if (left <= 0) {
      cutShort = 'total-timeout';
      break;
    }
    const wait = Math.min(left, budget.idleMs);
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), wait);
    });
    const next = await Promise.race([iterator.next(), timeout]);
    clearTimeout(timer);
    if (next === 'timeout') {
      cutShort = wait === left ? 'total-timeout' : 'idle-timeout';
      break;
    }
    if (next.done) {
      closed = true;
      break;
    }
    const chunk = next.value;
    bytes += chunk.length;
    chunkTimes.push(Date.now() - startedAt);
    const decoded = decoder.decode(chunk, { stream: true });
    text += decoded;
    parser.feed(decoded);
    if (bytes > budget.maxBytes) {
      cutShort = 'too-large';
      break;
    }
  }
  if (closed) {
    const rest = decoder.decode();
    text += rest;
    // A stream ending in a lone CR holds its last line until more input arrives; an LF ends it
    // without creating an event of its own.
    parser.feed(rest + (text.endsWith('\r') ? '\n' : ''));
  } else {
    body.destroy?.(new Error('stream read budget exceeded'));
  }
  const reading: StreamReading = { text, bytes, events, chunkTimes, closed };
  if (cutShort !== undefined) reading.cutShort = cutShort;
  return reading;
}
