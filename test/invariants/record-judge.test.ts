import { describe, expect, test } from 'vitest';
import { factsOf, type RecordContext } from '../../lib/invariants/exchange-facts.ts';
import { judgeExchanges } from '../../lib/invariants/judge-record.ts';
import { INVARIANTS, INVARIANT_REQUIREMENTS } from '../../lib/invariants/registry.ts';
import { requirementById } from '../../lib/catalogue/index.ts';
import type { Exchange } from '../../lib/model/exchange.ts';
import type { Finding } from '../../lib/model/finding.ts';

const T0 = 1_800_000_000_000;
const RESET = String((T0 + 30_000) / 1000);

const CONTEXT: RecordContext = {
  baseUrl: 'http://t.invalid/v1',
  messages: {
    routes: [
      { path: '/deal-agents/da_1/messages', template: '/deal-agents/{agent_id}/messages', body: { message: 'hi' } },
      { path: '/company-agents/ca_1/messages', template: '/company-agents/{agent_id}/messages', body: { message: 'yo' } },
    ],
    async: { body: { async: true }, jobIdPointer: '/job_id', poll: '/message-jobs/{job_id}' },
  },
  limits: { read: 600, write: 60, windowS: 60 },
};

let seq = 0;

interface Sent {
  method?: string;
  path: string;
  role?: string;
  accept?: string;
  body?: unknown;
  status: number;
  headers?: Record<string, string>;
  response?: unknown;
  events?: Array<{ event: string; data: unknown }>;
  faults?: string[];
}

function pool(method: string, remaining = 10): Record<string, string> {
  const read = method === 'GET' || method === 'HEAD';
  return { 'x-ratelimit-pool': read ? 'read' : 'write', 'x-ratelimit-limit': read ? '600' : '60', 'x-ratelimit-remaining': String(remaining), 'x-ratelimit-reset': RESET };
}

/** An exchange as the client records it: a role's token shows as `Bearer $VARIABLE`. */
function ex(s: Sent): Exchange {
  const method = s.method ?? 'GET';
  const headers: Record<string, string> = {};
  if (s.role !== undefined) headers['authorization'] = `Bearer $ASI_TOKEN_${s.role.toUpperCase()}`;
  if (s.accept !== undefined) headers['accept'] = s.accept;
  const body = s.response === undefined ? '' : typeof s.response === 'string' ? s.response : JSON.stringify(s.response);
  const e: Exchange = {
    seq: ++seq,
    startedAt: new Date(T0).toISOString(),
    request: { method, url: `${CONTEXT.baseUrl}${s.path}`, headers, ...(s.role === undefined ? {} : { tokenRole: s.role }), ...(s.body === undefined ? {} : { body: JSON.stringify(s.body) }) },
    response: { status: s.status, headers: s.headers ?? {}, body, bodyBytes: body.length, truncated: false },
    timings: { totalMs: 5 },
  };
  if (s.events !== undefined) {
    e.response!.events = s.events.map((v, i) => ({ event: v.event, data: JSON.stringify(v.data), atMs: i }));
    e.response!.streamClosed = true;
  }
  if (s.faults !== undefined) e.faults = s.faults;
  return e;
}

function envelope(code: string, category: string, id = 'req_1'): unknown {
  return { error: { code, category, message: 'm', request_id: id } };
}

const JSON_TYPE = { 'content-type': 'application/json' };

function findingOf(findings: Finding[], id: string): Finding {
  const f = findings.find((x) => x.requirement === id);
  if (f === undefined) throw new Error(`no finding for ${id}`);
  return f;
}

