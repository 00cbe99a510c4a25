import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { HttpClient } from '../../lib/http/client.ts';
import { inLanes, PROBES_IN_FLIGHT, sendAll, sideBySide } from '../../lib/suite/side-by-side.ts';

let server: Server;
let client: HttpClient;
let running = 0;
let most = 0;
let streaming = 0;
let mostStreams = 0;

beforeAll(async () => {
  // Answers each request after a pause, the later ones sooner: the order of answers is not the order sent.
  server = createServer((req, res) => {
    if (req.url?.startsWith('/v1/events') === true) {
      streaming += 1;
      mostStreams = Math.max(mostStreams, streaming);
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('event: start\ndata: {}\n\n');
      setTimeout(() => {
        streaming -= 1;
        res.end('event: done\ndata: {}\n\n');
      }, 30);
      return;
    }
    running += 1;
    most = Math.max(most, running);
    const n = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('n'));
    setTimeout(() => {
      running -= 1;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ n }));
    }, 40 - 2 * n);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  client = new HttpClient({ baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, tokens: {} });
});

afterAll(async () => {
  await client.close();
  await new Promise((r) => server.close(r));
});

test('independent requests go side by side, never more at once than asked, their exchanges in the order given', async () => {
  most = 0;
  const sent = await sendAll(client, Array.from({ length: 12 }, (_, n) => ({ path: '/v1/n', query: { n } })), 4);
  expect(most).toBe(4);
  expect(sent.map((e) => JSON.parse(e.response!.body) as { n: number }).map((b) => b.n)).toEqual([...Array(12).keys()]);
});

test('event streams among them go one at a time, the other requests beside them', async () => {
  most = 0;
  mostStreams = 0;
  const requests = [
    ...Array.from({ length: 3 }, () => ({ method: 'POST', path: '/v1/events', json: {}, stream: true })),
    ...Array.from({ length: 4 }, (_, n) => ({ path: '/v1/n', query: { n } })),
  ];
  const sent = await sendAll(client, requests, 4);
  expect(mostStreams).toBe(1);
  expect(most).toBeGreaterThan(1);
  expect(sent.slice(0, 3).every((e) => e.response?.status === 200)).toBe(true);
});

test('one at a time is one at a time', async () => {
  most = 0;
  await sendAll(client, Array.from({ length: 3 }, (_, n) => ({ path: '/v1/n', query: { n } })), 1);
  expect(most).toBe(1);
});

test('the profile lowers the requests side by side, never to none', () => {
  expect(sideBySide(64)).toBe(PROBES_IN_FLIGHT);
  expect(sideBySide(2)).toBe(2);
  expect(sideBySide(0)).toBe(1);
});

test('a task that throws before it returns a promise rejects its own call and frees its lane', async () => {
  const lane = inLanes(1);
  const thrown = lane((): Promise<number> => {
    throw new Error('at once');
  });
  await expect(thrown).rejects.toThrow('at once');
  await expect(lane(async () => 2)).resolves.toBe(2);
});
