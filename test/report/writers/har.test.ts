import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, describe, expect, test } from 'vitest';
import type { Exchange } from '../../../lib/model/exchange.ts';
import { exchangesOfHar } from '../../../lib/report/har-exchanges.ts';
import { HarEntryLog, transcriptHarPieces, type HarOptions } from '../../../lib/report/writers/har.ts';
import { RecordFollower } from '../../../lib/runner/record-follower.ts';
import { BASE_URL, sampleReport, sampleTranscript, transcriptJsonl } from '../report-fixtures.ts';

interface HarEntry {
  startedDateTime: string;
  time: number;
  request: { method: string; url: string; httpVersion: string; headers: Array<{ name: string; value: string }>; queryString: unknown[]; postData?: { mimeType: string; text: string }; bodySize: number };
  response: { status: number; statusText: string; headers: unknown[]; content: { size: number; mimeType: string; text?: string; comment?: string; compression?: number }; redirectURL: string; bodySize: number; _error?: string };
  timings: { send: number; wait: number; receive: number };
  _asi: { seq: number; tokenRole: string | null; pool: string | null; error: unknown; events?: unknown[]; chunkTimes?: number[]; streamClosed?: boolean; truncated?: boolean };
}

interface Har {
  log: { version: string; creator: { name: string; version: string }; comment: string; entries: HarEntry[] };
}

