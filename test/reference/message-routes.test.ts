import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startReference, type RunningReference } from '../../lib/reference/server.ts';

let reference: RunningReference;

beforeAll(async () => {
  reference = await startReference({ limits: { read: 1_000_000, write: 1_000_000 } });
});
afterAll(() => reference.close());

interface Answer {
  status: number;
  headers: Record<string, string>;
  text: string;
  /** Arrival time of each body chunk, ms since the request. */
  chunkTimes: number[];
}

async function send(method: string, path: string, options: { body?: string; json?: unknown; headers?: Record<string, string>; role?: string } = {}): Promise<Answer> {
  const started = Date.now();
  const headers: Record<string, string> = { authorization: `Bearer ${reference.tokens[options.role ?? 'primary']}`, ...options.headers };
  let body = options.body;
  if (options.json !== undefined) {
    body = JSON.stringify(options.json);
    headers['content-type'] = 'application/json';
  }
  const res = await request(`${reference.baseUrl}${path}`, { method: method as 'POST', headers, body: body ?? null });
  const chunkTimes: number[] = [];
  let text = '';
  for await (const chunk of res.body) {
    chunkTimes.push(Date.now() - started);
    text += Buffer.from(chunk as Buffer).toString('utf8');
  }
  const flat: Record<string, string> = {};
  for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) flat[k] = Array.isArray(v) ? v.join(', ') : v;
  return { status: res.statusCode, headers: flat, text, chunkTimes };
}

/** Events of an LF-framed stream: `event:` and one `data:` line each. */
function eventsOf(text: string): Array<{ event: string; data: unknown }> {
  return text
    .split('\n\n')
    .filter((block) => block.trim() !== '')
    .map((block) => {
      const lines = block.split('\n');
      const event = lines.find((l) => l.startsWith('event: '))!.slice(7);
      const data = lines.find((l) => l.startsWith('data: '))!.slice(6);
      return { event, data: JSON.parse(data) as unknown };
    });
}

const DEAL = '/deal-agents/da_1/messages';
const COMPANY = '/company-agents/ca_1/messages';

function ledgerSize(workspace = 'ws_1'): number {
  return reference.state.ledger.rows(workspace).length;
}

describe('message routes: REST blocking', () => {
  test('a message without Accept or stream answers 200 with conversation_id and messages, on the write pool', async () => {
    const before = ledgerSize();
    const a = await send('POST', DEAL, { json: { message: 'Summarise the deal' } });
    expect(a.status).toBe(200);
    expect(a.headers['content-type']).toMatch(/^application\/json/);
    expect(a.headers['x-ratelimit-pool']).toBe('write');
    const body = JSON.parse(a.text) as { conversation_id: unknown; messages: unknown };
    expect(typeof body.conversation_id).toBe('string');
    expect(Array.isArray(body.messages)).toBe(true);
    expect(ledgerSize()).toBe(before + 1);
    const row = reference.state.ledger.rows('ws_1').at(-1)!;
    expect(row).toMatchObject({ operation_type: 'agent_message', feature: 'deal_agent', credits: 1 });
    expect(row.metadata).toMatchObject({ agent_id: 'da_1', conversation_id: body.conversation_id, transport: 'rest' });
  });

  test('the company agent appends a company_agent row to the workspace of the token', async () => {
    const before = ledgerSize('ws_2');
    const a = await send('POST', COMPANY, { json: { message: 'What changed?', stream: false }, role: 'other_workspace' });
    expect(a.status).toBe(200);
    expect(ledgerSize('ws_2')).toBe(before + 1);
    expect(reference.state.ledger.rows('ws_2').at(-1)?.feature).toBe('company_agent');
  });
});

