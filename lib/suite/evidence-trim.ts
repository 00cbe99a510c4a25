import type { Exchange } from '../model/exchange.ts';
import type { Finding } from '../model/finding.ts';

/** Body excerpt kept as evidence; the transcript keeps more. */
export const EVIDENCE_BODY_CHARS = 16_384;
const EVIDENCE_EVENTS = 200;
const EXCHANGES_PER_FAILURE = 6;

export function trimExchange(exchange: Exchange): Exchange {
  const res = exchange.response;
  if (res === undefined) return exchange;
  const body = res.body.length > EVIDENCE_BODY_CHARS ? res.body.slice(0, EVIDENCE_BODY_CHARS) : res.body;
  const trimmed = { ...res, body, truncated: res.truncated || body.length < res.body.length };
  if (res.events !== undefined && res.events.length > EVIDENCE_EVENTS) trimmed.events = res.events.slice(0, EVIDENCE_EVENTS);
  if (res.chunkTimes !== undefined && res.chunkTimes.length > EVIDENCE_EVENTS) trimmed.chunkTimes = res.chunkTimes.slice(0, EVIDENCE_EVENTS);
  return { ...exchange, response: trimmed };
}

/**
 * Keeps evidence small enough to cross from the worker to the reporter: a passing finding keeps
 * one exchange as a sample, any other finding keeps the first few (the last one too, which is
 * often the one that shows the fault).
 */
export function trimFinding(finding: Finding): Finding {
  const ex = finding.exchanges;
  let kept: Exchange[];
  if (finding.verdict === 'pass') kept = ex.slice(0, 1);
  else if (ex.length <= EXCHANGES_PER_FAILURE) kept = ex;
  else kept = [...ex.slice(0, EXCHANGES_PER_FAILURE - 1), ex[ex.length - 1]!];
  return { ...finding, exchanges: kept.map(trimExchange) };
}
