import { createRequire } from 'node:module';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { Agent, EnvHttpProxyAgent, errors, request } from '../../lib/http/undici-parts.ts';

// undici's entry, loaded here only to compare: the harness never loads it.
const entry = createRequire(import.meta.url)('undici') as typeof import('undici');

const server = createServer((req, res) => {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ method: req.method, url: req.url }));
});
let base = '';
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe("undici's parts, loaded without its entry", () => {
  test('are the very classes and errors the entry exports', () => {
    expect(Agent).toBe(entry.Agent);
    expect(EnvHttpProxyAgent).toBe(entry.EnvHttpProxyAgent);
    expect(errors).toBe(entry.errors);
  });

  test('request sends the path and the query as given, through the dispatcher given', async () => {
    const agent = new Agent();
    try {
      for (const path of ['/v1/me', '/v1/ledger?from=2024-01-01&feature=a%20b', '/v1/x?']) {
        const res = await request(`${base}${path}`, { method: 'GET', dispatcher: agent });
        expect(res.statusCode).toBe(200);
        expect(await res.body.json()).toEqual({ method: 'GET', url: path === '/v1/x?' ? '/v1/x' : path });
      }
      const head = await request(new URL(`${base}/v1/me`), { method: 'HEAD', dispatcher: agent });
      expect(head.statusCode).toBe(200);
      await head.body.dump();
    } finally {
      await agent.close();
    }
  });

  test('a URL that is not one is refused with the error the entry gives', async () => {
    const agent = new Agent();
    const ours = await request('not a url', { method: 'GET', dispatcher: agent }).catch((e: unknown) => e);
    // The entry throws before its promise: caught either way.
    const theirs = await (async () => entry.request('not a url', { method: 'GET', dispatcher: agent }))().catch((e: unknown) => e);
    await agent.close();
    expect(ours).toBeInstanceOf(Error);
    expect((ours as Error).constructor).toBe((theirs as Error).constructor);
    expect((ours as Error).message).toBe((theirs as Error).message);
  });
});
