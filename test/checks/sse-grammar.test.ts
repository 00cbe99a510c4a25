import { describe, expect, test } from 'vitest';
import { judgeEventStream, sseGrammarFindings, type GrammarRequirement } from '../../lib/checks/sse-grammar.ts';
import type { SseEventRecord } from '../../lib/model/exchange.ts';
import { GOOD_TURN, LINE_ENDS, bytesOf, eventsExchange, frame, read, shapeOf, splitAt, streamExchange } from './sse-fixtures.ts';

/** The verdict as data: the requirements with problems, sorted. Independent of timing. */
function verdictOf(events: readonly SseEventRecord[]): string[] {
  const v = judgeEventStream(events, { closed: true });
  return [...new Set(v.problems.map((p) => p.requirement))].sort();
}

function failing(findings: ReturnType<typeof sseGrammarFindings>): GrammarRequirement[] {
  return findings.filter((f) => f.verdict === 'fail').map((f) => f.requirement as GrammarRequirement);
}

const at = (event: string, data: unknown, atMs = 0): SseEventRecord => ({ event, data: typeof data === 'string' ? data : JSON.stringify(data), atMs });

describe('judgeEventStream: the §6 grammar', () => {
  test('a well-formed turn has no problem', async () => {
    const reading = await read([bytesOf(frame(GOOD_TURN))]);
    expect(reading.events.map((e) => e.event)).toEqual(['text_delta', 'tool_use', 'tool_result', 'text_delta', 'done']);
    const findings = sseGrammarFindings(streamExchange(reading));
    expect(findings.map((f) => f.verdict)).toEqual(['pass', 'pass', 'pass', 'pass', 'pass', 'pass']);
  });

  test('a turn without tool events passes, and says so', () => {
    const findings = sseGrammarFindings(eventsExchange([at('text_delta', { content: 'a' }), at('done', { conversation_id: 'c', messages: [] })]));
    const tool = findings.find((f) => f.requirement === 'conversation/6/tool-result-matches');
    expect(tool?.verdict).toBe('pass');
    expect(tool?.note).toMatch(/no tool_result/);
  });

  test('a stream ending in error instead of done passes the terminal rule, and done-shape is not judged', () => {
    const findings = sseGrammarFindings(eventsExchange([at('text_delta', { content: 'a' }), at('error', { code: 'x', category: 'transient', message: 'm' })]));
    expect(failing(findings)).toEqual([]);
    expect(findings.find((f) => f.requirement === 'conversation/6/done-shape')?.verdict).toBe('inconclusive');
  });

  test.each([
    ['an unknown event name', [at('thinking', { content: 'x' }), at('done', { conversation_id: 'c', messages: [] })], ['conversation/6/event-names']],
    ['an event without an event field (type message)', [at('message', { content: 'x' }), at('done', { conversation_id: 'c', messages: [] })], ['conversation/6/event-names']],
    ['data that is not JSON', [at('text_delta', 'hello'), at('done', { conversation_id: 'c', messages: [] })], ['conversation/6/event-data']],
    ['text_delta without content', [at('text_delta', { text: 'x' }), at('done', { conversation_id: 'c', messages: [] })], ['conversation/6/event-data']],
    ['tool_use without tool_name', [at('tool_use', { id: 't' }), at('tool_result', { id: 't' }), at('done', { conversation_id: 'c', messages: [] })], ['conversation/6/event-data']],
    ['error with an unknown category', [at('error', { code: 'x', category: 'fatal', message: 'm' })], ['conversation/6/event-data']],
    ['an unmatched tool_result', [at('tool_use', { id: 't1', tool_name: 'x' }), at('tool_result', { id: 't2' }), at('done', { conversation_id: 'c', messages: [] })], ['conversation/6/tool-result-matches']],
    ['a tool_result before its tool_use', [at('tool_result', { id: 't1' }), at('tool_use', { id: 't1', tool_name: 'x' }), at('done', { conversation_id: 'c', messages: [] })], ['conversation/6/tool-result-matches']],
    ['no terminal event', [at('text_delta', { content: 'a' })], ['conversation/6/single-terminal-event']],
    ['an event after done', [at('done', { conversation_id: 'c', messages: [] }), at('text_delta', { content: 'a' })], ['conversation/6/single-terminal-event']],
    ['error after done', [at('done', { conversation_id: 'c', messages: [] }), at('error', { code: 'x', category: 'transient', message: 'm' })], ['conversation/6/single-terminal-event']],
    ['an error mid-stream, then a close without done', [at('error', { code: 'x', category: 'transient', message: 'm' }), at('text_delta', { content: 'a' })], ['conversation/6/single-terminal-event']],
    ['a tool_result whose numeric id no tool_use carried', [at('tool_use', { id: 1, tool_name: 'x' }), at('tool_result', { id: 2 }), at('done', { conversation_id: 'c', messages: [] })], ['conversation/6/tool-result-matches']],
    ['two done events', [at('done', { conversation_id: 'c', messages: [] }), at('done', { conversation_id: 'c', messages: [] })], ['conversation/6/single-terminal-event']],
    ['done without messages', [at('done', { conversation_id: 'c' })], ['conversation/6/done-shape', 'conversation/6/event-data']],
    ['done with messages as an object', [at('done', { conversation_id: 'c', messages: {} })], ['conversation/6/done-shape', 'conversation/6/event-data']],
    ['done with a numeric conversation_id', [at('done', { conversation_id: 7, messages: [] })], ['conversation/6/done-shape', 'conversation/6/event-data']],
  ] as const)('%s fails exactly its requirement', (_title, events, expected) => {
    expect(verdictOf(events as unknown as SseEventRecord[])).toEqual([...expected].sort());
  });

  test.each([
    ['an error mid-stream, then the turn goes on to done', [at('text_delta', { content: 'a' }), at('error', { code: 'x', category: 'transient', message: 'm' }), at('text_delta', { content: 'b' }), at('done', { conversation_id: 'c', messages: [] })]],
    ['tool ids as numbers', [at('tool_use', { id: 7, tool_name: 'x' }), at('tool_result', { id: 7 }), at('done', { conversation_id: 'c', messages: [] })]],
    ['a tool id written as a number in one event and a string in the other', [at('tool_use', { id: 7, tool_name: 'x' }), at('tool_result', { id: '7' }), at('done', { conversation_id: 'c', messages: [] })]],
  ] as const)('%s is legal', (_title, events) => {
    expect(verdictOf(events as unknown as SseEventRecord[])).toEqual([]);
  });

  test('a stream left open after a final error fails closes-after-terminal only', () => {
    const ex = eventsExchange([at('text_delta', { content: 'a' }), at('error', { code: 'x', category: 'transient', message: 'm' })], { closed: false });
    expect(failing(sseGrammarFindings(ex))).toEqual(['conversation/6/closes-after-terminal']);
  });

  test('extra fields in event data are allowed', () => {
    const events = [at('text_delta', { content: 'a', index: 0 }), at('done', { conversation_id: 'c', messages: [], usage: { credits: 1 } })];
    expect(verdictOf(events)).toEqual([]);
  });

  test('a stream cut by the budget before any terminal event is inconclusive, not failed', () => {
    const ex = eventsExchange([at('text_delta', { content: 'a' })], { closed: false });
    ex.error = { code: 'ASI_STREAM_STALLED', message: 'event stream idle-timeout' };
    const f = sseGrammarFindings(ex).find((x) => x.requirement === 'conversation/6/single-terminal-event');
    expect(f?.verdict).toBe('inconclusive');
    expect(f?.note).toMatch(/ASI_STREAM_STALLED/);
  });

  test('a flood of wrong events lists the first five problems and counts the rest', () => {
    const ex = eventsExchange([...Array.from({ length: 10_000 }, () => at('message', 'x')), at('done', { conversation_id: 'c', messages: [] })]);
    const f = sseGrammarFindings(ex).find((x) => x.requirement === 'conversation/6/event-names');
    expect(f?.verdict).toBe('fail');
    expect(f?.actual?.split('; ')).toHaveLength(6);
    expect(f?.actual).toMatch(/^event #1 `message` is not one of .*; and 9995 more$/);
  });

  test('a stream left open after done fails closes-after-terminal only', () => {
    const ex = eventsExchange([at('done', { conversation_id: 'c', messages: [] })], { closed: false });
    expect(failing(sseGrammarFindings(ex))).toEqual(['conversation/6/closes-after-terminal']);
  });
});

describe('the same events split at every byte give the same verdict', () => {
  const bad: ReadonlyArray<[string, unknown]> = [
    ['text_delta', { content: 'é' }],
    ['tool_result', { id: 'nope' }],
    ['done', { conversation_id: 'c', messages: [] }],
    ['text_delta', 'not json 🧪'],
  ];
  const cases: Array<[string, string]> = [];
  for (const [name, eol] of LINE_ENDS) {
    cases.push([`good turn, ${name}`, frame(GOOD_TURN, eol)]);
    cases.push([`broken turn, ${name}`, frame(bad, eol)]);
  }

  test.each(cases)('%s: every single cut', async (_title, text) => {
    const bytes = bytesOf(text);
    const whole = await read([bytes]);
    const expected = verdictOf(whole.events);
    for (let cut = 1; cut < bytes.length; cut++) {
      const reading = await read(splitAt(bytes, [cut]));
      expect(shapeOf(reading.events), `cut at byte ${cut}`).toEqual(shapeOf(whole.events));
      expect(verdictOf(reading.events), `cut at byte ${cut}`).toEqual(expected);
    }
  });

  test.each(cases)('%s: one byte per chunk', async (_title, text) => {
    const bytes = bytesOf(text);
    const whole = await read([bytes]);
    const cuts = Array.from({ length: bytes.length - 1 }, (_, i) => i + 1);
    const reading = await read(splitAt(bytes, cuts));
    expect(shapeOf(reading.events)).toEqual(shapeOf(whole.events));
    expect(verdictOf(reading.events)).toEqual(verdictOf(whole.events));
  });

  test('the good turn keeps its five events under every framing and the broken one its three failing requirements', async () => {
    for (const [, eol] of LINE_ENDS) {
      expect((await read([bytesOf(frame(GOOD_TURN, eol))])).events).toHaveLength(5);
      expect(verdictOf((await read([bytesOf(frame(bad, eol))])).events)).toEqual([
        'conversation/6/event-data',
        'conversation/6/single-terminal-event',
        'conversation/6/tool-result-matches',
      ]);
    }
  });
});
