import { describe, expect, test } from 'vitest';
import { Redactor } from '../../lib/http/redactor.ts';
import type { SseEventRecord } from '../../lib/model/exchange.ts';

const TOKEN = 'asi_live_0123456789abcdef0123456789abcdef';
const redactor = new Redactor([{ value: TOKEN, placeholder: '$ASI_TOKEN' }]);

test('replaces every occurrence of every token, longest first', () => {
  const r = new Redactor([
    { value: 'asi_live_abc', placeholder: '$ASI_TOKEN' },
    { value: 'asi_live_abcdef', placeholder: '$ASI_TOKEN_2' },
  ]);
  expect(r.redact('Bearer asi_live_abcdef and asi_live_abc, asi_live_abc')).toBe('Bearer $ASI_TOKEN_2 and $ASI_TOKEN, $ASI_TOKEN');
  expect(r.redactHeaders({ authorization: 'Bearer asi_live_abc' })).toEqual({ authorization: 'Bearer $ASI_TOKEN' });
  // A header whose name carries the token, as a hostile target may send.
  expect(r.redactHeaders({ 'x-echo-asi_live_abc': '1' })).toEqual({ 'x-echo-$ASI_TOKEN': '1' });
});

test('a text with no escape mark in it is scanned for the plain forms, one with a mark anywhere for every form', () => {
  const b64 = Buffer.from(`Bearer ${TOKEN}`).toString('base64');
  const hex = Buffer.from(TOKEN).toString('hex');
  // No %, \\ or &: the token in another case, its hex and base64 are still found.
  expect(redactor.redact(`a ${TOKEN.toUpperCase()} b ${hex} c ${b64}`)).toBe('a $ASI_TOKEN b $ASI_TOKEN c $ASI_TOKEN');
  // One mark far from the token turns the full scan on: an escaped character inside the token is found.
  const escaped = `\\u0061${TOKEN.slice(1)}`;
  expect(redactor.redact(`100% sure: ${escaped}`)).toBe('100% sure: $ASI_TOKEN');
  expect(redactor.redact(`x ${TOKEN.slice(0, 3)}%5F${TOKEN.slice(4)} y`)).toBe('x $ASI_TOKEN y');
});

test('an empty secret redacts nothing', () => {
  expect(new Redactor([{ value: '', placeholder: '$X' }]).redact('abc')).toBe('abc');
});

function percentEncodeAll(text: string): string {
  return [...Buffer.from(text)].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('');
}

function jsonEscapeAll(text: string): string {
  return [...text].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');
}

describe('a token echoed in another form is redacted', () => {
  const forms: Array<[string, string]> = [
    ['upper case', TOKEN.toUpperCase()],
    ['mixed case', [...TOKEN].map((c, i) => (i % 2 === 0 ? c.toUpperCase() : c)).join('')],
    ['percent-encoded, every byte', percentEncodeAll(TOKEN)],
    ['percent-encoded, upper-case hex, some bytes', TOKEN.replace(/_/g, '%5F').replace(/a/g, '%61')],
    ['percent-encoded upper case', percentEncodeAll(TOKEN.toUpperCase()).toUpperCase()],
    ['JSON-escaped, every character', jsonEscapeAll(TOKEN)],
    ['JSON-escaped twice', jsonEscapeAll(TOKEN).replace(/\\/g, '\\\\')],
    ['HTML character references', [...TOKEN].map((c) => `&#x${c.charCodeAt(0).toString(16)};`).join('')],
    ['hex', Buffer.from(TOKEN).toString('hex')],
    ['hex, upper case', Buffer.from(TOKEN).toString('hex').toUpperCase()],
  ];
  test.each(forms)('%s', (_name, form) => {
    const out = redactor.redact(`{"message":"echo ${form} end"}`);
    expect(out).toBe('{"message":"echo $ASI_TOKEN end"}');
  });

  const contexts = ['', 'x', 'xy', 'Authorization: ', 'user:'];
  test.each(contexts)('base64 and base64url inside longer text, after %j', (prefix) => {
    for (const text of [`${prefix}${TOKEN}`, `${prefix}Bearer ${TOKEN}`, `${prefix}${TOKEN}!tail`]) {
      for (const encoded of [Buffer.from(text).toString('base64'), Buffer.from(text).toString('base64url')]) {
        const out = redactor.redact(`data=${encoded};`);
        expect(out).toContain('$ASI_TOKEN');
        // What is left of the encoding no longer decodes to anything holding the token.
        const rest = out.replace('data=', '').replace(';', '').split('$ASI_TOKEN').join('');
        expect(Buffer.from(rest, 'base64').toString('latin1').toLowerCase()).not.toContain(TOKEN.slice(9, 25));
      }
    }
  });
});

