import { describe, expect, test } from 'vitest';
import { startReference, type RunningReference } from '../../lib/reference/server.ts';
import type { ReferenceOptions } from '../../lib/reference/state.ts';
import { callReference, type Answer } from '../support/reference-call.ts';

const DEAL = '/deal-agents/da_1/messages';
const COMPANY = '/company-agents/ca_1/messages';
const FAULTS = ['upstream_unavailable', 'spend_cap_reached'] as const;

/** Runs `body` against a reference started with `options`, closed afterwards. */
async function withReference(options: ReferenceOptions, body: (ref: RunningReference) => Promise<void>): Promise<void> {
  const ref = await startReference({ limits: { read: 1_000, write: 1_000 }, ...options });
  try {
    await body(ref);
  } finally {
    await ref.close();
  }
}

/** A message POST with the Accept header of a stream, read whole. */
async function streamed(ref: RunningReference, path: string, json: unknown): Promise<Answer> {
  const res = await fetch(`${ref.baseUrl}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ref.tokens['primary']}`, 'content-type': 'application/json', accept: 'text/event-stream' },
    body: JSON.stringify(json),
  });
  return { status: res.status, headers: Object.fromEntries(res.headers), body: await res.text() };
}

const poolHeaders = (a: Answer): string[] => Object.keys(a.headers).filter((h) => h.startsWith('x-ratelimit-'));
const errorOf = (a: Answer): Record<string, unknown> => (JSON.parse(a.body) as { error: Record<string, unknown> }).error;

async function jobId(ref: RunningReference): Promise<string> {
  const created = await callReference(ref, 'POST', DEAL, 'primary', { message: 'hi', async: true });
  return (JSON.parse(created.body) as { job_id: string }).job_id;
}

describe('the reference under the message faults (its own choice: docs/reference.md)', () => {
  test.each(FAULTS)('%s: GET /me, the ledger and a job poll are served with their pool headers', async (fault) => {
    await withReference({}, async (ref) => {
      const id = await jobId(ref);
      ref.state.faults.add(fault);
      for (const path of ['/me', '/credits/operations', `/message-jobs/${id}`]) {
        const a = await callReference(ref, 'GET', path);
        expect(a.status, path).toBe(200);
        expect(poolHeaders(a), path).toHaveLength(4);
      }
      expect((await callReference(ref, 'POST', COMPANY, 'primary', { message: 'hi', stream: true })).status).toBe(503);
    });
  });
});

