import type { Exchange, RecordedResponse, SseEventRecord } from '../model/exchange.ts';
import type { Finding } from '../model/finding.ts';

/** How much of one exchange a record keeps; what is left out is counted, never silently lost. */
export interface RecordBudget {
  bodyChars: number;
  events: number;
  /** Characters of event data in all, over the kept events. */
  eventDataChars: number;
  chunkTimes: number;
}

/** Evidence crossing from the worker to the reporter, and into every report. */
export const EVIDENCE_BUDGET: RecordBudget = { bodyChars: 16_384, events: 200, eventDataChars: 16_384, chunkTimes: 200 };
/** A line of the run's transcript (the HAR is built from it). */
export const TRANSCRIPT_BUDGET: RecordBudget = { bodyChars: 65_536, events: 1_000, eventDataChars: 65_536, chunkTimes: 1_000 };

/** Body excerpt kept as evidence; the transcript keeps more. */
export const EVIDENCE_BODY_CHARS = EVIDENCE_BUDGET.bodyChars;
const EXCHANGES_PER_FAILURE = 6;

/** The first events, within a count and a total of data characters; the last one kept may be cut. */
function keptEvents(events: readonly SseEventRecord[], budget: RecordBudget): SseEventRecord[] {
  const kept: SseEventRecord[] = [];
  let chars = 0;
  for (const e of events) {
    if (kept.length >= budget.events || chars >= budget.eventDataChars) break;
    const room = budget.eventDataChars - chars;
    kept.push(e.data.length <= room ? e : { ...e, data: `${e.data.slice(0, room)}…` });
    chars += Math.min(e.data.length, room);
  }
  return kept;
}

/** An exchange within `budget`: the body cut, the first events and chunk times kept, the rest counted. */
export function trimExchange(exchange: Exchange, budget: RecordBudget = EVIDENCE_BUDGET): Exchange {
  const res = exchange.response;
  if (res === undefined) return exchange;
  const body = res.body.length > budget.bodyChars ? res.body.slice(0, budget.bodyChars) : res.body;
  const trimmed: RecordedResponse = { ...res, body, truncated: res.truncated || body.length < res.body.length };
  if (res.events !== undefined) {
    const events = keptEvents(res.events, budget);
    if (events.length < res.events.length || events.some((e, i) => e !== res.events![i])) {
      trimmed.events = events;
      const omitted = (res.eventsOmitted ?? 0) + res.events.length - events.length;
      if (omitted > 0) trimmed.eventsOmitted = omitted;
    }
  }
  if (res.chunkTimes !== undefined && res.chunkTimes.length > budget.chunkTimes) {
    trimmed.chunkTimes = res.chunkTimes.slice(0, budget.chunkTimes);
    trimmed.chunkTimesOmitted = (res.chunkTimesOmitted ?? 0) + res.chunkTimes.length - budget.chunkTimes;
  }
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
  return { ...finding, exchanges: kept.map((e) => trimExchange(e)) };
}
