import { afterEach, describe, expect, test } from 'vitest';
import { callReference, type Answer } from '../support/reference-call.ts';
import { ratelimitDefects, ratelimitVariants } from '../../lib/reference/defects/ratelimit.ts';
import { startReference, type RunningReference } from '../../lib/reference/server.ts';
import { catalogue } from '../../lib/catalogue/index.ts';

const LIMITS = { read: 3, write: 2, windowS: 10 };

let running: RunningReference | undefined;
let clock = 0;

afterEach(async () => {
  await running?.close();
  running = undefined;
});

async function withDefect(name: string): Promise<RunningReference> {
  running = await startReference({ limits: LIMITS, defects: [name] });
  clock = 1_800_000_000_000;
  running.state.now = () => clock;
  return running;
}

function call(method: string, path: string, role: string | null = 'primary', body?: unknown): Promise<Answer> {
  return callReference(running!, method, path, role, body);
}

async function refusedRead(role = 'primary'): Promise<Answer> {
  for (let i = 0; i < LIMITS.read; i++) await call('GET', '/me', role);
  return call('GET', '/me', role);
}

describe('rate-limit defect switches', () => {
  test('every defect names catalogued requirements, suites and short limits', () => {
    const ids = new Set(catalogue.map((r) => r.id));
    for (const d of [...ratelimitDefects, ...ratelimitVariants]) {
      expect(d.name).toMatch(/^ratelimit-[a-z0-9-]+$/);
      expect(d.suites.length).toBeGreaterThan(0);
      expect(d.limits?.windowS).toBeLessThanOrEqual(10);
    }
    for (const d of ratelimitDefects) for (const id of d.breaks) expect(ids.has(id), id).toBe(true);
  });

  test('ratelimit-header-missing-on-400', async () => {
    await withDefect('ratelimit-header-missing-on-400');
    expect((await call('GET', '/me')).headers['x-ratelimit-pool']).toBe('read');
    expect((await call('GET', '/nowhere')).headers['x-ratelimit-pool']).toBe('read');
    const invalid = await call('GET', '/credits/operations?from=2024-01-02&to=2024-01-01');
    // > When `to` is earlier than `from`, the response is 400.
    if (invalid.status === 400) expect(invalid.headers['x-ratelimit-pool']).toBeUndefined();
  });

  test('ratelimit-retry-after-missing', async () => {
    await withDefect('ratelimit-retry-after-missing');
    const r = await refusedRead();
    expect(r.status).toBe(429);
    expect(r.headers['retry-after']).toBeUndefined();
  });

  test('ratelimit-head-as-write', async () => {
    await withDefect('ratelimit-head-as-write');
    expect((await call('HEAD', '/me')).headers['x-ratelimit-pool']).toBe('write');
  });

  test('ratelimit-reset-milliseconds and ratelimit-reset-delta', async () => {
    await withDefect('ratelimit-reset-milliseconds');
    expect((await call('GET', '/me')).headers['x-ratelimit-reset']).toBe(String(clock + 10_000));
    await running!.close();
    await withDefect('ratelimit-reset-delta');
    expect((await call('GET', '/me')).headers['x-ratelimit-reset']).toBe('10');
  });

  test('ratelimit-reset-too-early', async () => {
    await withDefect('ratelimit-reset-too-early');
    expect((await refusedRead()).headers['x-ratelimit-reset']).toBe(String(clock / 1000));
  });

  test('ratelimit-remaining-stuck', async () => {
    await withDefect('ratelimit-remaining-stuck');
    await call('GET', '/me');
    expect((await call('GET', '/me')).headers['x-ratelimit-remaining']).toBe('2');
    expect((await refusedRead()).headers['x-ratelimit-remaining']).toBe('2');
  });

  test('ratelimit-wrong-limit', async () => {
    await withDefect('ratelimit-wrong-limit');
    expect((await call('GET', '/me')).headers['x-ratelimit-limit']).toBe('1000');
    expect((await call('POST', '/me')).headers['x-ratelimit-limit']).toBe('100');
  });

  test('ratelimit-lenient-limit serves one request more', async () => {
    await withDefect('ratelimit-lenient-limit');
    const statuses = [];
    for (let i = 0; i < 5; i++) statuses.push((await call('GET', '/me')).status);
    expect(statuses).toEqual([200, 200, 200, 200, 429]);
  });

  test('ratelimit-hidden-lower-limit refuses early while the headers count from the whole limit', async () => {
    running = await startReference({ limits: { read: 20, write: 2, windowS: 10 }, defects: ['ratelimit-hidden-lower-limit'] });
    running.state.now = () => clock;
    const first = await call('GET', '/me');
    expect(first.headers['x-ratelimit-remaining']).toBe('19');
    await call('GET', '/me');
    const refused = await call('GET', '/me');
    expect(refused.status).toBe(429);
    expect(refused.headers['x-ratelimit-limit']).toBe('20');
  });

  test('ratelimit-fixed-window refills at its boundary, half a window after the token first came, whatever the clock', async () => {
    await withDefect('ratelimit-fixed-window');
    clock += 9_000;
    // The first request at 9 s: the boundary falls 5 s later, at 14 s.
    expect((await refusedRead()).headers['retry-after']).toBe('5');
    clock += 4_900;
    expect((await call('GET', '/me')).status).toBe(429);
    clock += 100;
    expect((await call('GET', '/me')).status).toBe(200);
  });

  test('ratelimit-workspace-budget', async () => {
    await withDefect('ratelimit-workspace-budget');
    await refusedRead('secondary');
    expect((await call('GET', '/me', 'primary')).status).toBe(429);
    expect((await call('GET', '/me', 'other_workspace')).status).toBe(200);
  });

  test('ratelimit-single-pool', async () => {
    await withDefect('ratelimit-single-pool');
    await refusedRead();
    const post = await call('POST', '/me');
    expect(post.status).toBe(429);
    expect(post.headers['x-ratelimit-pool']).toBe('write');
  });

  test('ratelimit-pool-uppercase', async () => {
    await withDefect('ratelimit-pool-uppercase');
    expect((await call('GET', '/me')).headers['x-ratelimit-pool']).toBe('READ');
  });

  test.each([
    ['ratelimit-retry-after-short', '5'],
    ['ratelimit-retry-after-zero', '0'],
  ])('%s', async (name, value) => {
    await withDefect(name);
    expect((await refusedRead()).headers['retry-after']).toBe(value);
  });

  test('ratelimit-retry-after-http-date', async () => {
    await withDefect('ratelimit-retry-after-http-date');
    expect((await refusedRead()).headers['retry-after']).toBe(new Date(clock + 10_000).toUTCString());
  });

  test('ratelimit-refused-post-does-work', async () => {
    const ref = await withDefect('ratelimit-refused-post-does-work');
    for (let i = 0; i < LIMITS.write; i++) await call('POST', '/deal-agents/da_1/messages');
    const before = ref.state.ledger.rows('ws_1').length;
    expect((await call('POST', '/deal-agents/da_1/messages')).status).toBe(429);
    expect(ref.state.ledger.rows('ws_1').length).toBe(before + 1);
  });

  test('ratelimit-429-without-request-id and ratelimit-429-transient', async () => {
    await withDefect('ratelimit-429-without-request-id');
    expect(Object.keys((JSON.parse((await refusedRead()).body) as { error: object }).error)).toEqual(['code', 'category', 'message']);
    await running!.close();
    await withDefect('ratelimit-429-transient');
    expect((JSON.parse((await refusedRead()).body) as { error: { category: string } }).error.category).toBe('transient');
  });

  test('ratelimit-limiter-fails-open, -fault-500 and -latches-down', async () => {
    let ref = await withDefect('ratelimit-limiter-fails-open');
    ref.state.faults.add('limiter_store_down');
    const open = await call('GET', '/me');
    expect(open.status).toBe(200);
    expect(open.headers['x-ratelimit-pool']).toBeUndefined();
    await ref.close();
    ref = await withDefect('ratelimit-limiter-fault-500');
    ref.state.faults.add('limiter_store_down');
    expect((await call('GET', '/me')).status).toBe(500);
    await ref.close();
    ref = await withDefect('ratelimit-limiter-latches-down');
    expect((await call('GET', '/me')).status).toBe(200);
    ref.state.faults.add('limiter_store_down');
    expect((await call('GET', '/me')).status).toBe(503);
    ref.state.faults.delete('limiter_store_down');
    expect((await call('GET', '/me')).status).toBe(503);
  });
});
