import type { ExchangeContext } from './exchange-context.ts';
import { messageFaultFor, type MessagePost } from './message-faults.ts';
import type { Turn, TurnEvent } from './message-turn.ts';
import { framingOf, SseWriter } from './sse-writer.ts';

/** Pause before each event: the reference's turn takes real time, so streaming is observable. */
export const EVENT_GAP_MS = 50;
/** Variant `conversation-stream-fast`: a slow first token, then one event every few milliseconds. */
export const FAST_FIRST_MS = 250;
export const FAST_GAP_MS = 2;
/** How long the `conversation-stream-open-after-done` defect keeps a finished stream open. */
export const OPEN_AFTER_DONE_MS = 30_000;
/**
 * Variant `conversation-stream-error-midway`: the pause after its `error` before the turn goes on,
 * longer than the 2 s a client may give a stream to close after its final event.
 */
export const MIDWAY_ERROR_PAUSE_MS = 2_500;

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** The data of an `error` event some switches add (the code is the reference's own). */
const TOOL_FAILED = { code: 'agent.tool_failed', category: 'transient', message: 'A tool of the agent failed.' };

/** An event to send: its name and its payload text (JSON, except for one defect). */
interface OutgoingEvent {
  event: string;
  payload: string | { data: unknown };
  /** A pause after the event, before the next one. */
  pauseMs?: number;
}

/** The turn's events with the stream defects applied; each defect breaks one rule of §6. */
function outgoingEvents(ctx: ExchangeContext, events: readonly TurnEvent[]): OutgoingEvent[] {
  const d = ctx.state.defects;
  const out: OutgoingEvent[] = [];
  let firstDelta = true;
  for (const e of events) {
    let data: Record<string, unknown> = e.data;
    if (e.event === 'tool_result' && d.has('conversation-stream-unmatched-tool-result')) data = { ...data, id: 'tool_never_called' };
    if (e.event === 'tool_result' && d.has('conversation-tool-result-exposes-output')) data = { ...data, output: { rows: 3, summary: 'Three open opportunities.' } };
    if (e.event === 'done') {
      if (d.has('conversation-stream-no-done')) continue;
      if (d.has('conversation-stream-done-without-messages')) data = { conversation_id: data['conversation_id'] };
    }
    if (e.event === 'text_delta' && firstDelta) {
      firstDelta = false;
      if (d.has('conversation-stream-unknown-event')) out.push({ event: 'thinking', payload: { data: { content: 'Looking at the record.' } } });
      if (d.has('conversation-stream-data-not-json')) {
        out.push({ event: e.event, payload: String(data['content']) });
        continue;
      }
    }
    out.push({ event: e.event, payload: { data } });
    // Variant: a failure the agent recovers from, reported as it happens; after a pause the turn goes on to `done`.
    if (e.event === 'tool_result' && ctx.state.variants.has('conversation-stream-error-midway')) {
      out.push({ event: 'error', payload: { data: TOOL_FAILED }, pauseMs: MIDWAY_ERROR_PAUSE_MS });
    }
  }
  if (d.has('conversation-stream-event-after-done')) out.push({ event: 'text_delta', payload: { data: { content: ' One more thing.' } } });
  if (d.has('conversation-stream-error-after-done')) out.push({ event: 'error', payload: { data: TOOL_FAILED } });
  return out;
}

/**
 * §6: writes a turn as Server-Sent Events, one write per event with a pause before each, then
 * closes. A fault that appears while the stream runs ends it with an `error` event (the status
 * line is already sent, so a 503 is no longer possible).
 */
export async function streamTurn(ctx: ExchangeContext, turn: Turn, post: MessagePost): Promise<void> {
  const d = ctx.state.defects;
  if (d.has('conversation-stream-no-pool-headers')) ctx.dropPoolHeaders();
  const headers: Record<string, string> = { ...ctx.headers };
  headers['content-type'] = d.has('conversation-stream-as-json') ? 'application/json; charset=utf-8' : 'text/event-stream; charset=utf-8';
  headers['cache-control'] = 'no-cache';
  const writer = new SseWriter(ctx.res, framingOf(ctx.state.variants), { buffered: d.has('conversation-stream-flush-at-end'), compressed: ctx.state.variants.has('transport-compressed') });
  writer.open(200, headers);
  const fast = ctx.state.variants.has('conversation-stream-fast');
  let sent = 0;
  for (const e of outgoingEvents(ctx, turn.events)) {
    await sleep(fast ? (sent++ === 0 ? FAST_FIRST_MS : FAST_GAP_MS) : EVENT_GAP_MS);
    if (writer.clientGone) return;
    const fault = messageFaultFor(ctx.state, post);
    if (fault !== undefined) {
      writer.event('error', { code: fault.code, category: fault.category, message: fault.message });
      break;
    }
    if (typeof e.payload === 'string') writer.eventText(e.event, e.payload);
    else writer.event(e.event, e.payload.data);
    if (e.pauseMs !== undefined) await sleep(e.pauseMs);
  }
  if (d.has('conversation-stream-open-after-done')) await holdOpen(ctx);
  writer.end();
}

/** Keeps the response open until the client leaves or OPEN_AFTER_DONE_MS pass. */
function holdOpen(ctx: ExchangeContext): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, OPEN_AFTER_DONE_MS);
    timer.unref();
    ctx.res.once('close', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}
