import type { Exchange } from '../model/exchange.ts';
import { fail, inconclusive, pass, type Finding } from '../model/finding.ts';
import { mediaType, writePoolFinding, type WritePool } from './conversation-rest.ts';
import { describeResponse } from './json-body.ts';
import { framingFinding } from './sse-framing-lint.ts';
import { GRAMMAR_REQUIREMENTS, sseGrammarFindings, type GrammarRequirement } from './sse-grammar.ts';
import { judged } from './judged.ts';

export const SSE_BY_ACCEPT = 'conversation/1/sse-by-accept';
export const SSE_BY_STREAM_FLAG = 'conversation/1/sse-by-stream-flag';

export type StreamChoice = 'accept' | 'stream-flag';

/** Whether the response is the event stream the request chose: 2xx and `text/event-stream`. */
export const streamChosenFinding = judged('conversation-stream/streamChosenFinding', function streamChosenFinding(choice: StreamChoice, exchange: Exchange): Finding {
  const id = choice === 'accept' ? SSE_BY_ACCEPT : SSE_BY_STREAM_FLAG;
  const ex = [exchange];
  const how = choice === 'accept' ? '`Accept: text/event-stream`' : '`stream: true`';
  // > SSE streaming: chosen by sending the header `Accept: text/event-stream` or the body field `stream: true`.
  const expected = `2xx with Content-Type text/event-stream (streaming chosen by ${how})`;
  const res = exchange.response;
  if (res === undefined) return fail(id, expected, describeResponse(exchange), ex);
  if (res.status < 200 || res.status > 299) return fail(id, expected, `HTTP ${res.status}: ${describeResponse(exchange)}`, ex);
  const type = mediaType(exchange);
  if (type !== 'text/event-stream') return fail(id, expected, `HTTP ${res.status} with Content-Type ${res.headers['content-type'] ?? '(none)'}`, ex);
  return pass(id, ex);
});

/** True when there is a stream to hold to the grammar: an event-stream type, or events parsed anyway. */
export function carriesStream(exchange: Exchange): boolean {
  const res = exchange.response;
  if (res === undefined || res.status < 200 || res.status > 299) return false;
  return mediaType(exchange) === 'text/event-stream' || (res.events?.length ?? 0) > 0;
}

export interface StreamTurnOptions {
  choice: StreamChoice;
  pool: WritePool;
  /** Grammar requirements to report; all by default. */
  grammar?: readonly GrammarRequirement[];
  /**
   * Also note framing (once per stream test, not inside properties); delivery timing is judged
   * over the test's streams together (deliveryFindings), or here when none carries a stream.
   */
  delivery?: boolean;
}

/**
 * Everything one streamed message POST shows: that streaming was chosen, the write pool's
 * headers, the §6 grammar of its events, and optionally delivery timing and framing notes.
 * When no stream came, the grammar requirements are inconclusive with the reason.
 */
export const streamTurnFindings = judged('conversation-stream/streamTurnFindings', function streamTurnFindings(exchange: Exchange, options: StreamTurnOptions): Finding[] {
  const grammar = options.grammar ?? GRAMMAR_REQUIREMENTS;
  const findings: Finding[] = [streamChosenFinding(options.choice, exchange), writePoolFinding(exchange, options.pool)];
  if (!carriesStream(exchange)) {
    const why = `no event stream to judge (${describeResponse(exchange).slice(0, 120)})`;
    findings.push(...grammar.map((id) => inconclusive(id, why, [exchange])));
    if (options.delivery === true) findings.push(inconclusive('conversation/6/incremental-delivery', why, [exchange]), inconclusive('conversation/6/framing', why, [exchange]));
    return findings;
  }
  findings.push(...sseGrammarFindings(exchange, grammar));
  if (options.delivery === true) findings.push(framingFinding(exchange));
  return findings;
});