/** A conformant record: a page, a REST turn, a stream, a refusal, a 401, a drill's 503. */
function goodRecord(): Exchange[] {
  return [
    ex({ path: '/credits/operations', role: 'primary', status: 200, headers: { ...pool('GET'), ...JSON_TYPE }, response: { operations: [], next_cursor: null } }),
    ex({ method: 'POST', path: '/deal-agents/da_1/messages', role: 'primary', body: { message: 'hi' }, status: 200, headers: { ...pool('POST'), ...JSON_TYPE }, response: { conversation_id: 'c', messages: [{}] } }),
    ex({
      method: 'POST',
      path: '/deal-agents/da_1/messages',
      role: 'primary',
      accept: 'text/event-stream',
      body: { message: 'hi' },
      status: 200,
      headers: { ...pool('POST'), 'content-type': 'text/event-stream' },
      events: [
        { event: 'tool_use', data: { id: 't1', tool_name: 'crm' } },
        { event: 'tool_result', data: { id: 't1' } },
        { event: 'done', data: { conversation_id: 'c', messages: [] } },
      ],
    }),
    ex({ path: '/me', role: 'secondary', status: 429, headers: { ...pool('GET', 0), 'retry-after': '3', 'x-request-id': 'req_1', ...JSON_TYPE }, response: envelope('rate_limit.exceeded', 'rate_limited') }),
    ex({ path: '/me', status: 401, headers: { 'x-request-id': 'req_1', ...JSON_TYPE }, response: envelope('auth.token_missing', 'permanent') }),
    ex({ path: '/me', role: 'primary', status: 503, faults: ['limiter_store_down'], headers: { 'x-request-id': 'req_1', ...JSON_TYPE }, response: envelope('system.rate_limit_unavailable', 'transient') }),
  ];
}

describe('the run-wide rules', () => {
  test('each requirement is judged by one rule and is in the catalogue', () => {
    expect(new Set(INVARIANT_REQUIREMENTS).size).toBe(INVARIANT_REQUIREMENTS.length);
    for (const id of INVARIANT_REQUIREMENTS) expect(requirementById(id), id).toBeDefined();
    for (const i of INVARIANTS) for (const id of i.requirements) expect([i.expected[id], i.binds[id]], `${i.name} ${id}`).not.toContain(undefined);
  });

  test('a conformant record passes every rule it reaches, saying what it judged', () => {
    const findings = judgeExchanges(goodRecord(), CONTEXT);
    const failed = findings.filter((f) => f.verdict === 'fail');
    expect(failed).toEqual([]);
    expect(findingOf(findings, 'errors/7/envelope').note).toMatch(/^judged on 3 exchanges over 1 route and 3 statuses; not reached: .*GET \/credits\/operations 400/);
  });

  test('a rule with nothing to judge is not run, naming what it binds', () => {
    const f = findingOf(judgeExchanges([], CONTEXT), 'ratelimit/8.1/429-remaining-zero');
    expect(f.verdict).toBe('not-run');
    expect(f.note).toMatch(/no exchange of this run was one of the 429s/);
  });

  test('only the chosen requirements are judged', () => {
    const findings = judgeExchanges(goodRecord(), CONTEXT, (id) => id === 'errors/7/envelope');
    expect(findings.map((f) => f.requirement)).toEqual(['errors/7/envelope']);
  });
});

