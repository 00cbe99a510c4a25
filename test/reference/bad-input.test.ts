import { connect } from 'node:net';
import fc from 'fast-check';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startReference, type RunningReference } from '../../lib/reference/server.ts';

let reference: RunningReference;

beforeAll(async () => {
  reference = await startReference({ limits: { read: 1_000_000, write: 1_000_000 } });
});
afterAll(() => reference.close());

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'TRACE'] as const;
const PATHS = ['/credits/operations', '/me', '/health', '/openapi.json', '/deal-agents/da_1/messages', '/company-agents/ca_1/messages', '/message-jobs/x', '/', '/v2/x', '/credits/operations/..%2f..', '/deal-agents/%ff/messages'];

const query = fc.oneof(
  fc.constant(''),
  fc.dictionary(fc.constantFrom('from', 'to', 'limit', 'cursor', 'feature', 'stream', 'x'), fc.string({ maxLength: 40 }), { maxKeys: 4 }).map(
    (d) => Object.entries(d).map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('&'),
  ),
  fc.string({ maxLength: 60 }).map((s) => encodeURI(s).replace(/#/g, '%23')),
);
const body = fc.oneof(
  fc.constant(undefined),
  fc.json({ maxDepth: 3 }),
  fc.string({ maxLength: 200 }),
  fc.record({ message: fc.oneof(fc.string(), fc.integer(), fc.constant(null)), stream: fc.oneof(fc.boolean(), fc.string()), async: fc.anything({ maxDepth: 1 }) }).map((v) => JSON.stringify(v)),
);

function authorization(kind: 'none' | 'valid' | 'garbage'): Record<string, string> {
  if (kind === 'none') return {};
  return { authorization: kind === 'valid' ? `Bearer ${reference.tokens['primary']}` : 'Bearer ?? not-a-token' };
}

/** Bad input of every kind answers 4xx with the envelope: never 5xx, never a crash. */
describe('the reference under bad input', () => {
  test('random methods, paths, queries, bodies and tokens never get a 5xx and errors carry the envelope', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...METHODS), fc.constantFrom(...PATHS), query, body, fc.constantFrom('none', 'valid', 'garbage' as const), async (method, path, q, b, auth) => {
        const res = await request(`${reference.baseUrl}${path}${q === '' ? '' : `?${q}`}`, {
          method,
          headers: { ...authorization(auth), ...(b === undefined ? {} : { 'content-type': 'application/json' }) },
          body: method === 'GET' || method === 'HEAD' ? null : (b ?? null),
        });
        const text = await res.body.text();
        expect(res.statusCode, `${method} ${path}?${q} → ${text.slice(0, 200)}`).toBeLessThan(500);
        if (res.statusCode >= 400 && method !== 'HEAD') {
          const parsed = JSON.parse(text) as { error?: { request_id?: string } };
          expect(parsed.error?.request_id).toBe(res.headers['x-request-id']);
        }
      }),
      { numRuns: 300, seed: 42 },
    );
  }, 60_000);

  test('a body past the size cap answers 413 with the envelope', async () => {
    const res = await request(`${reference.baseUrl}/deal-agents/da_1/messages`, {
      method: 'POST',
      headers: { authorization: `Bearer ${reference.tokens['primary']}`, 'content-type': 'application/json' },
      body: JSON.stringify({ message: 'x'.repeat(2 * 1024 * 1024) }),
    });
    const text = await res.body.text();
    expect(res.statusCode).toBe(413);
    expect(JSON.parse(text)).toHaveProperty('error.code');
  });

  test('bytes that are not HTTP get a 400 with the envelope and the server lives on', async () => {
    const raw = await new Promise<string>((resolve) => {
      const url = new URL(reference.baseUrl);
      const socket = connect(Number(url.port), url.hostname, () => socket.write('BREW /v1/me HTCPCP/1.0\r\n\r\n'));
      let data = '';
      socket.on('data', (d) => (data += d.toString()));
      socket.on('close', () => resolve(data));
    });
    expect(raw).toMatch(/^HTTP\/1\.1 400/);
    expect(raw).toContain('"request.malformed"');
    const health = await request(`${reference.baseUrl}/health`);
    expect(health.statusCode).toBe(200);
    await health.body.dump();
  });
});