test('text that only resembles a token is left alone', () => {
  const text = 'asi_live_0123456789abcdef0123456789abcdee and 0123456789abcdef and YXNpX2xpdmVf';
  expect(redactor.redact(text)).toBe(text);
});

describe('a token split across the events of a stream', () => {
  const half = 20;
  function stream(parts: string[]): { text: string; events: SseEventRecord[] } {
    const events = parts.map((p, i) => ({ event: 'text_delta', data: JSON.stringify({ content: p }), atMs: i }));
    return { text: events.map((e) => `event: ${e.event}\ndata: ${e.data}\n\n`).join(''), events };
  }

  function sseText(events: readonly SseEventRecord[]): string {
    return events.map((e) => `event: ${e.event}\ndata: ${e.data}\n\n`).join('');
  }

  test('two text deltas: each part is replaced in the events and in the text', () => {
    const s = stream(['the token is ', TOKEN.slice(0, half), TOKEN.slice(half), ' bye']);
    const out = redactor.redactStream(s.text, s.events);
    for (const e of out.events) expect(e.data).not.toMatch(/0123456789|asi_live/);
    expect(out.events[1]!.data).toBe('{"content":"$ASI_TOKEN"}');
    expect(out.events[0]!.data).toBe('{"content":"the token is "}');
    expect(out.text).not.toMatch(/0123456789|asi_live/);
    expect(out.text).toContain('the token is ');
  });

  test('many one-character deltas in upper case', () => {
    const s = stream([...TOKEN.toUpperCase()]);
    const out = redactor.redactStream(s.text, s.events);
    const joined = out.events.map((e) => (JSON.parse(e.data) as { content: string }).content).join('');
    expect(joined.toLowerCase()).not.toContain('0123456789');
    expect(out.text.toLowerCase()).not.toMatch(/"content":"[0-9a-f]"/);
  });

  test('raw data lines, not JSON', () => {
    const events = [{ event: 'message', data: TOKEN.slice(0, half), atMs: 0 }, { event: 'message', data: TOKEN.slice(half), atMs: 1 }];
    const text = events.map((e) => `data: ${e.data}\n\n`).join('');
    const out = redactor.redactStream(text, events);
    expect(out.events.map((e) => e.data)).toEqual(['$ASI_TOKEN', '$ASI_TOKEN']);
    expect(out.text).toBe('data: $ASI_TOKEN\n\ndata: $ASI_TOKEN\n\n');
  });

  test('a part written as JSON escapes is replaced where it is written, in the events and in the text', () => {
    const escaped = [...TOKEN.slice(half)].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');
    const events = [
      { event: 'text_delta', data: '{"content":"x"}', atMs: 0 },
      { event: 'text_delta', data: JSON.stringify({ content: TOKEN.slice(0, half) }), atMs: 1 },
      { event: 'text_delta', data: `{"content":"${escaped} \\u0021"}`, atMs: 2 },
    ];
    const text = `event: text_delta\r\ndata:{"content":"x"}\r\n\r\n${events.slice(1).map((e) => `data: ${e.data}\n\n`).join('')}`;
    const out = redactor.redactStream(text, events);
    expect(out.events.map((e) => e.data)).toEqual(['{"content":"x"}', '{"content":"$ASI_TOKEN"}', '{"content":"$ASI_TOKEN \\u0021"}']);
    expect(out.text).toBe('event: text_delta\r\ndata:{"content":"x"}\r\n\r\ndata: {"content":"$ASI_TOKEN"}\n\ndata: {"content":"$ASI_TOKEN \\u0021"}\n\n');
  });

  test('events with other string fields: the parts are found at their own key', () => {
    const parts = ['the token is ', TOKEN.slice(0, half), TOKEN.slice(half), ' bye'];
    const events = parts.map((p, i) => ({ event: 'text_delta', data: JSON.stringify({ id: 'msg_1', content: p }), atMs: i }));
    const out = redactor.redactStream(sseText(events), events);
    expect(out.events.map((e) => e.data)).toEqual([
      '{"id":"msg_1","content":"the token is "}',
      '{"id":"msg_1","content":"$ASI_TOKEN"}',
      '{"id":"msg_1","content":"$ASI_TOKEN"}',
      '{"id":"msg_1","content":" bye"}',
    ]);
    expect(out.text).toBe(sseText(out.events));
  });

  test.each([
    ['delta.text', (p: string) => ({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: p } })],
    ['choices[].delta.content', (p: string) => ({ id: 'chatcmpl-1', object: 'chat.completion.chunk', choices: [{ index: 0, delta: { content: p } }] })],
  ])('a nested key path: %s', (_path, payload) => {
    const events = [TOKEN.slice(0, 7), TOKEN.slice(7, half), TOKEN.slice(half)].map((p, i) => ({ event: 'message', data: JSON.stringify(payload(p)), atMs: i }));
    const out = redactor.redactStream(sseText(events), events);
    expect(out.events.map((e) => e.data)).toEqual(events.map(() => JSON.stringify(payload('$ASI_TOKEN'))));
    expect(out.text).toBe(sseText(out.events));
  });

  test('one-character deltas: every other field is left as it was, even where it holds the same characters', () => {
    const payloads = [...TOKEN].map((c, i) => ({ id: `msg_${i % 10}`, type: 'text_delta', content: c, meta: { note: 'abcdef 0123456789' } }));
    const events = payloads.map((p, i) => ({ event: 'text_delta', data: JSON.stringify(p), atMs: i }));
    const out = redactor.redactStream(sseText(events), events);
    const read = out.events.map((e) => JSON.parse(e.data) as (typeof payloads)[number]);
    expect(read.map(({ content: _content, ...rest }) => rest)).toEqual(payloads.map(({ content: _content, ...rest }) => rest));
    expect(read.map((p) => p.content).join('')).not.toMatch(/0123456789|asi_live/);
    expect(out.text).toBe(sseText(out.events));
  });

  test('a part that moves to another key, in events that carry nothing else', () => {
    const events = [{ content: TOKEN.slice(0, half) }, { text: TOKEN.slice(half) }].map((p, i) => ({ event: 'message', data: JSON.stringify(p), atMs: i }));
    const out = redactor.redactStream(sseText(events), events);
    expect(out.events.map((e) => e.data)).toEqual(['{"content":"$ASI_TOKEN"}', '{"text":"$ASI_TOKEN"}']);
  });

  test('events that hold no token are returned as they were', () => {
    const s = stream(['hello ', 'world']);
    expect(redactor.redactStream(s.text, s.events)).toEqual(s);
  });
});

