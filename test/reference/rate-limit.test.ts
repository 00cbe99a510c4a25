import { afterEach, describe, expect, test } from 'vitest';
import { callReference, type Answer } from '../support/reference-call.ts';
import { startReference, type RunningReference } from '../../lib/reference/server.ts';
import type { ReferenceOptions } from '../../lib/reference/state.ts';

const LIMITS = { read: 5, write: 3, windowS: 10 };

let running: RunningReference | undefined;
let clock = 0;

afterEach(async () => {
  await running?.close();
  running = undefined;
});

/** A reference on port 0 with a clock the test moves by hand (Unix ms). */
async function reference(options: ReferenceOptions = {}): Promise<RunningReference> {
  running = await startReference({ limits: LIMITS, ...options });
  clock = 1_800_000_000_000;
  running.state.now = () => clock;
  return running;
}

function call(method: string, path: string, role: string | null = 'primary', body?: unknown): Promise<Answer> {
  return callReference(running!, method, path, role, body);
}

function errorOf(answer: Answer): Record<string, unknown> {
  return (JSON.parse(answer.body) as { error: Record<string, unknown> }).error;
}

async function exhaust(role: string, method = 'GET', path = '/me'): Promise<Answer> {
  const size = method === 'GET' || method === 'HEAD' ? LIMITS.read : LIMITS.write;
  for (let i = 0; i < size; i++) expect((await call(method, path, role)).status).not.toBe(429);
  return call(method, path, role);
}

describe('§8.1 pool headers of the reference', () => {
  test('GET spends the read pool and says so in all four headers', async () => {
    await reference();
    const a = await call('GET', '/me');
    expect(a.status).toBe(200);
    expect(a.headers['x-ratelimit-pool']).toBe('read');
    expect(a.headers['x-ratelimit-limit']).toBe('5');
    expect(a.headers['x-ratelimit-remaining']).toBe('4');
    expect(a.headers['x-ratelimit-reset']).toBe(String(Math.ceil((clock + 10_000) / 1000)));
  });

  test('HEAD is a read, POST a write, each counted down by one', async () => {
    await reference();
    expect((await call('HEAD', '/me')).headers['x-ratelimit-pool']).toBe('read');
    const post = await call('POST', '/me');
    expect(post.headers['x-ratelimit-pool']).toBe('write');
    expect(post.headers['x-ratelimit-remaining']).toBe('2');
    expect((await call('GET', '/me')).headers['x-ratelimit-remaining']).toBe('3');
  });

  test('a 400 carries the pool headers too', async () => {
    await reference();
    const a = await call('GET', '/credits/operations?from=2024-01-02&to=2024-01-01');
    if (a.status === 400) expect(a.headers['x-ratelimit-pool']).toBe('read');
    expect(a.headers['x-ratelimit-remaining']).toBe('4');
  });

  test('tokens of one workspace each have their own budget', async () => {
    await reference();
    expect((await exhaust('secondary')).status).toBe(429);
    const primary = await call('GET', '/me');
    expect(primary.status).toBe(200);
    expect(primary.headers['x-ratelimit-remaining']).toBe('4');
  });
});

describe('§8.1 the 429 of the reference', () => {
  test('429 rate_limit.exceeded with the full envelope, Remaining 0 and an exact Retry-After', async () => {
    await reference();
    clock += 0; // the pool is spent at one instant
    const refused = await exhaust('primary');
    expect(refused.status).toBe(429);
    const error = errorOf(refused);
    expect(error).toMatchObject({ code: 'rate_limit.exceeded', category: 'rate_limited', request_id: refused.headers['x-request-id'] });
    expect(refused.headers['x-ratelimit-remaining']).toBe('0');
    expect(refused.headers['retry-after']).toBe('10');
    expect(refused.headers['x-ratelimit-reset']).toBe(String((clock + 10_000) / 1000));
  });

  test('a refused request spends nothing: the pool comes back exactly a window after the spend', async () => {
    await reference();
    const start = clock;
    await exhaust('primary');
    clock = start + 9_999;
    expect((await call('GET', '/me')).status).toBe(429);
    expect((await call('GET', '/me')).headers['retry-after']).toBe('1');
    clock = start + 10_000;
    const back = await call('GET', '/me');
    expect(back.status).toBe(200);
    expect(back.headers['x-ratelimit-remaining']).toBe('4');
  });

  test('the window rolls: points return one by one as their requests age out', async () => {
    await reference();
    const start = clock;
    await call('GET', '/me');
    await call('GET', '/me');
    clock = start + 4_000;
    await call('GET', '/me');
    await call('GET', '/me');
    await call('GET', '/me');
    expect((await call('GET', '/me')).status).toBe(429);
    clock = start + 10_000;
    expect((await call('GET', '/me')).headers['x-ratelimit-remaining']).toBe('1');
    expect((await call('GET', '/me')).headers['x-ratelimit-remaining']).toBe('0');
    const refused = await call('GET', '/me');
    expect(refused.status).toBe(429);
    expect(refused.headers['retry-after']).toBe('4');
  });

  test('unauthenticated routes and 401s leave the token\'s pool alone', async () => {
    await reference();
    await call('GET', '/health');
    await call('GET', '/openapi.json');
    await call('GET', '/me', null);
    expect((await call('GET', '/me')).headers['x-ratelimit-remaining']).toBe('4');
  });
});

describe('§7 limiter store down', () => {
  test('fail-closed 503 system.rate_limit_unavailable, then service returns', async () => {
    const ref = await reference();
    ref.state.faults.add('limiter_store_down');
    const down = await call('GET', '/me');
    expect(down.status).toBe(503);
    expect(errorOf(down)).toMatchObject({ code: 'system.rate_limit_unavailable', category: 'transient' });
    expect(down.headers['x-ratelimit-pool']).toBeUndefined();
    ref.state.faults.delete('limiter_store_down');
    expect((await call('GET', '/me')).status).toBe(200);
  });
});

describe('rate-limit variants', () => {
  test('ratelimit-refused-request-charged: a refusal spends a point and Retry-After counts it', async () => {
    await reference({ variants: ['ratelimit-refused-request-charged'] });
    const start = clock;
    await exhaust('primary');
    clock = start + 5_000;
    const refused = await call('GET', '/me');
    expect(refused.headers['retry-after']).toBe('5');
    clock = start + 10_000;
    expect((await call('GET', '/me')).status).toBe(200);
  });

  test('ratelimit-reset-full-refill: Reset names the moment every point is back', async () => {
    await reference({ variants: ['ratelimit-reset-full-refill'] });
    const start = clock;
    await call('GET', '/me');
    clock = start + 3_000;
    expect((await call('GET', '/me')).headers['x-ratelimit-reset']).toBe(String((start + 13_000) / 1000));
  });
});
