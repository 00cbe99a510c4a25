import { createParser, type EventSourceMessage } from 'eventsource-parser';
import type { SseEventRecord } from '../model/exchange.ts';

/** How long and how much of an event stream the harness reads before it gives up (bounded reading). */
export interface StreamBudget {
  /** Whole stream, from the request. */
  totalMs: number;
  /** Longest silence between two chunks. */
  idleMs: number;
  maxBytes: number;
  /**
   * Most events kept: a flood of tiny events costs far more memory than its bytes. Past it,
   * reading stops as `too-large`. Default MAX_EVENTS.
   */
  maxEvents?: number;
  /**
   * After `done` (§6 "Final state"), how long to wait for the server to close before reading stops
   * anyway. Default AFTER_TERMINAL_MS.
   */
  afterTerminalMs?: number;
}

/**
 * §6 "done | Final state": the event after which nothing more is expected. An `error` ("Failure")
 * is terminal only when nothing follows it, and an agent may report a failure and go on (the
 * register): after an `error` the stream is read on within its idle budget, never cut by the grace.
 */
export const FINAL_EVENT = 'done';
/** Default grace for the close after `done`: a prompt close is a matter of milliseconds. */
export const AFTER_TERMINAL_MS = 2_000;
/** Default cap on events per stream: far more than a turn sends, far less than a flood. */
export const MAX_EVENTS = 10_000;

export interface StreamReading {
  text: string;
  bytes: number;
  events: SseEventRecord[];
  /** Arrival of each chunk, ms since the request; used to tell streaming from one burst. */
  chunkTimes: number[];
  /** Why reading stopped early, when it did: `total-timeout`, `idle-timeout`, `too-large`. */
  cutShort?: 'total-timeout' | 'idle-timeout' | 'too-large';
  /** The server closed the stream within the budget. */
  closed: boolean;
  /**
   * Reading stopped because the stream stayed open past its terminal event (not a budget cut: the
   * events were complete): `afterTerminalMs` past `done`, or the idle budget past a last `error`.
   */
  openAfterTerminal?: boolean;
  /** The `too-large` cut came from the event count (StreamBudget.maxEvents), not the bytes. */
  tooManyEvents?: boolean;
}

type Next = IteratorResult<Buffer> | 'timeout';

/** The next chunk, or `timeout` after `ms`; the timer never outlives the race. */
async function nextWithin(iterator: AsyncIterator<Buffer>, ms: number): Promise<Next> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), ms);
  });
  try {
    return await Promise.race([iterator.next(), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Reads an event stream as it arrives: decodes UTF-8 incrementally (the decoder drops a leading
 * BOM, which eventsource-parser would not do for decoded text), feeds the WHATWG parser, and
 * stamps each event with its arrival time. Never waits longer than the budget; once `done` has
 * arrived it waits only `afterTerminalMs` more for the close.
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
  let terminalAt: number | undefined;
  const maxEvents = budget.maxEvents ?? MAX_EVENTS;
  const parser = createParser({
    onEvent(message: EventSourceMessage) {
      // One past the cap is enough to know the stream went over it.
      if (events.length > maxEvents) return;
      const record: SseEventRecord = { event: message.event ?? 'message', data: message.data, atMs: Date.now() - startedAt };
      if (message.id !== undefined) record.id = message.id;
      events.push(record);
      // The grace runs from the first `done`; any later event shows the stream went on.
      terminalAt = record.event === FINAL_EVENT ? (terminalAt ?? Date.now()) : undefined;
    },
  });
  const afterTerminalMs = budget.afterTerminalMs ?? AFTER_TERMINAL_MS;

  const iterator = body[Symbol.asyncIterator]();
  let cutShort: StreamReading['cutShort'];
  let closed = false;
  let openAfterTerminal = false;
  for (;;) {
    const now = Date.now();
    const left = startedAt + budget.totalMs - now;
    if (left <= 0) {
      cutShort = 'total-timeout';
      break;
    }
    const graceLeft = terminalAt === undefined ? Infinity : terminalAt + afterTerminalMs - now;
    if (graceLeft <= 0) {
      openAfterTerminal = true;
      break;
    }
    const wait = Math.min(left, budget.idleMs, graceLeft);
    const next = await nextWithin(iterator, wait);
    if (next === 'timeout') {
      // Silent for the idle budget after an `error`: the failure was the stream's last word, and
      // the server left the stream open after it.
      const afterError = wait === budget.idleMs && events.at(-1)?.event === 'error';
      if (wait === graceLeft || afterError) openAfterTerminal = true;
      else cutShort = wait === left ? 'total-timeout' : 'idle-timeout';
      break;
    }
    if (next.done === true) {
      closed = true;
      break;
    }
    const chunk = next.value;
    bytes += chunk.length;
    chunkTimes.push(Date.now() - startedAt);
    const decoded = decoder.decode(chunk, { stream: true });
    text += decoded;
    parser.feed(decoded);
    if (bytes > budget.maxBytes || events.length > maxEvents) {
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
    body.destroy?.(new Error(openAfterTerminal ? 'stream still open after its terminal event' : 'stream read budget exceeded'));
  }
  const reading: StreamReading = { text, bytes, events, chunkTimes, closed };
  if (cutShort !== undefined) reading.cutShort = cutShort;
  if (openAfterTerminal) reading.openAfterTerminal = true;
  if (events.length > maxEvents) {
    reading.tooManyEvents = true;
    events.length = maxEvents;
  }
  return reading;
}
