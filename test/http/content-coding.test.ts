import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliCompressSync, constants, createGzip, deflateSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { HttpClient } from '../../lib/http/client.ts';
import { contentCodings, UNDECODABLE_CODE, UNKNOWN_CODING_CODE } from '../../lib/http/content-coding.ts';

/**
 * A body under a content coding is judged as what it encodes (lib/http/content-coding.ts): the
 * harness sends no Accept-Encoding, so any coding is the server's to choose (RFC 9110 §12.5.3).
 */
const JSON_TEXT = JSON.stringify({ workspace_id: 'ws_1', note: 'é ✓ 𝄞' });
let server: Server;
let base = '';
let acceptEncoding: Array<string | undefined> = [];

function answer(req: IncomingMessage, res: ServerResponse): void {
  acceptEncoding.push(req.headers['accept-encoding']);
  const json = (coding: string, body: Buffer): void => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': coding, 'content-length': String(body.length) });
    res.end(req.method === 'HEAD' ? undefined : body);
  };
  switch (req.url) {
    case '/v1/gzip':
      return json('gzip', gzipSync(JSON_TEXT));
    case '/v1/deflate':
      return json('deflate', deflateSync(JSON_TEXT));
    case '/v1/br':
      return json('br', brotliCompressSync(JSON_TEXT));
    case '/v1/gzip-then-br':
      return json('gzip, br', brotliCompressSync(gzipSync(JSON_TEXT)));
    case '/v1/not-gzip':
      return json('gzip', Buffer.from(JSON_TEXT));
    case '/v1/zstd':
      return json('zstd', Buffer.from([0x28, 0xb5, 0x2f, 0xfd, 1, 2, 3]));
    case '/v1/zstd-empty':
      return json('zstd', Buffer.alloc(0));
    case '/v1/bomb':
      // 8 MiB of zeros in a few KiB: the cap counts what it decodes to.
      return json('gzip', gzipSync(Buffer.alloc(8 * 1024 * 1024)));
    case '/v1/stream': {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'content-encoding': 'gzip' });
      const encoder = createGzip();
      encoder.pipe(res);
      let n = 0;
      const timer = setInterval(() => {
        n += 1;
        encoder.write(n < 3 ? `event: text_delta\ndata: {"content":"${n}"}\n\n` : 'event: done\ndata: {}\n\n');
        encoder.flush(constants.Z_SYNC_FLUSH);
        if (n === 3) {
          clearInterval(timer);
          encoder.end();
        }
      }, 30);
      return;
    }
    default:
      res.writeHead(404);
      res.end();
  }
}

beforeAll(async () => {
  server = createServer(answer);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

async function get(path: string, options: { method?: string; limits?: object } = {}): Promise<Awaited<ReturnType<HttpClient['send']>>> {
  const client = new HttpClient({ baseUrl: base, tokens: {}, limits: options.limits ?? {} });
  try {
    return await client.send({ path, ...(options.method === undefined ? {} : { method: options.method }) });
  } finally {
    await client.close();
  }
}

describe('content codings', () => {
  test('a list of codings is read in the order applied, identity and case aside', () => {
    expect(contentCodings(undefined)).toEqual([]);
    expect(contentCodings('identity')).toEqual([]);
    expect(contentCodings(' GZIP ,identity, br')).toEqual(['gzip', 'br']);
  });

  test.each(['/gzip', '/deflate', '/br', '/gzip-then-br'])('%s: the body is judged as the JSON it encodes, its bytes counted decoded, the header kept', async (path) => {
    const ex = await get(path);
    expect(ex.error).toBeUndefined();
    expect(ex.response?.body).toBe(JSON_TEXT);
    expect(ex.response?.bodyBytes).toBe(Buffer.byteLength(JSON_TEXT));
    expect(ex.response?.encodedBytes).toBe(Number(ex.response?.headers['content-length']));
    expect(ex.response?.headers['content-encoding']).toBeDefined();
  });

  test('the harness asks for no coding: requests carry no Accept-Encoding', async () => {
    acceptEncoding = [];
    await get('/gzip');
    expect(acceptEncoding).toEqual([undefined]);
  });

  test('HEAD: an empty body is empty in any coding, known or not', async () => {
    for (const path of ['/gzip', '/zstd-empty']) {
      const ex = await get(path, { method: path === '/gzip' ? 'HEAD' : 'GET' });
      expect(ex.error, path).toBeUndefined();
      expect(ex.response?.body, path).toBe('');
    }
  });

  test('a body that is not of its coding is no answer to judge, and says which coding failed', async () => {
    const ex = await get('/not-gzip');
    expect(ex.response).toBeUndefined();
    expect(ex.error?.code).toBe(UNDECODABLE_CODE);
    expect(ex.error?.message).toMatch(/not gzip as its Content-Encoding \(gzip\) says/);
  });

  test('a coding the harness cannot undo leaves the body unjudged, not failed', async () => {
    const ex = await get('/zstd');
    expect(ex.response).toBeUndefined();
    expect(ex.error).toMatchObject({ code: UNKNOWN_CODING_CODE });
    expect(ex.error?.message).toContain('"zstd"');
  });

  test('a small body that inflates past the cap is cut at the cap, as a large one', async () => {
    const ex = await get('/bomb', { limits: { maxResponseBytes: 100_000 } });
    expect(ex.error?.code).toBe('ASI_BODY_TOO_LARGE');
    expect(ex.response?.truncated).toBe(true);
    expect(ex.response!.body.length).toBeLessThanOrEqual(65_536);
  });

  test('a gzipped event stream, flushed at every event, is parsed to its end', async () => {
    const client = new HttpClient({ baseUrl: base, tokens: {} });
    try {
      const ex = await client.send({ path: '/stream', stream: true });
      expect(ex.error).toBeUndefined();
      expect(ex.response?.events?.map((e) => e.event)).toEqual(['text_delta', 'text_delta', 'done']);
      expect(ex.response?.streamClosed).toBe(true);
    } finally {
      await client.close();
    }
  });
});
