import { request } from 'undici';
import { afterEach, describe, expect, test } from 'vitest';
import { conversationDefects, conversationVariants } from '../../lib/reference/defects/conversation.ts';
import { frameEvent, type SseFraming } from '../../lib/reference/sse-writer.ts';
import { startReference, type RunningReference } from '../../lib/reference/server.ts';

let reference: RunningReference | undefined;
afterEach(async () => {
  await reference?.close();
  reference = undefined;
});

/** Sends one streamed message to a reference started with the given switches; the raw bytes come back. */
async function streamWith(switches: { defects?: string[]; variants?: string[] }): Promise<{ headers: Record<string, unknown>; bytes: Buffer; chunks: number }> {
  reference = await startReference({ ...switches, limits: { read: 1000, write: 1000 } });
  const res = await request(`${reference.baseUrl}/deal-agents/da_1/messages`, {
    method: 'POST',
    headers: { authorization: `Bearer ${reference.tokens['primary']}`, 'content-type': 'application/json', accept: 'text/event-stream' },
    body: JSON.stringify({ message: 'hi' }),
  });
  const parts: Buffer[] = [];
  for await (const chunk of res.body) parts.push(Buffer.from(chunk as Buffer));
  return { headers: res.headers, bytes: Buffer.concat(parts), chunks: parts.length };
}

const PLAIN: SseFraming = { lineEnd: '\n', comments: false, ids: false, multilineData: false, bom: false, noSpace: false };

describe('frameEvent', () => {
  test('one event line, one data line per payload line, a blank line', () => {
    expect(frameEvent('done', '{"a":1}', PLAIN)).toBe('event: done\ndata: {"a":1}\n\n');
    expect(frameEvent('done', '{\n"a":1\n}', { ...PLAIN, lineEnd: '\r\n', noSpace: true }, '7')).toBe('event:done\r\nid:7\r\ndata:{\r\ndata:"a":1\r\ndata:}\r\n\r\n');
  });
});

describe('framing variants change only the framing', () => {
  test('every variant is a known switch', () => {
    expect(conversationVariants.map((v) => v.name)).toContain('conversation-framing-crlf');
  });

  test.each([
    ['conversation-framing-crlf', (t: string) => t.includes('\r\n\r\n') && !/[^\r]\n/.test(t)],
    ['conversation-framing-cr', (t: string) => t.includes('\r\r') && !t.includes('\n')],
    ['conversation-framing-comments', (t: string) => t.startsWith(': stream open\n') && t.includes(': keepalive\nevent: done')],
    ['conversation-framing-id-retry', (t: string) => t.startsWith('retry: 3000\n\n') && t.includes('id: 11\n')],
    ['conversation-framing-multiline-data', (t: string) => t.includes('data: {\ndata:   "content"')],
    ['conversation-framing-no-space', (t: string) => t.startsWith('event:text_delta\ndata:{')],
    ['conversation-no-tool-events', (t: string) => !t.includes('tool_use') && t.includes('event: done')],
    ['conversation-tool-ids-numeric', (t: string) => /event: tool_use\ndata: \{"id":\d+,/.test(t) && /event: tool_result\ndata: \{"id":\d+\}/.test(t)],
    ['conversation-stream-error-midway', (t: string) => /event: tool_result\n.*\n\nevent: error\n.*\n\nevent: text_delta/.test(t) && t.includes('event: done')],
  ])('%s', async (variant, holds) => {
    const { bytes } = await streamWith({ variants: [variant] });
    expect(holds(bytes.toString('utf8'))).toBe(true);
  });

  test('conversation-framing-bom starts with the three BOM bytes', async () => {
    const { bytes } = await streamWith({ variants: ['conversation-framing-bom'] });
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  });
});

describe('stream defects', () => {
  test('every defect names requirements and suites', () => {
    for (const d of conversationDefects) {
      expect(d.breaks.length, d.name).toBeGreaterThan(0);
      expect(d.suites.length, d.name).toBeGreaterThan(0);
    }
  });

  test('conversation-stream-flush-at-end writes the whole stream at once at the end', async () => {
    const started = Date.now();
    const { bytes, chunks } = await streamWith({ defects: ['conversation-stream-flush-at-end'] });
    expect(chunks).toBe(1);
    expect(bytes.toString('utf8')).toContain('event: done');
    expect(Date.now() - started).toBeGreaterThan(400);
  });

  test('conversation-stream-no-pool-headers drops the X-RateLimit-* headers only', async () => {
    const { headers } = await streamWith({ defects: ['conversation-stream-no-pool-headers'] });
    expect(Object.keys(headers).filter((h) => h.startsWith('x-ratelimit-'))).toEqual([]);
    expect(headers['x-request-id']).toBeDefined();
  });

  test('conversation-stream-as-json sends event-stream text as application/json', async () => {
    const { headers, bytes } = await streamWith({ defects: ['conversation-stream-as-json'] });
    expect(headers['content-type']).toMatch(/^application\/json/);
    expect(bytes.toString('utf8')).toMatch(/^event: text_delta\n/);
  });

  test.each([
    ['conversation-stream-no-done', (t: string) => !t.includes('event: done')],
    ['conversation-stream-event-after-done', (t: string) => /event: done\n.*\n\nevent: text_delta/.test(t)],
    ['conversation-stream-error-after-done', (t: string) => /event: done\n.*\n\nevent: error\n/.test(t)],
    ['conversation-stream-unmatched-tool-result', (t: string) => t.includes('data: {"id":"tool_never_called"}')],
    ['conversation-stream-done-without-messages', (t: string) => /event: done\ndata: \{"conversation_id":"[^"]+"\}/.test(t)],
    ['conversation-stream-unknown-event', (t: string) => t.startsWith('event: thinking\n')],
    ['conversation-stream-data-not-json', (t: string) => t.startsWith('event: text_delta\ndata: The deal \n')],
  ])('%s', async (defect, holds) => {
    const { bytes } = await streamWith({ defects: [defect] });
    expect(holds(bytes.toString('utf8'))).toBe(true);
  });
});
