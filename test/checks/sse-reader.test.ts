import { describe, expect, test } from 'vitest';
import { readEventStream } from '../../lib/http/event-stream-reader.ts';
import { LINE_ENDS, bytesOf, read, shapeOf, splitAt } from './sse-fixtures.ts';

// Inputs after web-platform-tests eventsource/format-*.any.js, read the way the client reads a
// response body: bytes in chunks, decoded incrementally, fed to eventsource-parser.

describe('readEventStream: legal framing', () => {
  test.each(LINE_ENDS)('stream with %s line ends', async (_name, eol) => {
    const text = `event: text_delta${eol}data: {"content":"a"}${eol}${eol}event: done${eol}data: {"conversation_id":"c","messages":[]}${eol}${eol}`;
    const reading = await read([bytesOf(text)]);
    expect(shapeOf(reading.events)).toEqual([
      { event: 'text_delta', data: '{"content":"a"}' },
      { event: 'done', data: '{"conversation_id":"c","messages":[]}' },
    ]);
    expect(reading.closed).toBe(true);
  });

  test.each(LINE_ENDS)('stream with comments and %s line ends (format-comments)', async (_name, eol) => {
    const text = `: hello${eol}:${eol}event: text_delta${eol}: between fields${eol}data: {"content":"a"}${eol}${eol}: keepalive${eol}`;
    expect(shapeOf((await read([bytesOf(text)])).events)).toEqual([{ event: 'text_delta', data: '{"content":"a"}' }]);
  });

  test.each(LINE_ENDS)('stream with retry and id fields and %s line ends (format-field-retry, format-field-id)', async (_name, eol) => {
    const text = `retry: 3000${eol}${eol}id: 1${eol}event: text_delta${eol}data: {"content":"a"}${eol}${eol}`;
    expect(shapeOf((await read([bytesOf(text)])).events)).toEqual([{ event: 'text_delta', data: '{"content":"a"}', id: '1' }]);
  });

  test('stream with a bogus retry field (format-field-retry-bogus) still yields its event', async () => {
    const text = 'retry: 3000xyz\nevent: text_delta\ndata: {"content":"a"}\n\n';
    expect(shapeOf((await read([bytesOf(text)])).events)).toEqual([{ event: 'text_delta', data: '{"content":"a"}' }]);
  });

  test.each(LINE_ENDS)('stream with JSON over several data lines and %s line ends (format-field-data)', async (_name, eol) => {
    const text = `event: done${eol}data: {${eol}data:   "conversation_id": "c",${eol}data:   "messages": []${eol}data: }${eol}${eol}`;
    const [event] = (await read([bytesOf(text)])).events;
    expect(event?.data).toBe('{\n  "conversation_id": "c",\n  "messages": []\n}');
    expect(JSON.parse(event!.data)).toEqual({ conversation_id: 'c', messages: [] });
  });

  test('stream with a byte order mark (format-bom)', async () => {
    const bytes = new Uint8Array([0xef, 0xbb, 0xbf, ...bytesOf('event: text_delta\ndata: {"content":"a"}\n\n')]);
    for (let cut = 1; cut <= 3; cut++) {
      const reading = await read(splitAt(bytes, [cut]));
      expect(shapeOf(reading.events)).toEqual([{ event: 'text_delta', data: '{"content":"a"}' }]);
    }
  });

  test('stream with fields without a space after the colon', async () => {
    expect(shapeOf((await read([bytesOf('event:text_delta\ndata:{"content":"a"}\n\n')])).events)).toEqual([{ event: 'text_delta', data: '{"content":"a"}' }]);
  });

  test('stream with multi-byte characters split inside a character (format-utf-8)', async () => {
    const bytes = bytesOf('event: text_delta\ndata: {"content":"日本 👋🏽"}\n\n');
    const start = 'event: text_delta\ndata: {"content":"'.length;
    for (let cut = start; cut < start + 12; cut++) {
      expect((await read(splitAt(bytes, [cut])))?.events[0]?.data).toBe('{"content":"日本 👋🏽"}');
    }
  });

  test('stream ending in a lone CR still delivers its last event', async () => {
    expect(shapeOf((await read([bytesOf('event: done\rdata: {}\r\r')])).events)).toEqual([{ event: 'done', data: '{}' }]);
  });

  test('a trailing event without a blank line is discarded (format-field-parsing)', async () => {
    const reading = await read([bytesOf('event: text_delta\ndata: {"content":"a"}\n\nevent: done\ndata: {}')]);
    expect(reading.events.map((e) => e.event)).toEqual(['text_delta']);
  });

  test('an event without an event field has the type message (format-field-event)', async () => {
    expect((await read([bytesOf('data: {"content":"a"}\n\n')])).events[0]?.event).toBe('message');
  });
});