describe('fault defects on one route or form', () => {
  test('ledger-upstream-500-html: the ledger answers its upstream outage with a 500 page, and only then', async () => {
    await withReference({ defects: ['ledger-upstream-500-html'] }, async (ref) => {
      expect((await callReference(ref, 'GET', '/credits/operations')).status).toBe(200);
      ref.state.faults.add('upstream_unavailable');
      const a = await callReference(ref, 'GET', '/credits/operations');
      expect(a.status).toBe(500);
      expect(a.headers['content-type']).toMatch(/^text\/html/);
      expect((await callReference(ref, 'GET', '/me')).status).toBe(200);
    });
  });

  test('conversation-spend-cap-company-stream-no-pool-headers: only the company route\'s stream refusal loses its pool headers', async () => {
    await withReference({ defects: ['conversation-spend-cap-company-stream-no-pool-headers'] }, async (ref) => {
      ref.state.faults.add('spend_cap_reached');
      const company = await streamed(ref, COMPANY, { message: 'hi' });
      expect(company.status).toBe(503);
      expect(poolHeaders(company)).toEqual([]);
      expect(poolHeaders(await streamed(ref, DEAL, { message: 'hi' }))).toHaveLength(4);
      expect(poolHeaders(await callReference(ref, 'POST', COMPANY, 'primary', { message: 'hi' }))).toHaveLength(4);
    });
  });

  test('conversation-spend-cap-company-job-as-429: the company route\'s job mode meets the cap as a 429 with points left', async () => {
    await withReference({ defects: ['conversation-spend-cap-company-job-as-429'] }, async (ref) => {
      ref.state.faults.add('spend_cap_reached');
      const a = await callReference(ref, 'POST', COMPANY, 'primary', { message: 'hi', async: true });
      expect(a.status).toBe(429);
      expect(errorOf(a)).toMatchObject({ code: 'rate_limit.exceeded', category: 'rate_limited' });
      expect(Number(a.headers['x-ratelimit-remaining'])).toBeGreaterThan(0);
      expect((await callReference(ref, 'POST', DEAL, 'primary', { message: 'hi', async: true })).status).toBe(503);
    });
  });

  test('conversation-upstream-job-rate-limited: job-mode POSTs say rate_limited, the others transient', async () => {
    await withReference({ defects: ['conversation-upstream-job-rate-limited'] }, async (ref) => {
      ref.state.faults.add('upstream_unavailable');
      expect(errorOf(await callReference(ref, 'POST', COMPANY, 'primary', { message: 'hi', async: true }))['category']).toBe('rate_limited');
      expect(errorOf(await callReference(ref, 'POST', COMPANY, 'primary', { message: 'hi' }))['category']).toBe('transient');
    });
  });

  test.each(FAULTS)('conversation-faults-skip-company-stream-flag: under %s the company route streams `stream: true` to done', async (fault) => {
    await withReference({ defects: ['conversation-faults-skip-company-stream-flag'] }, async (ref) => {
      ref.state.faults.add(fault);
      const a = await callReference(ref, 'POST', COMPANY, 'primary', { message: 'hi', stream: true });
      expect(a.status).toBe(200);
      expect(a.body).toContain('event: done');
      expect(a.body).not.toContain('event: error');
      expect((await streamed(ref, COMPANY, { message: 'hi' })).status).toBe(503);
    });
  });

  test('ratelimit-limiter-down-job-poll-request-id: the job poll\'s 503 carries a request_id of its own', async () => {
    await withReference({ defects: ['ratelimit-limiter-down-job-poll-request-id'] }, async (ref) => {
      const id = await jobId(ref);
      ref.state.faults.add('limiter_store_down');
      const poll = await callReference(ref, 'GET', `/message-jobs/${id}`);
      expect(poll.status).toBe(503);
      expect(errorOf(poll)['request_id']).not.toBe(poll.headers['x-request-id']);
      const me = await callReference(ref, 'GET', '/me');
      expect(errorOf(me)['request_id']).toBe(me.headers['x-request-id']);
    });
  });

  test('ratelimit-limiter-down-company-stream-open: with the store down the company route\'s streams are served, unmetered', async () => {
    await withReference({ defects: ['ratelimit-limiter-down-company-stream-open'] }, async (ref) => {
      ref.state.faults.add('limiter_store_down');
      const company = await streamed(ref, COMPANY, { message: 'hi' });
      expect(company.status).toBe(200);
      expect(poolHeaders(company)).toEqual([]);
      expect((await streamed(ref, DEAL, { message: 'hi' })).status).toBe(503);
      expect((await callReference(ref, 'POST', COMPANY, 'primary', { message: 'hi', stream: true })).status).toBe(503);
    });
  });
});

describe('request ids of inactive tokens', () => {
  test('auth-inactive-token-request-id-mismatch: revoked and expired 401s carry a request_id of their own; missing and unknown ones do not', async () => {
    await withReference({ defects: ['auth-inactive-token-request-id-mismatch'] }, async (ref) => {
      for (const role of ['revoked', 'expired']) {
        const a = await callReference(ref, 'GET', '/me', role);
        expect(a.status).toBe(401);
        expect(errorOf(a)['request_id']).not.toBe(a.headers['x-request-id']);
      }
      const missing = await callReference(ref, 'GET', '/me', null);
      expect(errorOf(missing)['request_id']).toBe(missing.headers['x-request-id']);
    });
  });
});

describe('the finished REST turn', () => {
  test('conversation-rest-empty-messages: a finished REST turn with no messages', async () => {
    await withReference({ defects: ['conversation-rest-empty-messages'] }, async (ref) => {
      const body = JSON.parse((await callReference(ref, 'POST', DEAL, 'primary', { message: 'hi' })).body) as Record<string, unknown>;
      expect(body['messages']).toEqual([]);
      expect(body['status']).toBeUndefined();
      expect(typeof body['conversation_id']).toBe('string');
    });
  });
});

