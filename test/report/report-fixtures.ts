import type { Exchange } from '../../lib/model/exchange.ts';
import type { Finding } from '../../lib/model/finding.ts';
import type { Requirement } from '../../lib/model/requirement.ts';
import { stateCounts, type Report, type RequirementResult, type RequirementVerdict, type RunMetadata } from '../../lib/report/report-model.ts';

/** A token value as a target would issue it; fixtures only ever carry its placeholder. */
export const TOKEN_VALUE = 'asi_live_0123456789abcdef0123456789abcdef';

export const BASE_URL = 'http://127.0.0.1:4010/v1';

/** A body a hostile or broken target might send: markup, a control character, a lone surrogate. */
export const HOSTILE_BODY = '{"error":{"code":"x","message":"<script>alert(\\"pwned\\")</script> & \u0001 \ud800"}}';

export const requirementsOf = {
  pass: { id: 'auth/5.1/bearer-accepted', level: 'MUST', area: 'auth', section: '5.1', statement: 'A request with `Authorization: Bearer <valid token>` is accepted.' },
  fail: {
    id: 'conversation/6/single-terminal-event',
    level: 'MUST',
    area: 'conversation',
    section: '6',
    statement: 'A stream ends with exactly one `done` or `error` event.',
    quote: 'Every stream ends with exactly one terminal event: `done` or `error`.',
  },
  inconclusive: { id: 'ledger/4.1/to-exclusive', level: 'MUST', area: 'ledger', section: '4.1', statement: 'A row at exactly `to` is not listed.' },
  notRun: { id: 'ratelimit/8.1/retry-after-honoured', level: 'MUST', area: 'ratelimit', section: '8.1', statement: 'A 429 carries Retry-After | in seconds.' },
  uncovered: { id: 'errors/7/envelope-shape', level: 'MUST', area: 'errors', section: '7', statement: 'Every error body is the §7 envelope.' },
  warn: { id: 'ledger/4.1/newest-first', level: 'SHOULD', area: 'ledger', section: '4.1', statement: 'Rows come newest first.' },
} satisfies Record<string, Requirement>;

export function getExchange(seq: number, overrides: Partial<Exchange> = {}): Exchange {
  return {
    seq,
    startedAt: '2025-03-01T10:00:01.250Z',
    request: {
      method: 'GET',
      url: `${BASE_URL}/credits/operations?limit=5&feature=deal_agent`,
      headers: { authorization: 'Bearer $ASI_TOKEN', accept: 'application/json' },
      tokenRole: 'primary',
    },
    response: {
      status: 200,
      headers: { 'content-type': 'application/json', 'x-ratelimit-limit': '600', 'x-ratelimit-remaining': '599' },
      body: '{"operations":[],"next_cursor":null}',
      bodyBytes: 36,
      truncated: false,
    },
    timings: { totalMs: 12, headersMs: 9 },
    pool: 'read',
    ...overrides,
  };
}

/** A streamed message whose stream ends twice, with the hostile body in its last event. */
export function streamExchange(seq: number): Exchange {
  const body = `event: text_delta\ndata: {"text":"Hi"}\n\nevent: done\nid: 2\ndata: {}\n\nevent: done\ndata: ${HOSTILE_BODY}\n\n`;
  return {
    seq,
    startedAt: '2025-03-01T10:00:02.000Z',
    request: {
      method: 'POST',
      url: `${BASE_URL}/deal-agents/da_1/messages`,
      headers: { authorization: 'Bearer $ASI_TOKEN', accept: 'text/event-stream', 'content-type': 'application/json' },
      body: '{"message":"it\'s <b>bold</b>","stream":true}',
      tokenRole: 'primary',
    },
    response: {
      status: 200,
      headers: { 'content-type': 'text/event-stream' },
      body,
      bodyBytes: body.length,
      truncated: false,
      events: [
        { event: 'text_delta', data: '{"text":"Hi"}', atMs: 15 },
        { event: 'done', data: '{}', id: '2', atMs: 40 },
        { event: 'done', data: HOSTILE_BODY, atMs: 41 },
      ],
      chunkTimes: [14, 39, 41],
      streamClosed: true,
    },
    timings: { totalMs: 45, headersMs: 10 },
    pool: 'write',
  };
}