const work = mkdtempSync(join(tmpdir(), 'asi-har-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
let transcripts = 0;

/**
 * transcript.har of `exchanges`, written as a run's transcript (lines in the order given), with
 * `unreadableLines` lines that hold no exchange.
 */
async function harText(exchanges: readonly Exchange[] = sampleTranscript(), unreadableLines = 0, options: HarOptions = {}): Promise<string> {
  const file = join(work, `${(transcripts += 1)}.jsonl`);
  writeFileSync(file, transcriptJsonl(exchanges) + 'not an exchange\n'.repeat(unreadableLines));
  let text = '';
  for await (const piece of transcriptHarPieces(sampleReport(), file, options)) text += piece;
  return text;
}

/**
 * The same, written as a run writes it: the entries made as the run's record is read (the run's
 * follower of its transcript, lib/runner/record-follower.ts), then put in order.
 */
async function harTextOfEntries(exchanges: readonly Exchange[] = sampleTranscript(), unreadableLines = 0, options: HarOptions = {}): Promise<string> {
  const file = join(work, `${(transcripts += 1)}.jsonl`);
  writeFileSync(file, transcriptJsonl(exchanges) + 'not an exchange\n'.repeat(unreadableLines));
  const entries = new HarEntryLog(`${file}.har-entries`, options);
  try {
    const record = new RecordFollower(file, BASE_URL, () => ({ add: () => {} }), (exchange) => entries.add(exchange));
    await record.finish();
    entries.unreadableLines = record.unreadableLines;
    let text = '';
    for await (const piece of transcriptHarPieces(sampleReport(), file, { entries })) text += piece;
    return text;
  } finally {
    entries.close();
  }
}

async function har(exchanges?: readonly Exchange[], unreadableLines = 0, options: HarOptions = {}): Promise<Har> {
  return JSON.parse(await harText(exchanges, unreadableLines, options)) as Har;
}

const sample = await har();

/** The fields HAR 1.2 requires (softwareishard.com/blog/har-12-spec), with their types. */
const nameValues = { type: 'array', items: { type: 'object', required: ['name', 'value'], properties: { name: { type: 'string' }, value: { type: 'string' } } } };
const HAR_REQUIRED = {
  type: 'object',
  required: ['log'],
  properties: {
    log: {
      type: 'object',
      required: ['version', 'creator', 'entries'],
      properties: {
        version: { const: '1.2' },
        creator: { type: 'object', required: ['name', 'version'], properties: { name: { type: 'string' }, version: { type: 'string' } } },
        entries: {
          type: 'array',
          items: {
            type: 'object',
            required: ['startedDateTime', 'time', 'request', 'response', 'cache', 'timings'],
            properties: {
              startedDateTime: { type: 'string' },
              time: { type: 'number', minimum: 0 },
              request: {
                type: 'object',
                required: ['method', 'url', 'httpVersion', 'cookies', 'headers', 'queryString', 'headersSize', 'bodySize'],
                properties: {
                  method: { type: 'string' },
                  url: { type: 'string' },
                  httpVersion: { type: 'string' },
                  cookies: { type: 'array' },
                  headers: nameValues,
                  queryString: nameValues,
                  postData: { type: 'object', required: ['mimeType'], properties: { mimeType: { type: 'string' }, text: { type: 'string' } } },
                  headersSize: { type: 'integer' },
                  bodySize: { type: 'integer' },
                },
              },
              response: {
                type: 'object',
                required: ['status', 'statusText', 'httpVersion', 'cookies', 'headers', 'content', 'redirectURL', 'headersSize', 'bodySize'],
                properties: {
                  status: { type: 'integer' },
                  statusText: { type: 'string' },
                  httpVersion: { type: 'string' },
                  cookies: { type: 'array' },
                  headers: nameValues,
                  content: { type: 'object', required: ['size', 'mimeType'], properties: { size: { type: 'integer' }, mimeType: { type: 'string' }, text: { type: 'string' } } },
                  redirectURL: { type: 'string' },
                  headersSize: { type: 'integer' },
                  bodySize: { type: 'integer' },
                },
              },
              cache: { type: 'object' },
              timings: {
                type: 'object',
                required: ['send', 'wait', 'receive'],
                properties: { send: { type: 'number', minimum: 0 }, wait: { type: 'number', minimum: 0 }, receive: { type: 'number', minimum: 0 } },
              },
            },
          },
        },
      },
    },
  },
};

describe('transcript.har', () => {
  const log = sample.log;

  test('has every field HAR 1.2 requires', () => {
    const validate = new Ajv2020({ allErrors: true, strict: false }).compile(HAR_REQUIRED);
    expect(validate(sample) ? [] : validate.errors).toEqual([]);
  });

  test('is HAR 1.2 created by asi-conformance', () => {
    expect(log.version).toBe('1.2');
    expect(log.creator).toEqual({ name: 'asi-conformance', version: '0.1.0' });
  });

  test('holds every exchange, in sequence order', () => {
    expect(log.entries.map((e) => e._asi.seq)).toEqual([1, 2, 3, 4, 5, 6]);
  });

  test('a request carries method, url, headers, parsed query string and its body', () => {
    const get = log.entries[0]!;
    expect(get.request).toMatchObject({ method: 'GET', url: `${BASE_URL}/credits/operations?limit=5&feature=deal_agent`, httpVersion: 'HTTP/1.1', bodySize: 0 });
    expect(get.request.queryString).toEqual([
      { name: 'limit', value: '5' },
      { name: 'feature', value: 'deal_agent' },
    ]);
    expect(get.request.headers).toContainEqual({ name: 'authorization', value: 'Bearer $ASI_TOKEN' });
    const post = log.entries[2]!;
    expect(post.request.postData).toEqual({ mimeType: 'application/json', text: '{"message":"it\'s <b>bold</b>","stream":true}' });
  });

  test('a response carries status, headers, content text and mime type, timings', () => {
    const e = log.entries[0]!;
    expect(e.response).toMatchObject({ status: 200, statusText: 'OK', bodySize: 36, redirectURL: '' });
    expect(e.response.content).toEqual({ size: 36, mimeType: 'application/json', text: '{"operations":[],"next_cursor":null}' });
    expect(e.timings).toMatchObject({ send: 0, wait: 9, receive: 3 });
    expect(e.time).toBe(12);
    expect(e.startedDateTime).toBe('2025-03-01T10:00:01.250Z');
  });

  test('_asi keeps token role, pool, SSE events with arrival times', () => {
    const stream = log.entries[2]!;
    expect(stream._asi).toMatchObject({ seq: 3, tokenRole: 'primary', pool: 'write', error: null, chunkTimes: [14, 39, 41], streamClosed: true });
    expect(stream._asi.events).toContainEqual({ event: 'done', data: '{}', id: '2', atMs: 40 });
  });

  test('a transport failure has status 0 and its error', () => {
    const failed = log.entries[3]!;
    expect(failed.response.status).toBe(0);
    expect(failed.response._error).toBe('UND_ERR_HEADERS_TIMEOUT: Headers Timeout Error');
    expect(failed._asi.error).toEqual({ code: 'UND_ERR_HEADERS_TIMEOUT', message: 'Headers Timeout Error' });
    expect(failed.timings).toMatchObject({ wait: 15000, receive: 0 });
  });

  test('a cut body says so; unreadable transcript lines are counted', async () => {
    const [first] = sampleTranscript();
    const cut = { ...first!, response: { ...first!.response!, body: 'abc', bodyBytes: 70_000, truncated: true } };
    const h = (await har([cut], 2)).log;
    expect(h.entries[0]!.response.content.comment).toBe('body cut: the transcript keeps the first 3 characters of 70000 bytes');
    expect(h.comment).toContain('2 transcript lines could not be read');
  });

  test('a body whose content coding was undone: bodySize is what came, content.size the decoded length, and the record reads it back', async () => {
    const [first] = sampleTranscript();
    const gzipped = { ...first!, response: { ...first!.response!, headers: { ...first!.response!.headers, 'content-encoding': 'gzip' }, encodedBytes: 30 } };
    const text = await harText([gzipped]);
    const entry = (JSON.parse(text) as Har).log.entries[0]!;
    expect(entry.response.bodySize).toBe(30);
    expect(entry.response.content).toMatchObject({ size: 36, compression: 6 });
    expect(exchangesOfHar(JSON.parse(text))[0]!.response).toMatchObject({ bodyBytes: 36, encodedBytes: 30 });
    expect(exchangesOfHar(JSON.parse(await harText([first!])))[0]!.response!.encodedBytes).toBeUndefined();
  });

  test('past its content budget, exchanges keep their head and say their content was left out', async () => {
    const lines = sampleTranscript().map((e) => ({ ...e, response: e.response === undefined ? undefined : { ...e.response, body: 'b'.repeat(100) } }));
    const h = await har(lines, 0, { contentBytes: 150 });
    const leftOut = h.log.entries.filter((e) => e.response.content.comment?.startsWith('content left out'));
    expect(leftOut.length).toBeGreaterThan(0);
    expect(leftOut.every((e) => e.response.content.text === '' || e.response.status === 0)).toBe(true);
    expect(h.log.comment).toMatch(/\d+ exchanges without their content/);
    expect(h.log.entries).toHaveLength(lines.length);
  });

  test('counts its content budget in bytes as written: a control character costs six', async () => {
    const [first] = sampleTranscript();
    const lines = [1, 2, 3].map((seq) => ({ ...first!, seq, response: { ...first!.response!, body: '\u0001'.repeat(100) } }));
    // 600 bytes as written each: two fit in 1 300 bytes, though all three hold only 300 characters.
    const h = await har(lines, 0, { contentBytes: 1300 });
    expect(h.log.entries.map((e) => e.response.content.text?.length)).toEqual([100, 100, 0]);
    expect(h.log.comment).toContain('1 exchanges without their content');
  });

  test('made from entries built while the run read its record, it is the same text, byte for byte', async () => {
    const [first] = sampleTranscript();
    const heavy = [3, 1, 2, 5, 4].map((seq) => ({ ...first!, seq, response: { ...first!.response!, body: `${'b'.repeat(90)}\u0001${seq}` } }));
    const cases: Array<[readonly Exchange[] | undefined, number, HarOptions]> = [
      [undefined, 0, {}],
      [undefined, 2, {}],
      [heavy, 1, { contentBytes: 250 }],
      [[], 0, {}],
    ];
    for (const [exchanges, unreadable, options] of cases) {
      expect(await harTextOfEntries(exchanges, unreadable, options)).toBe(await harText(exchanges, unreadable, options));
    }
  });

  test('a missing transcript is a HAR without entries', async () => {
    let text = '';
    for await (const piece of transcriptHarPieces(sampleReport(), join(work, 'none.jsonl'))) text += piece;
    expect((JSON.parse(text) as Har).log.entries).toEqual([]);
  });
});
