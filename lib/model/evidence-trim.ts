import type { Exchange, RecordedResponse, SseEventRecord } from './exchange.ts';
import type { Finding } from './finding.ts';
import { jsonStringBytes, prefixWithinJsonBytes } from './json-bytes.ts';

/** How much of one exchange a record keeps; what is left out is counted, never silently lost. */
export interface RecordBudget {
  /** Of the body, in `unit`. */
  body: number;
  events: number;
  /** Of event data in all, over the kept events, in `unit`. */
  eventData: number;
  chunkTimes: number;
  /**
   * What `body` and `eventData` count: characters, or bytes as a JSON file writes them (a
   * control character takes six there), for a record that goes to a JSON file.
   */
  unit: 'characters' | 'json-bytes';
}

/** Evidence crossing from the worker to the reporter, and into every report. */
export const EVIDENCE_BUDGET: RecordBudget = { body: 16_384, events: 200, eventData: 16_384, chunkTimes: 200, unit: 'characters' };
/**
 * A line of the run's transcript (the HAR is built from it): its size as written, whatever the
 * target sends. 128 KiB hold 64 Ki characters of ordinary text (JSON escapes at most every other
 * character of it).
 */
export const TRANSCRIPT_BUDGET: RecordBudget = { body: 131_072, events: 1_000, eventData: 131_072, chunkTimes: 1_000, unit: 'json-bytes' };

/** An exchange kept for its headers and error envelope only (the pacer's records, the run's metered responses). */
export const HEADERS_AND_ENVELOPE_BUDGET: RecordBudget = { body: 2_000, events: 0, eventData: 0, chunkTimes: 0, unit: 'characters' };

/** Body excerpt kept as evidence; the transcript keeps more. */
export const EVIDENCE_BODY_CHARS = EVIDENCE_BUDGET.body;
const EXCHANGES_PER_FAILURE = 6;

function sizeOf(text: string, budget: RecordBudget): number {
  return budget.unit === 'characters' ? text.length : jsonStringBytes(text);
}

/** The longest start of `text` within `size` in the budget's unit. */
function startWithin(text: string, size: number, budget: RecordBudget): string {
  if (budget.unit === 'characters') return text.length <= size ? text : text.slice(0, size);
  return prefixWithinJsonBytes(text, size);
}

/** The first events, within a count and a total of data; the last one kept may be cut. */
function keptEvents(events: readonly SseEventRecord[], budget: RecordBudget): SseEventRecord[] {
  const kept: SseEventRecord[] = [];
  let used = 0;
  for (const e of events) {
    if (kept.length >= budget.events || used >= budget.eventData) break;
    const size = sizeOf(e.data, budget);
    const room = budget.eventData - used;
    kept.push(size <= room ? e : { ...e, data: `${startWithin(e.data, room, budget)}…` });
    used += Math.min(size, room);
  }
  return kept;
}

/**
 * A copy of `value` that shares no string with it. V8 keeps the whole of a string alive for every
 * slice cut from it: an excerpt of a 4 MiB body, kept for the run, would keep the 4 MiB. A
 * structured clone writes every string anew.
 */
function detached<T>(value: T): T {
  return structuredClone(value);
}

/**
 * An exchange within `budget`, sharing strings with it: for a caller that writes it out at once
 * and keeps nothing (a transcript line), where a copy would only be garbage (a quarter of the
 * recording's cost per request in a big pool's spend). What is kept goes through trimExchange.
 */
export function cutExchange(exchange: Exchange, budget: RecordBudget): Exchange {
  const res = exchange.response;
  if (res === undefined) return exchange;
  const body = startWithin(res.body, budget.body, budget);
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
 * An exchange within `budget`: the body cut, the first events and chunk times kept, the rest
 * counted. The result holds nothing of the exchange it was cut from, so keeping it costs only
 * what it shows.
 */
export function trimExchange(exchange: Exchange, budget: RecordBudget = EVIDENCE_BUDGET): Exchange {
  return detached(cutExchange(exchange, budget));
}

/**
 * An exchange kept beyond the test that sent it, for checks that read its body as a document
 * (JSON, YAML): whole, unless its response was cut. Those checks judge a cut body no further than
 * "cut", so what the transcript keeps of it is all that is read again, and the rest of the run
 * does not hold a flooding target's megabytes.
 */
export function keptForDocumentChecks(exchange: Exchange): Exchange {
  return exchange.response?.truncated === true ? trimExchange(exchange, TRANSCRIPT_BUDGET) : exchange;
}

/**
 * Keeps evidence small enough to cross from the worker to the reporter: a passing finding keeps
 * one exchange as a sample, any other finding keeps the first few (the last one too, which is
 * often the one that shows the fault). Like a trimmed exchange, it holds nothing of what it was
 * cut from: its texts quote bodies the worker must be free to drop.
 */
export function trimFinding(finding: Finding): Finding {
  const ex = finding.exchanges;
  let kept: Exchange[];
  if (finding.verdict === 'pass') kept = ex.slice(0, 1);
  else if (ex.length <= EXCHANGES_PER_FAILURE) kept = ex;
  else kept = [...ex.slice(0, EXCHANGES_PER_FAILURE - 1), ex[ex.length - 1]!];
  return detached({ ...finding, exchanges: kept.map((e) => cutExchange(e, EVIDENCE_BUDGET)) });
}