describe('readEventStream: bounded reading', () => {
  /** A body that sends `first` and then never sends anything again. */
  async function* stalling(first: string): AsyncGenerator<Buffer> {
    yield Buffer.from(first);
    await new Promise(() => {});
  }

  test('a stream that stalls stops at the idle budget', async () => {
    const started = Date.now();
    const reading = await readEventStream(stalling('event: text_delta\ndata: {"content":"a"}\n\n'), started, { totalMs: 5_000, idleMs: 100, maxBytes: 1 << 20 });
    expect(reading.cutShort).toBe('idle-timeout');
    expect(reading.closed).toBe(false);
    expect(reading.events).toHaveLength(1);
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  test('a stream that keeps sending stops at the total budget', async () => {
    async function* endless(): AsyncGenerator<Buffer> {
      for (;;) {
        await new Promise((r) => setTimeout(r, 10));
        yield Buffer.from(': keepalive\n');
      }
    }
    const reading = await readEventStream(endless(), Date.now(), { totalMs: 200, idleMs: 100, maxBytes: 1 << 20 });
    expect(reading.cutShort).toBe('total-timeout');
  });

  test('a stream that grows without limit stops at the size budget', async () => {
    async function* huge(): AsyncGenerator<Buffer> {
      for (;;) yield Buffer.from(`event: text_delta\ndata: {"content":"${'x'.repeat(1000)}"}\n\n`);
    }
    const reading = await readEventStream(huge(), Date.now(), { totalMs: 5_000, idleMs: 1_000, maxBytes: 10_000 });
    expect(reading.cutShort).toBe('too-large');
    expect(reading.bytes).toBeGreaterThan(10_000);
  });

  test('a flood of tiny events stops at the event budget, keeping that many', async () => {
    async function* flood(): AsyncGenerator<Buffer> {
      for (;;) yield Buffer.from('data:x\n\n'.repeat(1000));
    }
    const reading = await readEventStream(flood(), Date.now(), { totalMs: 5_000, idleMs: 1_000, maxBytes: 1 << 20, maxEvents: 2_500 });
    expect(reading.cutShort).toBe('too-large');
    expect(reading.tooManyEvents).toBe(true);
    expect(reading.events).toHaveLength(2_500);
    expect(reading.bytes).toBeLessThan(40_000);
  });

  test.each([
    ['done', 'the grace', 'event: done\ndata: {"conversation_id":"c","messages":[]}\n\n', 4_000, 90],
    ['error', 'the idle budget (an error starts no grace)', 'event: error\ndata: {"code":"x","category":"transient","message":"m"}\n\n', 300, 290],
  ])('a stream left open after a last %s stops after %s, not cut short, its events complete', async (last, _after, text, idleMs, atLeastMs) => {
    const started = Date.now();
    const reading = await readEventStream(stalling(text), started, { totalMs: 5_000, idleMs, maxBytes: 1 << 20, afterTerminalMs: 100 });
    expect(reading.openAfterTerminal).toBe(true);
    expect(reading.cutShort).toBeUndefined();
    expect(reading.closed).toBe(false);
    expect(reading.events.map((e) => e.event)).toEqual([last]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(atLeastMs);
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  test('events that follow the terminal event within the grace are still read', async () => {
    async function* late(): AsyncGenerator<Buffer> {
      yield Buffer.from('event: done\ndata: {}\n\n');
      await new Promise((r) => setTimeout(r, 20));
      yield Buffer.from('event: text_delta\ndata: {"content":"late"}\n\n');
    }
    const reading = await readEventStream(late(), Date.now(), { totalMs: 5_000, idleMs: 1_000, maxBytes: 1 << 20, afterTerminalMs: 1_000 });
    expect(reading.events.map((e) => e.event)).toEqual(['done', 'text_delta']);
    expect(reading.closed).toBe(true);
  });
  test('a stream that goes on after an error event is read past the grace, to its end', async () => {
    async function* recovering(): AsyncGenerator<Buffer> {
      yield Buffer.from('event: error\ndata: {"code":"x","category":"transient","message":"m"}\n\n');
      for (let i = 0; i < 4; i++) {
        await new Promise((r) => setTimeout(r, 60));
        yield Buffer.from('event: text_delta\ndata: {"content":"more"}\n\n');
      }
      yield Buffer.from('event: done\ndata: {"conversation_id":"c","messages":[]}\n\n');
    }
    const reading = await readEventStream(recovering(), Date.now(), { totalMs: 5_000, idleMs: 1_000, maxBytes: 1 << 20, afterTerminalMs: 100 });
    expect(reading.events.map((e) => e.event)).toEqual(['error', 'text_delta', 'text_delta', 'text_delta', 'text_delta', 'done']);
    expect(reading.closed).toBe(true);
  });

  test('an error event starts no grace: a turn that goes on after a pause longer than the grace is read to its done', async () => {
    async function* slowContinuation(): AsyncGenerator<Buffer> {
      yield Buffer.from('event: error\ndata: {"code":"x","category":"transient","message":"m"}\n\n');
      await new Promise((r) => setTimeout(r, 300));
      yield Buffer.from('event: text_delta\ndata: {"content":"more"}\n\nevent: done\ndata: {"conversation_id":"c","messages":[]}\n\n');
    }
    const reading = await readEventStream(slowContinuation(), Date.now(), { totalMs: 5_000, idleMs: 1_000, maxBytes: 1 << 20, afterTerminalMs: 100 });
    expect(reading.events.map((e) => e.event)).toEqual(['error', 'text_delta', 'done']);
    expect(reading.closed).toBe(true);
    expect(reading.openAfterTerminal).toBeUndefined();
  });
});
