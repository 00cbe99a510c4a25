import { request } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { expect, test } from 'vitest';
import { startReference } from '../../lib/reference/server.ts';

/** One request read as bytes: undici's fetch would undo the coding and hide it. */
function raw(url: string, method: string, headers: Record<string, string>, body?: string): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; bytes: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, bytes: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

test('variant transport-compressed: JSON gzipped with its length, HEAD with the same headers and no body, streams brotli', async () => {
  const ref = await startReference({ variants: ['transport-compressed'] });
  try {
    const auth = { authorization: `Bearer ${ref.tokens['primary']}` };
    const me = await raw(`${ref.baseUrl}/me`, 'GET', auth);
    expect(me.headers['content-encoding']).toBe('gzip');
    expect(Number(me.headers['content-length'])).toBe(me.bytes.length);
    expect(JSON.parse(gunzipSync(me.bytes).toString('utf8'))).toMatchObject({ workspace_id: expect.any(String) });
    const head = await raw(`${ref.baseUrl}/me`, 'HEAD', auth);
    expect(head.headers['content-encoding']).toBe('gzip');
    expect(head.bytes.length).toBe(0);
    const error = await raw(`${ref.baseUrl}/me`, 'GET', {});
    expect(JSON.parse(gunzipSync(error.bytes).toString('utf8'))).toMatchObject({ error: { code: 'auth.token_missing' } });
    const stream = await raw(`${ref.baseUrl}/deal-agents/da_1/messages`, 'POST', { ...auth, 'content-type': 'application/json', accept: 'text/event-stream' }, JSON.stringify({ message: 'hi' }));
    expect(stream.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(stream.bytes).toString('utf8')).toMatch(/event: done\n/);
  } finally {
    await ref.close();
  }
});
