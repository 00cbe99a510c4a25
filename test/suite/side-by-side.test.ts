import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { HttpClient } from '../../lib/http/client.ts';
import type { Exchange } from '../../lib/model/exchange.ts';
import { FAR_PROBES_IN_FLIGHT, inLanes, NEAR_ROUND_TRIP_MS, PROBES_IN_FLIGHT, RoundTripFloor, sendAll, sideBySide } from '../../lib/suite/side-by-side.ts';

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

test('a far target gets more side by side, in proportion to its round trip, within the cap and the profile', () => {
  expect(sideBySide(256, 0)).toBe(PROBES_IN_FLIGHT);
  expect(sideBySide(256, NEAR_ROUND_TRIP_MS)).toBe(PROBES_IN_FLIGHT);
  expect(sideBySide(256, 2 * NEAR_ROUND_TRIP_MS)).toBe(2 * PROBES_IN_FLIGHT);
  // The user guide's figures (docs/guide/certifying.md): 12 at 50 ms, the cap from 130 ms.
  expect(sideBySide(256, 50)).toBe(12);
  expect(sideBySide(256, 125)).toBe(30);
  expect(sideBySide(256, 130)).toBe(FAR_PROBES_IN_FLIGHT);
  expect(sideBySide(256, 200)).toBe(FAR_PROBES_IN_FLIGHT);
  expect(sideBySide(10, 200)).toBe(10);
});

test("the round trip is the shortest of the last answers': queueing only lengthens one, an unanswered request says nothing", () => {
  const answered = (headersMs: number): Exchange => ({ seq: 1, startedAt: '', request: { method: 'GET', url: '', headers: {} }, response: { status: 200, headers: {}, body: '', bodyBytes: 0, truncated: false }, timings: { totalMs: headersMs + 5, headersMs } });
  const floor = new RoundTripFloor();
  expect(floor.ms()).toBe(0);
  for (const ms of [210, 540, 205, 900]) floor.note(answered(ms));
  floor.note({ ...answered(0), response: undefined, timings: { totalMs: 0 } });
  expect(floor.ms()).toBe(205);
  // The oldest answers leave: a target that moved near is seen near again.
  for (let i = 0; i < 40; i++) floor.note(answered(2));
  expect(floor.ms()).toBe(2);
});

test('a task that throws before it returns a promise rejects its own call and frees its lane', async () => {
  const lane = inLanes(1);
  const thrown = lane((): Promise<number> => {
    throw new Error('at once');
  });
  await expect(thrown).rejects.toThrow('at once');
  await expect(lane(async () => 2)).resolves.toBe(2);
});