describe('the rules hold on routes and statuses no suite targets', () => {
  test('request_id unlike X-Request-Id on a drill 503 of the job poll fails errors/7/request-id-header', () => {
    const drill = ex({ path: '/message-jobs/job_1', role: 'primary', status: 503, faults: ['upstream_unavailable'], headers: { 'x-request-id': 'req_2', ...JSON_TYPE }, response: envelope('upstream.unavailable', 'transient', 'req_other') });
    const f = findingOf(judgeExchanges([...goodRecord(), drill], CONTEXT), 'errors/7/request-id-header');
    expect(f.verdict).toBe('fail');
    expect(f.actual).toContain('GET /v1/message-jobs/job_1 → 503: request_id "req_other", X-Request-Id "req_2"');
  });

  test('a 500 HTML page from the ledger during an upstream drill fails the envelope and no-server-error', () => {
    const page = ex({ path: '/credits/operations', role: 'primary', status: 500, faults: ['upstream_unavailable'], headers: { 'content-type': 'text/html' }, response: '<html>oops</html>' });
    const findings = judgeExchanges([...goodRecord(), page], CONTEXT);
    expect(findingOf(findings, 'errors/7/envelope').verdict).toBe('fail');
    expect(findingOf(findings, 'errors/7/no-server-error').actual).toContain('HTTP 500 during the upstream_unavailable drill');
    expect(findingOf(findings, 'errors/7/json-media-type').actual).toContain('Content-Type "text/html"');
  });

  test('a 503 outside any drill is remarked, not failed', () => {
    const outage = ex({ path: '/me', role: 'primary', status: 503, headers: { ...pool('GET'), 'x-request-id': 'req_1', ...JSON_TYPE }, response: envelope('upstream.unavailable', 'transient') });
    const f = findingOf(judgeExchanges([...goodRecord(), outage], CONTEXT), 'errors/7/no-server-error');
    expect(f.verdict).toBe('pass');
    expect(f.note).toContain("a 503 came outside any drill (an outage of the target's own, which the spec allows)");
  });

  test('a 500 to a generated message text is not held against the server', () => {
    const odd = ex({ method: 'POST', path: '/deal-agents/da_1/messages', role: 'primary', body: { message: 'hi \u2028 \f' }, status: 500, headers: JSON_TYPE, response: envelope('internal', 'transient') });
    expect(findingOf(judgeExchanges([...goodRecord(), odd], CONTEXT), 'errors/7/no-server-error').verdict).toBe('pass');
  });

  test('pool headers missing on a job-mode POST of the second route fail the general and the route rule', () => {
    const job = ex({ method: 'POST', path: '/company-agents/ca_1/messages', role: 'primary', body: { message: 'yo', async: true }, status: 202, headers: JSON_TYPE, response: { job_id: 'j' } });
    const findings = judgeExchanges([...goodRecord(), job], CONTEXT);
    expect(findingOf(findings, 'ratelimit/4/headers-on-authenticated-responses').actual).toContain('POST /v1/company-agents/ca_1/messages → 202: X-RateLimit-Pool is absent');
    expect(findingOf(findings, 'conversation/8.1/job-post-write-pool').verdict).toBe('fail');
    expect(findingOf(findings, 'conversation/8.1/message-write-pool').verdict).toBe('pass');
  });

  test('no pool headers are asked of a 401, a limiter-down 503, or an unknown route', () => {
    const unknown = ex({ path: '/nope', role: 'primary', status: 404, headers: { 'x-request-id': 'req_1', ...JSON_TYPE }, response: envelope('not_found', 'permanent') });
    const f = findingOf(judgeExchanges([...goodRecord(), unknown], CONTEXT), 'ratelimit/4/headers-on-authenticated-responses');
    expect(f.verdict).toBe('pass');
  });

  test('Reset is read on the target clock: a target 10 minutes ahead is right', () => {
    const ahead = new Date(T0 + 600_000).toUTCString();
    const reset = String((T0 + 600_000 + 30_000) / 1000);
    const page = ex({ path: '/credits/operations', role: 'primary', status: 200, headers: { ...pool('GET'), 'x-ratelimit-reset': reset, date: ahead, ...JSON_TYPE }, response: { operations: [], next_cursor: null } });
    expect(findingOf(judgeExchanges([page], CONTEXT), 'ratelimit/8.1/reset-unix-seconds').verdict).toBe('pass');
    const page2 = ex({ path: '/credits/operations', role: 'primary', status: 200, headers: { ...pool('GET'), 'x-ratelimit-reset': reset, ...JSON_TYPE }, response: { operations: [], next_cursor: null } });
    expect(findingOf(judgeExchanges([page2], CONTEXT), 'ratelimit/8.1/reset-unix-seconds').verdict).toBe('fail');
  });

  test('a 429 with points left on a stream POST fails 429-remaining-zero; Retry-After on a 200 fails retry-after-only-on-429', () => {
    const refused = ex({ method: 'POST', path: '/company-agents/ca_1/messages', role: 'primary', accept: 'text/event-stream', body: { message: 'yo' }, status: 429, headers: { ...pool('POST', 7), 'retry-after': '2', 'x-request-id': 'req_1', ...JSON_TYPE }, response: envelope('rate_limit.exceeded', 'rate_limited') });
    const served = ex({ path: '/me', role: 'primary', status: 200, headers: { ...pool('GET'), 'retry-after': '1' } });
    const findings = judgeExchanges([...goodRecord(), refused, served], CONTEXT);
    expect(findingOf(findings, 'ratelimit/8.1/429-remaining-zero').actual).toContain('X-RateLimit-Remaining "7" on a 429: the pool still had points');
    expect(findingOf(findings, 'ratelimit/8.1/retry-after-only-on-429').actual).toContain('Retry-After "1" on a 200');
  });

  test('a 503 with Retry-After is remarked, not failed', () => {
    const upstream = ex({ method: 'POST', path: '/deal-agents/da_1/messages', role: 'primary', body: { message: 'hi' }, status: 503, faults: ['upstream_unavailable'], headers: { ...pool('POST'), 'retry-after': '5', 'x-request-id': 'req_1', ...JSON_TYPE }, response: envelope('upstream.unavailable', 'transient') });
    const f = findingOf(judgeExchanges([...goodRecord(), upstream], CONTEXT), 'ratelimit/8.1/retry-after-only-on-429');
    expect(f.verdict).toBe('pass');
    expect(f.note).toContain('a 503 carried Retry-After');
  });

  test('a tool_result holding the return value is a SHOULD finding; a page row without Z fails run-wide', () => {
    const stream = ex({
      method: 'POST',
      path: '/company-agents/ca_1/messages',
      role: 'primary',
      body: { message: 'yo', stream: true },
      status: 200,
      headers: { ...pool('POST'), 'content-type': 'text/event-stream' },
      events: [
        { event: 'tool_use', data: { id: 1, tool_name: 'crm' } },
        { event: 'tool_result', data: { id: 1, output: { revenue: 3 } } },
        { event: 'done', data: { conversation_id: 'c', messages: [] } },
      ],
    });
    const row = { operation_uuid: 'u', operation_type: 't', feature: 'f', credits: 1, metadata: {}, timestamp: '2026-01-01T00:00:00+00:00' };
    const page = ex({ path: '/credits/operations', role: 'other_workspace', status: 200, headers: { ...pool('GET'), ...JSON_TYPE }, response: { operations: [row], next_cursor: null } });
    const findings = judgeExchanges([...goodRecord(), stream, page], CONTEXT);
    expect(findingOf(findings, 'conversation/6/tool-result-not-exposed').actual).toContain('event #2 tool_result carries `output`');
    expect(findingOf(findings, 'ledger/2.1/timestamp-utc-z').verdict).toBe('fail');
  });

  test('facts: a token under another scheme is not a valid token; the job mode and the stream flag are forms', () => {
    const other = ex({ path: '/me', status: 200 });
    other.request.headers['authorization'] = 'Token $ASI_TOKEN';
    expect(factsOf(other, CONTEXT).token).toBe('other');
    const job = ex({ method: 'POST', path: '/deal-agents/da_1/messages', role: 'primary', body: { message: 'hi', async: true }, status: 202 });
    expect(factsOf(job, CONTEXT).form).toBe('job');
    expect(factsOf(job, CONTEXT).builtValid).toBe(true);
    const flag = ex({ method: 'POST', path: '/deal-agents/da_1/messages', role: 'primary', body: { message: 'hi', stream: true }, status: 200 });
    expect(factsOf(flag, CONTEXT).routeLabel).toBe('POST /deal-agents/{agent_id}/messages (stream: true)');
  });
});

