import { mediaType } from '../../checks/conversation-rest.ts';
import { judgeEventStream, streamEndOf, CLOSES_AFTER_TERMINAL, DONE_SHAPE, EVENT_DATA, EVENT_NAMES, SINGLE_TERMINAL, TOOL_RESULT_MATCHES } from '../../checks/sse-grammar.ts';
import { declaredRoutes, type RecordContext } from '../exchange-facts.ts';
import type { Invariant, Observation } from '../invariant.ts';

const NOT_EXPOSED = 'conversation/6/tool-result-not-exposed';

/** Requirements that need the whole stream (its end): not judged on a record that kept only its first events. */
const NEED_WHOLE_STREAM: ReadonlySet<string> = new Set([SINGLE_TERMINAL, CLOSES_AFTER_TERMINAL]);
const GRAMMAR = [EVENT_NAMES, EVENT_DATA, TOOL_RESULT_MATCHES, SINGLE_TERMINAL, CLOSES_AFTER_TERMINAL, DONE_SHAPE] as const;

/**
 * Field names that say they carry what a tool returned. §6 names only `id` for `tool_result` and
 * says the return value "is not exposed in v1"; other fields are not forbidden, so only a name
 * that says it holds the value is held against the stream, and only as a SHOULD.
 */
const RETURN_VALUE_NAMES = /^(result|results|output|outputs|return|returns|return_value|returned|value|content|response|tool_output|tool_result)$/i;

function dataKeys(data: string): string[] {
  try {
    const value: unknown = JSON.parse(data);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? Object.keys(value) : [];
  } catch {
    return [];
  }
}

/**
 * > Events are delivered as Server-Sent Events only when streaming is chosen on the message POST.
 * > | Event | Data fields | Meaning | (text_delta, tool_use, tool_result, done, error)
 * Every event stream the run received, whichever suite or drill asked for it: the §6 grammar, and
 * no `tool_result` field named as the tool's return value.
 */
export const eventStreamsInvariant: Invariant = {
  name: 'event-streams',
  requirements: [...GRAMMAR, NOT_EXPOSED],
  expected: {
    [EVENT_NAMES]: 'only the §6 events text_delta, tool_use, tool_result, done, error, in every stream',
    [EVENT_DATA]: 'the data of every event JSON with the §6 fields of that event',
    [TOOL_RESULT_MATCHES]: 'every tool_result carrying the id of an earlier tool_use of its stream',
    [SINGLE_TERMINAL]: 'every stream ending in done or error, with at most one done and nothing after it',
    [CLOSES_AFTER_TERMINAL]: 'every stream closed after its terminal event',
    [DONE_SHAPE]: 'done data with conversation_id (string) and messages (array), like the REST response',
    [NOT_EXPOSED]: "no tool_result field named as the tool's return value (§6: not exposed in v1)",
  },
  binds: {
    [EVENT_NAMES]: 'event streams',
    [EVENT_DATA]: 'event streams',
    [TOOL_RESULT_MATCHES]: 'event streams with a tool_result',
    [SINGLE_TERMINAL]: 'event streams read to their end',
    [CLOSES_AFTER_TERMINAL]: 'event streams with a terminal event',
    [DONE_SHAPE]: 'event streams with a done event',
    [NOT_EXPOSED]: 'event streams with a tool_result',
  },
  observe(exchange, facts): Observation[] {
    const res = exchange.response;
    if (res === undefined || facts.form === undefined || res.status < 200 || res.status > 299) return [];
    const events = res.events ?? [];
    if (mediaType(exchange) !== 'text/event-stream' && events.length === 0) return [];
    const whole = (res.eventsOmitted ?? 0) === 0;
    const verdicts = judgeEventStream(events, streamEndOf(exchange));
    const out: Observation[] = [];
    for (const id of GRAMMAR) {
      if (verdicts.unjudged[id] !== undefined || (!whole && NEED_WHOLE_STREAM.has(id))) continue;
      if (id === TOOL_RESULT_MATCHES && verdicts.notes[id] !== undefined) continue;
      out.push({ requirement: id, problems: verdicts.problems.filter((p) => p.requirement === id).map((p) => p.problem) });
    }
    const results = events.map((e, i) => ({ e, i })).filter(({ e }) => e.event === 'tool_result');
    if (results.length > 0) {
      const problems = results.flatMap(({ e, i }) => dataKeys(e.data).filter((k) => RETURN_VALUE_NAMES.test(k)).map((k) => `event #${i + 1} tool_result carries \`${k}\``));
      out.push({ requirement: NOT_EXPOSED, problems });
    }
    return out;
  },
  declaredCells(_id, context: RecordContext) {
    return declaredRoutes(context)
      .filter((r) => r.includes('(stream'))
      .map((r) => `${r} 2xx`);
  },
};
