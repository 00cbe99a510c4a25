import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import type { Exchange } from '../../../lib/model/exchange.ts';
import { eachExchange, exchangeAt, type LinePlace } from '../../../lib/report/writers/transcript.ts';
import { sampleTranscript } from '../report-fixtures.ts';

const work = mkdtempSync(join(tmpdir(), 'asi-transcript-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('the transcript, read line by line', () => {
  test('gives each exchange with the place of its line, counts the lines that hold none, and reads an exchange back at its place', async () => {
    const [first, second] = sampleTranscript();
    // Multi-byte text before a line moves its byte offset away from its character offset.
    const wide = { ...first!, seq: 10, response: { ...first!.response!, body: 'é€😀'.repeat(30_000) } };
    const file = join(work, 'mixed.jsonl');
    writeFileSync(file, [JSON.stringify(wide), 'not json', '', `${JSON.stringify(second)}\r`, '{"seq":3,"request":{"meth'].join('\n'));
    const seen: Array<{ exchange: Exchange; place: LinePlace }> = [];
    const unreadable = await eachExchange(file, (exchange, place) => seen.push({ exchange, place }));
    expect(unreadable).toBe(2);
    expect(seen.map((s) => s.exchange.seq)).toEqual([10, second!.seq]);
    const handle = await open(file, 'r');
    try {
      for (const { exchange, place } of seen) expect(await exchangeAt(handle, place)).toEqual(exchange);
    } finally {
      await handle.close();
    }
  });

  test('with a text to look for, lines without it are skipped unparsed', async () => {
    const [first, second] = sampleTranscript();
    const file = join(work, 'search.jsonl');
    const wanted = { ...second!, request: { ...second!.request, url: 'http://127.0.0.1:1/v1/openapi.json' } };
    writeFileSync(file, [JSON.stringify(first), 'not json', JSON.stringify(wanted), '/openapi.json, but not JSON'].join('\n'));
    const seen: number[] = [];
    expect(await eachExchange(file, (exchange) => seen.push(exchange.seq), '/openapi.json')).toBe(1);
    expect(seen).toEqual([wanted.seq]);
  });

  test('a run that sent nothing has no transcript: no exchange, nothing unreadable', async () => {
    expect(await eachExchange(join(work, 'none.jsonl'), () => expect.unreachable())).toBe(0);
  });
});