describe('the rolling-window model over the record', () => {
  const MODEL = 'ratelimit/8.1/rolling-window-model';
  const ONE_POINT = 'ratelimit/8.1/one-point-per-request';
  const ROUTE_CAP = 'ratelimit/8.1/no-hidden-route-cap';
  /** A read of the secondary token sent `at` ms into the record, answered with Remaining. */
  const read = (at: number, status: number, remaining: number): Exchange => {
    // Reset: the first point of the record comes back a window after it.
    const e = ex({ path: '/me', role: 'secondary', status, headers: { ...pool('GET', remaining), 'x-ratelimit-reset': String((T0 + 60_000) / 1000), ...JSON_TYPE, 'x-request-id': 'req_1', ...(status === 429 ? { 'retry-after': '60' } : {}) }, response: status === 429 ? envelope('rate_limit.exceeded', 'rate_limited') : {} });
    e.startedAt = new Date(T0 + at).toISOString();
    return e;
  };

  test('reads counting down one point each, on a fresh pool: every model requirement passes', () => {
    const f = judgeExchanges([read(0, 200, 599), read(100, 200, 598), read(200, 200, 597)], CONTEXT);
    for (const id of [MODEL, ONE_POINT]) expect(findingOf(f, id).verdict, id).toBe('pass');
  });

  test('a Reset half a window early, before any point in use can come back, fails the model', () => {
    // The first answer shows a fresh pool: no point spent before the record is in use.
    const early = read(100, 200, 598);
    early.response!.headers['x-ratelimit-reset'] = RESET;
    const f = findingOf(judgeExchanges([read(0, 200, 599), early], CONTEXT), MODEL);
    expect(f.verdict).toBe('fail');
    expect(f.actual).toMatch(/X-RateLimit-Reset \d+ .*no point in use can come back then/);
  });

  test('a read that spent two points fails one point per request, with the model interval beside the header', () => {
    const f = findingOf(judgeExchanges([read(0, 200, 599), read(100, 200, 597)], CONTEXT), ONE_POINT);
    expect(f.verdict).toBe('fail');
    expect(f.actual).toMatch(/X-RateLimit-Remaining 597, the model's interval \[\d+, 598\]/);
  });

  test('a 429 while the pool surely has points fails the hidden route cap', () => {
    const f = findingOf(judgeExchanges([read(0, 200, 599), read(100, 429, 0)], CONTEXT), ROUTE_CAP);
    expect(f.verdict).toBe('fail');
    expect(f.actual).toMatch(/refused while at most 1 of 600 points can have been in use/);
  });

  test("a live token sent in a form of its own (`bearer` in lower case) may have spent that token's point", () => {
    const lower = read(100, 200, 598);
    delete lower.request.tokenRole;
    lower.request.headers['authorization'] = 'bearer $ASI_TOKEN_SECONDARY';
    const f = judgeExchanges([read(0, 200, 599), lower, read(200, 200, 597)], CONTEXT);
    expect(findingOf(f, ONE_POINT).verdict).toBe('pass');
  });

  test('a 429 to a request with no live token fails one point per request', () => {
    const bare = ex({ path: '/me', status: 429, headers: { ...JSON_TYPE, 'x-request-id': 'req_1', 'retry-after': '1' }, response: envelope('rate_limit.exceeded', 'rate_limited') });
    expect(findingOf(judgeExchanges([bare], CONTEXT), ONE_POINT).verdict).toBe('fail');
  });

  test("the spend cap's own 429 (its own code, no Retry-After) is not judged as the rate limit's", () => {
    const cap = ex({
      method: 'POST',
      path: '/deal-agents/da_1/messages',
      role: 'primary',
      body: { message: 'hi' },
      status: 429,
      faults: ['spend_cap_reached'],
      headers: { ...pool('POST', 40), ...JSON_TYPE, 'x-request-id': 'req_1' },
      response: envelope('credits.spend_cap_reached', 'permanent'),
    });
    const f = judgeExchanges([cap], CONTEXT);
    for (const id of ['ratelimit/7/429-code-category', 'ratelimit/8.1/429-remaining-zero', 'ratelimit/8.1/retry-after-integer']) expect(findingOf(f, id).verdict, id).not.toBe('fail');
    expect(findingOf(f, 'ratelimit/7/429-request-id').verdict).toBe('pass');
  });
});
