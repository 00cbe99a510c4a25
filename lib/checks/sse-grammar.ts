import { validateEventData } from '../contract/validate.ts';
import type { Exchange, SseEventRecord } from '../model/exchange.ts';
import { fail, inconclusive, pass, type Finding } from '../model/finding.ts';
import { parseTargetJson, TOO_DEEP, type ParsedJson } from '../model/json-nesting.ts';
import { SSE_EVENT_NAMES, type SseEventName } from '../spec-constants.ts';
import { conversationResponseProblems } from './conversation-response.ts';
import { judged } from './judged.ts';

export const EVENT_NAMES = 'conversation/6/event-names';
export const EVENT_DATA = 'conversation/6/event-data';
export const TOOL_RESULT_MATCHES = 'conversation/6/tool-result-matches';
export const SINGLE_TERMINAL = 'conversation/6/single-terminal-event';
export const CLOSES_AFTER_TERMINAL = 'conversation/6/closes-after-terminal';
export const DONE_SHAPE = 'conversation/6/done-shape';

/** The requirements the grammar of one stream speaks to, in report order. */
export const GRAMMAR_REQUIREMENTS = [EVENT_NAMES, EVENT_DATA, TOOL_RESULT_MATCHES, SINGLE_TERMINAL, CLOSES_AFTER_TERMINAL, DONE_SHAPE] as const;
export type GrammarRequirement = (typeof GRAMMAR_REQUIREMENTS)[number];

/** How the reading of a stream ended. */
export interface StreamEnd {
  /** The server closed the stream. */
  closed: boolean;
  /** Reading was cut by the harness's budget (a transport error code such as ASI_STREAM_STALLED). */
  cutBy?: string;
}

export interface GrammarProblem {
  requirement: GrammarRequirement;
  problem: string;
}

/** What the grammar could not judge, and why (no terminal event, no `done`). */
export interface GrammarVerdicts {
  problems: GrammarProblem[];
  unjudged: Partial<Record<GrammarRequirement, string>>;
  /** Notes for passing requirements (a vacuous pass says so). */
  notes: Partial<Record<GrammarRequirement, string>>;
}

const KNOWN: readonly string[] = SSE_EVENT_NAMES;

/**
 * The id of a tool event, compared as text: §6 names the field but not its type, so `7` and
 * `"7"` are one id; anything but a string or a number is no id.
 */
function toolId(value: unknown): string | undefined {
  const id = typeof value === 'object' && value !== null ? (value as Record<string, unknown>)['id'] : undefined;
  return typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id)) ? String(id) : undefined;
}

function label(e: SseEventRecord, i: number): string {
  return `event #${i + 1} \`${e.event}\``;
}

function parseData(data: string): ParsedJson {
  const parsed = parseTargetJson(data);
  if (parsed.ok) return parsed;
  if (parsed.tooDeep === true) return { ok: false, why: `data ${TOO_DEEP}`, tooDeep: true };
  const shown = data.length > 60 ? `${data.slice(0, 60)}…` : data;
  return { ok: false, why: `data is not JSON: ${JSON.stringify(shown)}` };
}

/**
 * Holds the events of one stream to the §6 grammar. Pure: the same events and end give the same
 * verdicts, however the bytes were chunked on the wire.
 */