// How long these take is measured by `npm run bench` (its costs table), not asserted here.
test('4 MiB of JSON with no token in it comes back unchanged', () => {
  const body = JSON.stringify({ operations: Array.from({ length: 20_000 }, (_, i) => ({ operation_uuid: `op_${i}_abcdef`, feature: 'chat', credits: i / 7, metadata: { note: 'x'.repeat(150) } })) });
  expect(body.length).toBeGreaterThan(3_500_000);
  expect(redactor.redact(body)).toBe(body);
});

test('YAML and JavaScript code point escapes of the token are redacted', () => {
  const yaml = [...TOKEN].map((c) => `\\U${c.charCodeAt(0).toString(16).padStart(8, '0')}`).join('');
  const js = [...TOKEN].map((c) => `\\u{${c.charCodeAt(0).toString(16)}}`).join('');
  expect(redactor.redact(`openapi: "${yaml}"`)).toBe('openapi: "$ASI_TOKEN"');
  expect(redactor.redact(`x = "${js}"`)).toBe('x = "$ASI_TOKEN"');
});

test('a stream at the reader\'s caps: 10,000 events of several fields, or JSON nested 100,000 deep, with the token split across two events', () => {
  const filler = 'x'.repeat(150);
  const deltas = Array.from({ length: 10_000 }, (_, i) => ({ event: 'text_delta', data: JSON.stringify({ id: `msg_${i}`, type: 'text_delta', content: i === 5000 ? TOKEN.slice(0, 20) : i === 5001 ? TOKEN.slice(20) : filler }), atMs: i }));
  const deep = Array.from({ length: 4 }, (_, i) => ({ event: 'message', data: `${'["a",'.repeat(100_000)}"v"${']'.repeat(100_000)}`, atMs: i }));
  for (const events of [deltas, deep]) {
    const out = redactor.redactStream(events.map((e) => `data: ${e.data}\n\n`).join(''), events);
    expect(out.text).not.toMatch(/0123456789/);
  }
});
