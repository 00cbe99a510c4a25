import type { Exchange, SseEventRecord } from '../model/exchange.ts';
import { fail, pass, type Finding } from '../model/finding.ts';
import { judged } from './judged.ts';

export const INCREMENTAL_DELIVERY = 'conversation/6/incremental-delivery';

/**
 * Events that all arrive within this span arrived together: one write, or one flush, read at
 * once. Kept this short because a fast streaming server may write a whole short answer within a
 * few tens of milliseconds, one event per write; only events read together are a burst.
 */
export const BURST_SPAN_MS = 5;
/**
 * A burst only says something when the turn took a while before it: a target that answers the
 * whole stream within this time from the request may simply be fast.
 */
export const MIN_TURN_MS = 200;
/** Fewer events than this cannot show whether delivery was incremental. */
export const MIN_EVENTS = 3;

export type DeliveryVerdict =
  | { kind: 'incremental'; firstMs: number; lastMs: number }
  | { kind: 'burst'; firstMs: number; lastMs: number }
  | { kind: 'too-short'; why: string };

/**
 * Tells streaming from a burst at the end by event arrival times alone. Criterion: with at least
 * MIN_EVENTS events, a burst is every event arriving within BURST_SPAN_MS of the first while the
 * first came MIN_TURN_MS or more after the request. A streaming server spreads its events over
 * the turn, even a fast one (a few milliseconds per write); a buffering one delivers them in one
 * read at the end (the span stays near zero however long the turn). A short turn is not judged,
 * so a fast server is never called a buffering one.
 */
export function judgeDelivery(events: readonly SseEventRecord[]): DeliveryVerdict {
  if (events.length < MIN_EVENTS) return { kind: 'too-short', why: `${events.length} event(s): too few to tell streaming from a burst` };
  const times = events.map((e) => e.atMs);
  const firstMs = Math.min(...times);
  const lastMs = Math.max(...times);
  if (lastMs - firstMs > BURST_SPAN_MS) return { kind: 'incremental', firstMs, lastMs };
  if (firstMs < MIN_TURN_MS) return { kind: 'too-short', why: `the whole stream arrived within ${lastMs} ms of the request: too fast to judge` };
  return { kind: 'burst', firstMs, lastMs };
}

/** The SHOULD-level finding on how a stream was delivered. */
export const deliveryFinding = judged('sse-delivery/deliveryFinding', function deliveryFinding(exchange: Exchange): Finding {
  const res = exchange.response;
  const events = res?.events ?? [];
  const v = judgeDelivery(events);
  const chunks = res?.chunkTimes?.length ?? 0;
  if (v.kind === 'too-short') return pass(INCREMENTAL_DELIVERY, [exchange], v.why);
  if (v.kind === 'incremental') {
    return pass(INCREMENTAL_DELIVERY, [exchange], `${events.length} events over ${v.lastMs - v.firstMs} ms (first at ${v.firstMs} ms) in ${chunks} chunks`);
  }
  return fail(
    INCREMENTAL_DELIVERY,
    `events delivered as the turn progresses (spread over more than ${BURST_SPAN_MS} ms)`,
    `all ${events.length} events arrived within ${v.lastMs - v.firstMs} ms, ${v.firstMs} ms after the request, in ${chunks} chunk(s): one burst at the end of the turn`,
    [exchange],
  );
});

/**
 * How the streams of one test were delivered, judged together. A client reads a fast stream late
 * when its own machine does not run it for a few tens of milliseconds (a loaded CI runner): the
 * events then wait in the socket and come as one read, as a buffering server's would. A server
 * that buffers does so on every stream; so a burst fails only when no stream of the same test
 * arrived incrementally. Beside one that did, a burst is not judged alone, and says why.
 */
export const deliveryFindings = judged('sse-delivery/deliveryFindings', function deliveryFindings(exchanges: readonly Exchange[]): Finding[] {
  const each = exchanges.map((exchange) => ({ exchange, finding: deliveryFinding(exchange) }));
  const streamed = each.filter((e) => judgeDelivery(e.exchange.response?.events ?? []).kind === 'incremental');
  if (streamed.length === 0) return each.map((e) => e.finding);
  const seqs = streamed.map((e) => `#${e.exchange.seq}`).join(', ');
  return each.map(({ exchange, finding }) =>
    finding.verdict !== 'fail'
      ? finding
      : pass(INCREMENTAL_DELIVERY, [exchange], `${finding.actual ?? 'one burst'}; not judged alone: ${seqs} of the same test arrived incrementally, and a client that was not run for a moment reads a fast stream in one read too`),
  );
});
