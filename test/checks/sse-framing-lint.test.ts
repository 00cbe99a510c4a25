import { describe, expect, test } from 'vitest';
import { framingFinding, lintEventStream } from '../../lib/checks/sse-framing-lint.ts';
import { GOOD_TURN, LINE_ENDS, bytesOf, frame, read, streamExchange } from './sse-fixtures.ts';

const kinds = (text: string): string[] => lintEventStream(text).notes.map((n) => n.kind);

describe('lintEventStream', () => {
  test.each(LINE_ENDS)('a plain stream with %s line ends has no note', (_name, eol) => {
    const lint = lintEventStream(frame(GOOD_TURN, eol));
    expect(lint.notes).toEqual([]);
    expect(lint.fields).toEqual({ event: 5, data: 5, id: 0, retry: 0 });
  });

  test.each(LINE_ENDS)('comments, id and retry with %s line ends are legal: no note, but counted', (_name, eol) => {
    const text = `: open${eol}retry: 3000${eol}${eol}: keepalive${eol}id: 1${eol}event: done${eol}data: {}${eol}${eol}`;
    const lint = lintEventStream(text);
    expect(lint.notes).toEqual([]);
    expect(lint.comments).toBe(2);
    expect(lint.fields).toEqual({ event: 1, data: 1, id: 1, retry: 1 });
  });

  test('mixed line ends are noted once', () => {
    expect(kinds('event: a\r\ndata: {}\n\nevent: b\rdata: {}\r\r')).toEqual(['mixed-line-ends']);
  });

  test('an unknown field is noted', () => {
    expect(kinds('event: done\nfoo: bar\ndata: {}\n\n')).toEqual(['unknown-field']);
  });

  test('a retry that is not all digits is noted (format-field-retry-bogus)', () => {
    expect(kinds('retry: 3000xyz\n\nretry: -1\n\nretry:\n\n')).toEqual(['invalid-retry', 'invalid-retry', 'invalid-retry']);
  });

  test('a field line without a colon is noted', () => {
    expect(kinds('event: done\ndata\n\n')).toEqual(['field-without-colon']);
  });

  test('an event name with white space around it is noted', () => {
    expect(kinds('event:  done\ndata: {}\n\n')).toEqual(['padded-event-name']);
  });

  test('a NUL character is noted (format-null-character)', () => {
    expect(kinds('event: text_delta\ndata: {"content":"a\u0000"}\n\n')).toEqual(['nul-character']);
  });

  test('a last event without a blank line is noted: parsers discard it', () => {
    expect(kinds('event: done\ndata: {}\n')).toEqual(['unterminated-event']);
    expect(kinds('event: done\ndata: {}')).toEqual(['unterminated-event']);
  });

  test('notes of one kind stop at three', () => {
    expect(kinds('a: 1\nb: 2\nc: 3\nd: 4\n\n')).toHaveLength(3);
  });
});

describe('framingFinding (INFO)', () => {
  test('a plain stream passes with a summary', async () => {
    const f = framingFinding(streamExchange(await read([bytesOf(frame(GOOD_TURN, '\r\n'))])));
    expect(f.verdict).toBe('pass');
    expect(f.note).toMatch(/line ends CRLF/);
  });

  test('an odd stream warns and never fails', async () => {
    const f = framingFinding(streamExchange(await read([bytesOf('event: done\nx-trace: 1\ndata: {}\n\n')])));
    expect(f.verdict).toBe('warn');
    expect(f.note).toMatch(/unknown field "x-trace"/);
  });

  test('a stream cut by the budget is not blamed for its unterminated end', async () => {
    const ex = streamExchange(await read([bytesOf('event: done\ndata: {}\n\nevent: text_delta\ndata: {}\n')]));
    ex.response!.streamClosed = false;
    expect(framingFinding(ex).verdict).toBe('pass');
  });
});
