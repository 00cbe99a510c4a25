import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { HttpClient } from '../../lib/http/client.ts';
import type { Exchange } from '../../lib/model/exchange.ts';

const KEY = 'gw-0123456789abcdef';
let server: Server;
let base = '';
const seen: IncomingHttpHeaders[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    seen.push(req.headers);
    res.writeHead(200, { 'content-type': 'application/json', 'x-echo': String(req.headers['x-key']) });
    res.end(JSON.stringify({ key: req.headers['x-key'] }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

test('extra headers go with every request to base_url; a test header of the same name wins; a secret one is recorded as its variable', async () => {
  const recorded: Exchange[] = [];
  const client = new HttpClient({
    baseUrl: base,
    tokens: {},
    transport: { headers: [{ name: 'x-key', value: KEY, placeholder: '$GW_KEY' }, { name: 'x-tenant', value: 'acme' }] },
    onExchange: (e) => recorded.push(e),
  });
  seen.length = 0;
  const ex = await client.send({ path: '/health' });
  await client.send({ path: '/health', headers: { 'X-Tenant': 'other' } });
  expect(seen.map((h) => [h['x-key'], h['x-tenant']])).toEqual([
    [KEY, 'acme'],
    [KEY, 'other'],
  ]);
  expect(ex.request.headers['x-key']).toBe('$GW_KEY');
  // Echoed back in a header and the body, the value is still only its placeholder.
  expect(JSON.stringify(recorded)).not.toContain(KEY);
  expect(ex.response?.headers['x-echo']).toBe('$GW_KEY');
  expect(ex.request.transport).toBeUndefined();
  await client.close();
});