describe('variants the fixes answer to', () => {
  test('auth-body-validated-first: a body field a message does not take is refused with 400 before authentication', async () => {
    await withReference({ variants: ['auth-body-validated-first'] }, async (ref) => {
      const a = await callReference(ref, 'POST', DEAL, null, { message: 'hi', access_token: 'x' });
      expect(a.status).toBe(400);
      expect(errorOf(a)).toMatchObject({ code: 'request.validation_failed', category: 'permanent' });
      expect((await callReference(ref, 'POST', DEAL, null, { message: 'hi' })).status).toBe(401);
      expect((await callReference(ref, 'POST', DEAL, 'primary', { message: 'hi', stream: false })).status).toBe(200);
    });
  });

  test.each([
    ['auth-unknown-method-404', 404],
    ['auth-unknown-method-501', 501],
  ])('%s: a method a route has no operation for is answered %i with the envelope, token or not; its own methods are not', async (variant, status) => {
    await withReference({ variants: [variant] }, async (ref) => {
      for (const role of [null, 'primary']) {
        const a = await callReference(ref, 'PUT', '/me', role);
        expect(a.status).toBe(status);
        expect(errorOf(a)).toMatchObject({ category: 'permanent' });
      }
      expect((await callReference(ref, 'GET', '/me', null)).status).toBe(401);
      expect((await callReference(ref, 'GET', '/me', 'primary')).status).toBe(200);
    });
  });

  test('auth-options-cors-preflight: OPTIONS is 204 with Allow and CORS headers, token or not', async () => {
    await withReference({ variants: ['auth-options-cors-preflight'] }, async (ref) => {
      for (const role of [null, 'primary']) {
        const a = await callReference(ref, 'OPTIONS', '/credits/operations', role);
        expect(a.status).toBe(204);
        expect(a.headers['allow']).toBe('GET, HEAD, OPTIONS');
        expect(a.headers['access-control-allow-origin']).toBe('*');
        expect(a.headers['x-ratelimit-remaining']).toBeUndefined();
      }
    });
  });

  test('errors-extra-fields and auth-401-rate-limit-headers: fields of its own inside `error`, pool headers on a 401 only', async () => {
    await withReference({ variants: ['errors-extra-fields', 'auth-401-rate-limit-headers'] }, async (ref) => {
      const refused = await callReference(ref, 'GET', '/me', null);
      expect(refused.status).toBe(401);
      expect(Object.keys(JSON.parse(refused.body) as object)).toEqual(['error']);
      expect(errorOf(refused)).toMatchObject({ code: 'auth.token_missing', docs_url: expect.stringContaining('auth.token_missing'), retryable: false });
      expect(refused.headers['x-ratelimit-limit']).toBe('1000');
      const next = await callReference(ref, 'GET', '/me', 'revoked');
      expect(Number(next.headers['x-ratelimit-remaining'])).toBe(Number(refused.headers['x-ratelimit-remaining']) - 1);
      // A served request's headers are its token's pool, as without the switch.
      const served = await callReference(ref, 'GET', '/me', 'primary');
      expect(served.headers['x-ratelimit-limit']).toBe('1000');
      expect(Number(served.headers['x-ratelimit-remaining'])).toBe(999);
      expect(errorOf(await callReference(ref, 'PUT', '/me', 'primary'))).toHaveProperty('trace_id');
    });
  });

  test('errors-other-wording, errors-request-id-uuid and service-payloads-other change only what the spec leaves open', async () => {
    await withReference({ variants: ['errors-other-wording', 'errors-request-id-uuid', 'service-payloads-other'] }, async (ref) => {
      const refused = await callReference(ref, 'GET', '/me', null);
      expect(errorOf(refused)).toMatchObject({ code: 'auth.token_missing', category: 'permanent', message: expect.stringContaining('HTTP 401') });
      expect(errorOf(refused)['request_id']).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(refused.headers['x-request-id']).toBe(errorOf(refused)['request_id']);
      const health = await callReference(ref, 'GET', '/health', null);
      expect([health.status, health.headers['content-type'], health.body]).toEqual([200, 'text/plain; charset=utf-8', 'OK\n']);
      const me = await callReference(ref, 'GET', '/me', 'primary');
      expect(me.status).toBe(200);
      expect(JSON.parse(me.body)).toMatchObject({ token: { id: expect.any(String) }, workspace: { id: 'ws_1' } });
    });
  });

  test('ratelimit-lookup-before-limiter: an agent or job that does not exist is 404 before the limiter, spending nothing', async () => {
    await withReference({ variants: ['ratelimit-lookup-before-limiter'] }, async (ref) => {
      const before = Number((await callReference(ref, 'GET', '/me', 'primary')).headers['x-ratelimit-remaining']);
      const job = await callReference(ref, 'GET', '/message-jobs/job_never_issued', 'primary');
      expect([job.status, job.headers['x-ratelimit-remaining']]).toEqual([404, undefined]);
      expect(Number((await callReference(ref, 'GET', '/me', 'primary')).headers['x-ratelimit-remaining'])).toBe(before - 1);
      const agent = await callReference(ref, 'POST', '/deal-agents/da_never/messages', 'primary', { message: 'hi' });
      expect([agent.status, agent.headers['x-ratelimit-remaining']]).toEqual([404, undefined]);
      // An agent that exists is charged as without the switch.
      const sent = await callReference(ref, 'POST', DEAL, 'primary', { message: 'hi' });
      expect([sent.status, sent.headers['x-ratelimit-pool']]).toEqual([200, 'write']);
    });
  });

  test('conversation-rest-201, -job-payload-other and -other-workspace-403: the turn 201, another job payload, 403 for another workspace', async () => {
    await withReference({ variants: ['conversation-rest-201', 'conversation-job-payload-other', 'conversation-other-workspace-403'] }, async (ref) => {
      const rest = await callReference(ref, 'POST', DEAL, 'primary', { message: 'hi' });
      expect(rest.status).toBe(201);
      const created = await callReference(ref, 'POST', DEAL, 'primary', { message: 'hi', async: true });
      expect(JSON.parse(created.body)).toMatchObject({ state: 'pending' });
      const id = await jobId(ref);
      expect((await callReference(ref, 'GET', `/message-jobs/${id}`, 'other_workspace')).status).toBe(403);
      expect((await callReference(ref, 'GET', '/message-jobs/job_never_issued', 'other_workspace')).status).toBe(404);
      await new Promise((resolve) => setTimeout(resolve, 1_600));
      expect(JSON.parse((await callReference(ref, 'GET', `/message-jobs/${id}`, 'primary')).body)).toMatchObject({ state: 'succeeded', output: { conversation_id: expect.any(String) } });
    });
  });

  test('conversation-accept-406-elsewhere: text/event-stream alone is 406 with pool headers on JSON routes; lists with JSON are served', async () => {
    await withReference({ variants: ['conversation-accept-406-elsewhere'] }, async (ref) => {
      const get = async (path: string, accept: string): Promise<Answer> => {
        const res = await fetch(`${ref.baseUrl}${path}`, { headers: { authorization: `Bearer ${ref.tokens['primary']!}`, accept } });
        return { status: res.status, headers: Object.fromEntries(res.headers), body: await res.text() };
      };
      const refused = await get('/me', 'text/event-stream');
      expect([refused.status, errorOf(refused)['code']]).toEqual([406, 'request.not_acceptable']);
      expect(poolHeaders(refused)).toHaveLength(4);
      expect((await get('/credits/operations', 'text/event-stream')).status).toBe(406);
      for (const accept of ['*/*', 'application/json', 'text/event-stream, application/json;q=0.5', 'application/problem+json']) expect((await get('/me', accept)).status, accept).toBe(200);
      expect((await get('/me', 'text/event-stream, application/json;q=0')).status).toBe(406);
      // The message routes choose a stream by it, as without the switch.
      expect((await callReference(ref, 'POST', DEAL, 'primary', { message: 'hi', stream: true })).status).toBe(200);
    });
  });

  test('conversation-plain-texts-only: form feeds, U+2028, emoji and long texts are refused; plain text is served', async () => {
    await withReference({ variants: ['conversation-plain-texts-only'] }, async (ref) => {
      for (const message of ['a form feed\f', 'a \u2028 separator', 'an emoji 👋', 'x'.repeat(201)]) {
        const a = await callReference(ref, 'POST', DEAL, 'primary', { message });
        expect(a.status, JSON.stringify(message)).toBe(400);
      }
      expect((await callReference(ref, 'POST', DEAL, 'primary', { message: 'Summarise the deal {"json": 1}' })).status).toBe(200);
    });
  });
});
