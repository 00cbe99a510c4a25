import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ExchangeSequence, HttpClient, limitsForTimeout } from '../../lib/http/client.ts';
import { Pacer } from '../../lib/http/pacer.ts';
import type { Exchange } from '../../lib/model/exchange.ts';

const TOKEN = 'asi_live_0123456789abcdef0123456789abcdef';
let server: Server;
let base = '';
let seenAuth: Array<string | undefined> = [];
let lastHealth = 0;

function handler(req: IncomingMessage, res: ServerResponse): void {
  seenAuth.push(req.headers.authorization);
  const path = req.url ?? '';
  if (path.startsWith('/v1/echo')) {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ url: path, auth: req.headers.authorization, cookie: req.headers.cookie, body }));
    });
  } else if (path.startsWith('/v1/big')) {
    res.writeHead(200);
    res.end(Buffer.alloc(50_000, 'a'));
  } else if (path.startsWith('/v1/huge')) {
    res.writeHead(200);
    res.end(Buffer.alloc(300_000, 'a'));
  } else if (path.startsWith('/v1/slow')) {
    setTimeout(() => res.end('late'), 2_000);
  } else if (path.startsWith('/v1/health')) {
    // A per-IP limiter of one request per second, with the §7 envelope and Retry-After.
    const now = Date.now();
    const refused = now - lastHealth < 1_000;
    if (!refused) lastHealth = now;
    res.writeHead(refused ? 429 : 200, refused ? { 'content-type': 'application/json', 'retry-after': '1' } : { 'content-type': 'application/json' });
    res.end(JSON.stringify(refused ? { error: { code: 'rate_limit.exceeded', category: 'rate_limited', message: 'Slow down.', request_id: 'r' } } : { status: 'ok' }));
  } else if (path.startsWith('/v1/drip')) {
    // Headers at once, then a byte every 50 ms for ever: no timer between chunks ever fires.
    res.writeHead(200, { 'content-type': 'application/json' });
    const timer = setInterval(() => res.write(' '), 50);
    res.on('close', () => clearInterval(timer));
  } else if (path.startsWith('/v1/redirect')) {
    res.writeHead(302, { location: 'http://127.0.0.1:9/elsewhere' });
    res.end();
  } else {
    res.writeHead(404);
    res.end();
  }
}