describe('message routes: SSE', () => {
  test.each([
    ['the Accept header', { accept: 'text/event-stream' }, { message: 'Summarise the deal' }],
    ['stream: true', {}, { message: 'Summarise the deal', stream: true }],
    ['an Accept list with a quality', { accept: 'application/json;q=0.5, text/event-stream' }, { message: 'hi' }],
  ])('%s chooses an event stream of deltas, a tool call and done, written over time', async (_how, headers, json) => {
    const a = await send('POST', DEAL, { headers, json });
    expect(a.status).toBe(200);
    expect(a.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    expect(a.headers['x-ratelimit-pool']).toBe('write');
    const events = eventsOf(a.text);
    expect(events.map((e) => e.event)).toEqual(['text_delta', 'text_delta', 'text_delta', 'tool_use', 'tool_result', 'text_delta', 'text_delta', 'text_delta', 'text_delta', 'text_delta', 'done']);
    const use = events[3]!.data as { id: string; tool_name: string };
    expect(events[4]!.data).toEqual({ id: use.id });
    const done = events.at(-1)!.data as { conversation_id: string; messages: Array<{ content: string }> };
    expect(typeof done.conversation_id).toBe('string');
    const deltas = events.filter((e) => e.event === 'text_delta').map((e) => (e.data as { content: string }).content).join('');
    expect(done.messages.at(-1)?.content).toBe(deltas);
    expect(a.chunkTimes.at(-1)! - a.chunkTimes[0]!).toBeGreaterThan(300);
  });

  test('Accept: */* does not choose streaming', async () => {
    const a = await send('POST', DEAL, { headers: { accept: '*/*' }, json: { message: 'hi' } });
    expect(a.headers['content-type']).toMatch(/^application\/json/);
  });

  test('a fault that starts while the stream runs ends it with an error event', async () => {
    const pending = send('POST', DEAL, { json: { message: 'hi', stream: true } });
    await new Promise((r) => setTimeout(r, 120));
    reference.state.faults.add('upstream_unavailable');
    try {
      const events = eventsOf((await pending).text);
      expect(events.at(-1)).toEqual({ event: 'error', data: { code: 'upstream.unavailable', category: 'transient', message: expect.any(String) as string } });
      expect(events.filter((e) => e.event === 'done')).toHaveLength(0);
    } finally {
      reference.state.faults.delete('upstream_unavailable');
    }
  });
});

describe('message routes: async jobs', () => {
  test('async: true answers 202 with a queued job that completes with the conversation response', async () => {
    const post = await send('POST', DEAL, { json: { message: 'hi', async: true } });
    expect(post.status).toBe(202);
    expect(post.headers['x-ratelimit-pool']).toBe('write');
    const job = JSON.parse(post.text) as { job_id: string; status: string };
    expect(job.status).toBe('queued');
    const first = await send('GET', `/message-jobs/${job.job_id}`);
    expect(first.status).toBe(200);
    expect(first.headers['x-ratelimit-pool']).toBe('read');
    expect(['queued', 'running']).toContain((JSON.parse(first.text) as { status: string }).status);
    await new Promise((r) => setTimeout(r, 1_600));
    const done = JSON.parse((await send('GET', `/message-jobs/${job.job_id}`)).text) as { status: string; result: { conversation_id: string; messages: unknown[] } };
    expect(done.status).toBe('completed');
    expect(typeof done.result.conversation_id).toBe('string');
    expect(Array.isArray(done.result.messages)).toBe(true);
  });

  test('a job is not visible to another workspace, and an unknown job is 404', async () => {
    const job = JSON.parse((await send('POST', DEAL, { json: { message: 'hi', async: true } })).text) as { job_id: string };
    const other = await send('GET', `/message-jobs/${job.job_id}`, { role: 'other_workspace' });
    expect(other.status).toBe(404);
    expect(JSON.parse(other.text)).toMatchObject({ error: { code: 'message_job.not_found', category: 'permanent' } });
    expect((await send('GET', '/message-jobs/job_nope')).status).toBe(404);
  });
});

describe('message routes: refusals do no work', () => {
  test.each([
    ['bad JSON', '{"message": "hi"', 'body', 'invalid_json'],
    ['an empty body', '', 'body', 'missing'],
    ['an array', '["hi"]', 'body', 'not_an_object'],
    ['no message', '{"stream": true}', 'message', 'missing'],
    ['a numeric message', '{"message": 5}', 'message', 'not_a_string'],
    ['an empty message', '{"message": ""}', 'message', 'empty'],
    ['a message too long', JSON.stringify({ message: 'x'.repeat(10_001) }), 'message', 'too_long'],
    ['a string stream flag', '{"message": "hi", "stream": "yes"}', 'stream', 'not_a_boolean'],
    ['a null async flag', '{"message": "hi", "async": null}', 'async', 'not_a_boolean'],
  ])('%s answers 400 request.validation_failed and appends nothing', async (_what, body, field, reason) => {
    const before = ledgerSize();
    const a = await send('POST', DEAL, { body, headers: { 'content-type': 'application/json' } });
    expect(a.status).toBe(400);
    expect(JSON.parse(a.text)).toMatchObject({ error: { code: 'request.validation_failed', category: 'permanent', details: { field, reason } } });
    expect(ledgerSize()).toBe(before);
  });

  test('a message of exactly 10000 characters (emoji count as one) is accepted', async () => {
    expect((await send('POST', DEAL, { json: { message: '👋'.repeat(10_000) } })).status).toBe(200);
  });

  test('an unknown agent answers 404 agent.not_found', async () => {
    const a = await send('POST', '/deal-agents/da_404/messages', { json: { message: 'hi' } });
    expect(a.status).toBe(404);
    expect(JSON.parse(a.text)).toMatchObject({ error: { code: 'agent.not_found', category: 'permanent' } });
    expect((await send('POST', '/company-agents/da_1/messages', { json: { message: 'hi' } })).status).toBe(404);
  });

  test.each([
    ['upstream_unavailable', 'upstream.unavailable'],
    ['spend_cap_reached', 'credits.spend_cap_reached'],
  ] as const)('%s answers 503 %s, transient, for REST, stream and job alike, and appends nothing', async (fault, code) => {
    reference.state.faults.add(fault);
    try {
      const before = ledgerSize();
      for (const json of [{ message: 'hi' }, { message: 'hi', stream: true }, { message: 'hi', async: true }]) {
        const a = await send('POST', DEAL, { json });
        expect(a.status).toBe(503);
        expect(JSON.parse(a.text)).toMatchObject({ error: { code, category: 'transient' } });
      }
      expect(ledgerSize()).toBe(before);
    } finally {
      reference.state.faults.delete(fault);
    }
    expect((await send('POST', DEAL, { json: { message: 'hi' } })).status).toBe(200);
  });
});