export function failedExchange(seq: number): Exchange {
  const { response: _none, ...rest } = getExchange(seq);
  return { ...rest, error: { code: 'UND_ERR_HEADERS_TIMEOUT', message: 'Headers Timeout Error' }, timings: { totalMs: 15000 } };
}

export function hostileExchange(seq: number): Exchange {
  const ex = getExchange(seq);
  return { ...ex, response: { ...ex.response!, status: 500, body: HOSTILE_BODY, bodyBytes: HOSTILE_BODY.length } };
}

function result(requirement: Requirement, verdict: RequirementVerdict, findings: Finding[], reason?: string): RequirementResult {
  const r: RequirementResult = { requirement, verdict, findings, tests: [`${requirement.id} sends something`] };
  if (reason !== undefined) r.reason = reason;
  return r;
}

export function runMetadata(overrides: Partial<RunMetadata> = {}): RunMetadata {
  return {
    runId: '20250301-100000-7f3a',
    tool: { name: 'asi-conformance', version: '0.1.0' },
    node: 'v20.20.2',
    startedAt: '2025-03-01T10:00:00.000Z',
    finishedAt: '2025-03-01T10:01:07.500Z',
    durationMs: 67_500,
    target: { baseUrl: BASE_URL, embedded: true, profile: 'embedded reference' },
    certifying: true,
    limits: { read: 600, write: 60, windowS: 60 },
    seed: 424242,
    contractDigest: 'sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
    suites: ['auth', 'ledger', 'conversation', 'ratelimit'],
    failOn: 'must',
    requests: [
      { role: 'primary', pool: 'read', requests: 312 },
      { role: 'primary', pool: 'write', requests: 21 },
      { role: 'secondary', pool: 'read', requests: 604 },
    ],
    pacingWaitMs: 1200,
    argv: ['run', '--seed', '424242'],
    ...overrides,
  };
}

/** One result of each verdict: pass, fail (property, SSE), inconclusive, not-run, uncovered, warn. */
export function sampleReport(): Report {
  const fx = requirementsOf;
  const results: RequirementResult[] = [
    result(fx.pass, 'pass', [{ requirement: fx.pass.id, verdict: 'pass', exchanges: [getExchange(1)], note: 'INFO: the server also sent X-Request-Id' }]),
    result(fx.fail, 'fail', [
      {
        requirement: fx.fail.id,
        verdict: 'fail',
        expected: 'exactly one terminal event (`done` or `error`) | then the stream closes',
        actual: 'two `done` events <after> one another',
        exchanges: [hostileExchange(2), streamExchange(3)],
        property: { seed: -1_029_384_756, path: '3:1:0', numRuns: 20, counterexample: '{"message":"<script>x</script>"}', requests: 27 },
      },
    ]),
    result(fx.inconclusive, 'inconclusive', [{ requirement: fx.inconclusive.id, verdict: 'inconclusive', note: 'the test broke: Headers Timeout Error', exchanges: [failedExchange(4)] }], 'the test broke: Headers Timeout Error'),
    result(fx.notRun, 'not-run', [{ requirement: fx.notRun.id, verdict: 'not-run', note: 'the profile names no secondary token', exchanges: [] }], 'the profile names no secondary token'),
    { requirement: fx.uncovered, verdict: 'uncovered', findings: [], tests: [] },
    result(fx.warn, 'warn', [{ requirement: fx.warn.id, verdict: 'fail', expected: 'rows newest first', actual: 'row 2 is older than row 3', exchanges: [getExchange(5)] }]),
  ];
  return {
    schemaVersion: 3,
    meta: runMetadata(),
    outcome: 'not-conformant',
    exitCode: 1,
    counts: { pass: 1, fail: 1, warn: 1, 'not-run': 1, inconclusive: 1, uncovered: 1, waived: 0 },
    results,
    incomplete: [],
    runErrors: [],
  };
}