export function judgeEventStream(events: readonly SseEventRecord[], end: StreamEnd): GrammarVerdicts {
  const problems: GrammarProblem[] = [];
  const unjudged: GrammarVerdicts['unjudged'] = {};
  const notes: GrammarVerdicts['notes'] = {};
  const toolUses = new Set<string>();
  let toolResults = 0;
  const dones: number[] = [];

  events.forEach((e, i) => {
    // > | Event | Data fields | Meaning |  (text_delta, tool_use, tool_result, done, error)
    if (!KNOWN.includes(e.event)) {
      const why = e.event === 'message' ? ' (no `event:` field, so the default type `message`)' : '';
      problems.push({ requirement: EVENT_NAMES, problem: `${label(e, i)} is not one of ${SSE_EVENT_NAMES.join(', ')}${why}` });
      return;
    }
    const name = e.event as SseEventName;
    if (name === 'done') dones.push(i);
    const parsed = parseData(e.data);
    if (!parsed.ok) {
      problems.push({ requirement: EVENT_DATA, problem: `${label(e, i)}: ${parsed.why}` });
      return;
    }
    for (const p of validateEventData(name, parsed.value)) {
      problems.push({ requirement: EVENT_DATA, problem: `${label(e, i)}: data${p.instancePath} ${p.message}` });
    }
    const id = toolId(parsed.value);
    if (name === 'tool_use' && id !== undefined) toolUses.add(id);
    if (name === 'tool_result') {
      toolResults += 1;
      // > tool_use | id, tool_name | The agent is calling a tool. tool_result | id | The tool finished.
      if (id === undefined || !toolUses.has(id)) {
        problems.push({ requirement: TOOL_RESULT_MATCHES, problem: `${label(e, i)} has id ${JSON.stringify(id)}, which no earlier tool_use carried` });
      }
    }
    if (name === 'done') {
      // > done | conversation_id, messages | Final state; same shape as the REST response.
      for (const p of conversationResponseProblems(parsed.value)) problems.push({ requirement: DONE_SHAPE, problem: `${label(e, i)}: ${p}` });
    }
  });
  if (toolResults === 0) notes[TOOL_RESULT_MATCHES] = 'the stream carried no tool_result event';

  // > done | conversation_id, messages | Final state
  // `done` is the final state: one at most, and nothing after it. An `error` ("Failure") ends the
  // turn when it is the last event; one followed by more events was not the end (the register).
  const firstDone = dones[0];
  const lastIndex = events.length - 1;
  let terminal: number | undefined;
  if (firstDone !== undefined) {
    terminal = firstDone;
    if (dones.length > 1) problems.push({ requirement: SINGLE_TERMINAL, problem: `the stream has ${dones.length} done events (#${dones.map((i) => i + 1).join(', #')})` });
    const after = events.slice(firstDone + 1).filter((e) => e.event !== 'done');
    if (after.length > 0) {
      problems.push({ requirement: SINGLE_TERMINAL, problem: `${after.length} event(s) follow ${label(events[firstDone]!, firstDone)}, the final state, first \`${after[0]!.event}\`` });
    }
  } else if (events[lastIndex]?.event === 'error') {
    terminal = lastIndex;
  } else if (end.cutBy !== undefined) {
    unjudged[SINGLE_TERMINAL] = `reading stopped (${end.cutBy}) after ${events.length} events before a done or a final error`;
  } else {
    const last = events[lastIndex];
    const ending = last === undefined ? 'no event at all' : `${label(last, lastIndex)} last`;
    problems.push({ requirement: SINGLE_TERMINAL, problem: `the stream closed after ${events.length} events with ${ending}: no done, and no error at its end` });
  }
  if (terminal === undefined) {
    unjudged[CLOSES_AFTER_TERMINAL] = 'the stream had no terminal event';
  } else if (!end.closed) {
    const how = end.cutBy === undefined ? 'the server had not closed it' : `reading was cut (${end.cutBy})`;
    problems.push({ requirement: CLOSES_AFTER_TERMINAL, problem: `the stream stayed open after ${label(events[terminal]!, terminal)}: ${how}` });
  }
  if (!events.some((e) => e.event === 'done')) unjudged[DONE_SHAPE] = 'the stream carried no done event';
  return { problems, unjudged, notes };
}

/** The reading's end as recorded on the exchange. */
export function streamEndOf(exchange: Exchange): StreamEnd {
  const end: StreamEnd = { closed: exchange.response?.streamClosed === true };
  if (exchange.error !== undefined) end.cutBy = exchange.error.code;
  return end;
}

/** Problems a finding lists; a flood of 10 000 wrong events would make one line of a megabyte. */
const LISTED_PROBLEMS = 5;

function listed(problems: readonly string[]): string {
  const more = problems.length - LISTED_PROBLEMS;
  return problems.slice(0, LISTED_PROBLEMS).join('; ') + (more > 0 ? `; and ${more} more` : '');
}

/**
 * One finding per grammar requirement for a recorded stream. Requirements the stream gives no
 * evidence on (no `done` to compare) are inconclusive with the reason.
 */
export const sseGrammarFindings = judged('sse-grammar/sseGrammarFindings', function sseGrammarFindings(exchange: Exchange, only: readonly GrammarRequirement[] = GRAMMAR_REQUIREMENTS): Finding[] {
  const ex = [exchange];
  const events = exchange.response?.events ?? [];
  const verdicts = judgeEventStream(events, streamEndOf(exchange));
  return only.map((id) => {
    const mine = verdicts.problems.filter((p) => p.requirement === id);
    if (mine.length > 0) return fail(id, expectationOf(id), listed(mine.map((p) => p.problem)), ex);
    const why = verdicts.unjudged[id];
    if (why !== undefined) return inconclusive(id, why, ex);
    return pass(id, ex, verdicts.notes[id]);
  });
});

function expectationOf(id: GrammarRequirement): string {
  switch (id) {
    case EVENT_NAMES:
      return `only the §6 events ${SSE_EVENT_NAMES.join(', ')}`;
    case EVENT_DATA:
      return 'data of each event: JSON with the §6 fields of that event';
    case TOOL_RESULT_MATCHES:
      return 'every tool_result carries the id of an earlier tool_use';
    case SINGLE_TERMINAL:
      return 'a stream ending in done or error, with at most one done and nothing after it';
    case CLOSES_AFTER_TERMINAL:
      return 'the stream closed after its terminal event';
    case DONE_SHAPE:
      return 'done data with conversation_id (string) and messages (array), like the REST response';
  }
}