beforeAll(async () => {
  server = createServer(handler);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

function client(limits = {}): { client: HttpClient; recorded: Exchange[] } {
  const recorded: Exchange[] = [];
  const c = new HttpClient({ baseUrl: base, tokens: { primary: { value: TOKEN, placeholder: '$ASI_TOKEN' } }, limits, onExchange: (e) => recorded.push(e) });
  return { client: c, recorded };
}

describe('HttpClient', () => {
  test('sends the token by role and records it only as its placeholder, even when echoed', async () => {
    const { client: c, recorded } = client();
    const ex = await c.send({ path: '/echo', token: 'primary', query: { cursor: 'a b&c=d/é' } });
    expect(ex.response?.status).toBe(200);
    expect(JSON.stringify(recorded)).not.toContain(TOKEN);
    expect(ex.request.headers['authorization']).toBe('Bearer $ASI_TOKEN');
    expect(ex.response?.body).toContain('$ASI_TOKEN');
    expect(JSON.parse(ex.response!.body).url).toBe('/v1/echo?cursor=a%20b%26c%3Dd%2F%C3%A9');
    await c.close();
  });

  test('a raw query string is sent byte for byte', async () => {
    const { client: c } = client();
    const ex = await c.send({ path: '/echo', query: 'cursor=abc%2B%2F%3D' });
    expect(JSON.parse(ex.response!.body).url).toBe('/v1/echo?cursor=abc%2B%2F%3D');
    await c.close();
  });

  test('a body past the cap is cut and flagged', async () => {
    const { client: c } = client({ maxResponseBytes: 10_000 });
    const ex = await c.send({ path: '/big' });
    expect(ex.response?.truncated).toBe(true);
    expect(ex.error?.code).toBe('ASI_BODY_TOO_LARGE');
    expect(ex.response!.body.length).toBeLessThanOrEqual(10_000);
    await c.close();
  });

  test('of a body past the cap, only the start that evidence reads is kept', async () => {
    const { client: c } = client({ maxResponseBytes: 200_000 });
    const ex = await c.send({ path: '/huge' });
    expect(ex.error?.code).toBe('ASI_BODY_TOO_LARGE');
    expect(ex.response).toMatchObject({ truncated: true, body: 'a'.repeat(65_536) });
    expect(ex.response!.bodyBytes).toBeGreaterThan(200_000);
    await c.close();
  });

  test('a slow answer ends in a timeout error, not an exception', async () => {
    const { client: c } = client({ headersTimeoutMs: 300, bodyTimeoutMs: 300 });
    const ex = await c.send({ path: '/slow' });
    expect(ex.response).toBeUndefined();
    expect(ex.error?.code).toBe('UND_ERR_HEADERS_TIMEOUT');
    await c.close();
  });

  test('a body dripped a byte at a time is cut at the deadline: no response, ASI_DEADLINE, what came in words', async () => {
    const { client: c } = client({ bodyTimeoutMs: 1_000, totalMs: 300 });
    const started = Date.now();
    const ex = await c.send({ path: '/drip' });
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(ex.response).toBeUndefined();
    expect(ex.error?.code).toBe('ASI_DEADLINE');
    expect(ex.error?.message).toMatch(/^no complete answer within the deadline of 300 ms \(HTTP 200, \d+ bytes of body received\)$/);
    await c.close();
  });

  test('limitsForTimeout: the deadline is the timeout, undici\'s timers back it up a second later', async () => {
    const { client: c } = client(limitsForTimeout(1));
    const ex = await c.send({ path: '/slow' });
    expect(ex.error).toEqual({ code: 'ASI_DEADLINE', message: 'no response within the deadline of 1000 ms' });
    expect(limitsForTimeout(2)).toMatchObject({ totalMs: 2000, headersTimeoutMs: 3000, stream: { totalMs: 2000 } });
    await c.close();
  });

  test('redirects are recorded, never followed', async () => {
    const { client: c } = client();
    seenAuth = [];
    const ex = await c.send({ path: '/redirect', token: 'primary' });
    expect(ex.response?.status).toBe(302);
    expect(seenAuth).toHaveLength(1);
    await c.close();
  });

  test('bodies dripped past the deadline count as silence too', async () => {
    const { client: c } = client({ totalMs: 100 });
    for (let i = 0; i < 4; i++) await c.send({ path: '/drip' });
    expect((await c.send({ path: '/echo' })).error?.code).toBe('ASI_TARGET_UNRESPONSIVE');
    await c.close();
  });

  test('after four silent requests in a row the target counts as down', async () => {
    const { client: c } = client({ headersTimeoutMs: 100, bodyTimeoutMs: 100 });
    for (let i = 0; i < 4; i++) await c.send({ path: '/slow' });
    const started = Date.now();
    const ex = await c.send({ path: '/echo' });
    expect(ex.error?.code).toBe('ASI_TARGET_UNRESPONSIVE');
    expect(Date.now() - started).toBeLessThan(50);
    await c.close();
  });

  test('tokenShape tells prefix and hex length, not the token', () => {
    const { client: c } = client();
    expect(c.tokenShape('primary')).toEqual({ prefix: 'asi', hexLength: 32 });
    expect(c.tokenShape('secondary')).toBeUndefined();
  });

  test("a per-IP 429 on an unauthenticated route is waited out on its own pool, not the token's sent along", async () => {
    const pacer = new Pacer();
    const c = new HttpClient({ baseUrl: base, tokens: { primary: { value: TOKEN, placeholder: '$ASI_TOKEN' } }, pacer });
    const first = await c.send({ path: '/health', token: 'primary' });
    const second = await c.send({ path: '/health', token: 'primary' });
    expect([first.response?.status, second.response?.status]).toEqual([200, 200]);
    expect(pacer.perIpRefusals).toHaveLength(1);
    expect(pacer.unplanned).toEqual([]);
    expect(pacer.snapshot('primary', 'read')).toEqual({ inFlight: 0 });
    await c.close();
  });

  test.each([
    ['another scheme', { role: 'primary', as: 'scheme', name: 'Token' }, (e: Record<string, string>) => e['auth'] === `Token ${TOKEN}`],
    ['the bare token', { role: 'primary', as: 'scheme', name: '' }, (e: Record<string, string>) => e['auth'] === TOKEN],
    ['the query string', { role: 'primary', as: 'query', name: 'access_token' }, (e: Record<string, string>) => e['url'] === `/v1/echo?a=1&access_token=${TOKEN}` && e['auth'] === undefined],
    ['a cookie', { role: 'primary', as: 'cookie', name: 'access_token' }, (e: Record<string, string>) => e['cookie'] === `access_token=${TOKEN}` && e['auth'] === undefined],
    ['a JSON body field', { role: 'primary', as: 'json-field', name: 'access_token' }, (e: Record<string, string>) => JSON.parse(e['body']!).access_token === TOKEN && JSON.parse(e['body']!).message === 'hi'],
  ] as const)('a token misplaced in %s reaches the server there and is recorded redacted', async (_where, misplacedToken, holds) => {
    const { client: c, recorded } = client();
    const ex = await c.send({ method: 'POST', path: '/echo', query: { a: 1 }, json: { message: 'hi' }, misplacedToken });
    expect(holds(JSON.parse(ex.response!.body.split('$ASI_TOKEN').join(TOKEN)) as Record<string, string>)).toBe(true);
    expect(JSON.stringify(recorded)).not.toContain(TOKEN);
    await c.close();
  });

  test('clients given one sequence number their exchanges in one run, from where it starts', async () => {
    // The preflight's two clients in the main process, then the worker's going on after them.
    const main = new ExchangeSequence();
    const a = new HttpClient({ baseUrl: base, tokens: {}, sequence: main });
    const b = new HttpClient({ baseUrl: base, tokens: {}, sequence: main });
    const seqs = [(await a.send({ path: '/echo' })).seq, (await b.send({ path: '/echo' })).seq, (await a.send({ path: '/echo' })).seq];
    const worker = new HttpClient({ baseUrl: base, tokens: {}, sequence: new ExchangeSequence(main.upcoming) });
    seqs.push((await worker.send({ path: '/echo' })).seq);
    expect(seqs).toEqual([1, 2, 3, 4]);
    await Promise.all([a.close(), b.close(), worker.close()]);
  });

  test('destroy ends the exchange under way at once, recorded with its error; close after it is a no-op', async () => {
    const { client: c, recorded } = client();
    const started = Date.now();
    const pending = c.send({ path: '/slow' });
    setTimeout(() => void c.destroy(), 100);
    const ex = await pending;
    expect(Date.now() - started).toBeLessThan(1_500);
    expect(ex.response).toBeUndefined();
    expect(ex.error?.code).toBe('UND_ERR_DESTROYED');
    expect(recorded).toEqual([ex]);
    await c.close();
  });
});