/**
 * A run whose one failure was expected (--expect): a pass and a waived failure, conformant, not a
 * certification. Each requirement must count once, the waived one as waived.
 */
export function waivedReport(): Report {
  const sample = sampleReport();
  const results = [sample.results[0]!, { ...sample.results[1]!, waiver: { status: 'fail', reason: 'known gateway bug', expires: '2030-01-01', state: 'waived' } } satisfies RequirementResult];
  const because = ['1 result is waived by expectations.yaml'];
  return {
    ...sample,
    meta: runMetadata({ certifying: false, notCertifyingBecause: because, expectations: 'expectations.yaml' }),
    outcome: 'conformant',
    exitCode: 0,
    counts: stateCounts(results),
    results,
  };
}

/** The run's transcript: every exchange, appended as responses completed (not in seq order). */
export function sampleTranscript(): Exchange[] {
  return [getExchange(1), streamExchange(3), hostileExchange(2), failedExchange(4), getExchange(5), getExchange(6, { request: { ...getExchange(6).request, method: 'HEAD' } })];
}

export function transcriptJsonl(exchanges: readonly Exchange[]): string {
  return exchanges.map((e) => `${JSON.stringify(e)}\n`).join('');
}

/** An error code a target chose, with markup in it: the cause of a refusal quotes it. */
export const HOSTILE_CODE = '<img src=https://evil.example/p.png> `x` | y';

/** The preflight's two exchanges: /health answered, /me refused the token. */
export function preflightExchanges(): Exchange[] {
  const health = getExchange(1);
  delete health.pool;
  health.request = { method: 'GET', url: `${BASE_URL}/health`, headers: { 'user-agent': 'asi-conformance' } };
  const me = getExchange(2);
  delete me.pool;
  const body = JSON.stringify({ error: { code: HOSTILE_CODE, category: 'permanent', message: 'no', request_id: 'r' } });
  me.request = { method: 'GET', url: `${BASE_URL}/me`, headers: { 'user-agent': 'asi-conformance', authorization: 'Bearer $ASI_TOKEN' }, tokenRole: 'primary' };
  me.response = { status: 401, headers: { 'content-type': 'application/json' }, body, bodyBytes: body.length, truncated: false };
  return [health, me];
}

/** A run the preflight refused: every requirement not run, the cause quoting the target, its exchanges as evidence. */
export function refusedReport(): Report {
  const sample = sampleReport();
  const reason = `token rejected: 401 ${HOSTILE_CODE} at GET /me; check tokens.primary ($ASI_TOKEN): it must be a live token of this server's workspace`;
  return {
    ...sample,
    meta: runMetadata({ suites: [], requests: [{ role: 'none', pool: '-', requests: 1 }, { role: 'primary', pool: 'read', requests: 1 }] }),
    outcome: 'refused',
    exitCode: 2,
    counts: { pass: 0, fail: 0, warn: 0, 'not-run': sample.results.length, inconclusive: 0, uncovered: 0, waived: 0 },
    results: sample.results.map((r) => ({ requirement: r.requirement, verdict: 'not-run', findings: [], tests: [], reason: 'the run ended at the preflight, before any suite' })),
    incomplete: [{ reason }],
    stopped: { at: 'preflight', reason, exchanges: preflightExchanges() },
  };
}

/** The sample run, cut short by a target that stopped answering: the four unanswered exchanges as evidence. */
export function cutShortReport(): Report {
  const cutShort = 'the target stopped answering (4 requests in a row without a response: ASI_DEADLINE); the run was cut short';
  return {
    ...sampleReport(),
    outcome: 'incomplete',
    exitCode: 3,
    incomplete: [{ reason: cutShort }],
    cutShort,
    stopped: { at: 'suites', reason: cutShort, exchanges: [7, 8, 9, 10].map(failedExchange) },
  };
}
