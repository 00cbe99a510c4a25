import { describe, expect, test } from 'vitest';
import { judgeBearerOnly } from '../../lib/checks/client-bearer.ts';
import { judgeCursorVerbatim } from '../../lib/checks/client-cursor.ts';
import { judgeNoRetryPermanent } from '../../lib/checks/client-permanent.ts';
import { judgeBackoffMultiplier, judgeRetryAfterHonoured, judgeSameRequestAfter429 } from '../../lib/checks/client-rate-limited.ts';
import { judgePollCadence } from '../../lib/checks/client-poll.ts';
import { judgeSlowDown } from '../../lib/checks/client-slow-down.ts';
import { judgeStreamFinalState } from '../../lib/checks/client-stream.ts';
import { timeline, type TracedRequest } from '../../lib/checks/client-trace.ts';
import { judgeTransientBackoff } from '../../lib/checks/client-transient.ts';
import { judgeNoMatchOnWording } from '../../lib/checks/client-wording.ts';
import { TURN_TEXT } from '../../lib/client-grading/stream-turn.ts';

const AUTH = { authorization: 'Bearer $ASI_TOKEN' };

function req(atMs: number, method: string, target: string, status: number, answer: { body?: unknown; headers?: Record<string, string> } = {}, extra: Partial<TracedRequest> = {}): TracedRequest {
  return {
    method,
    target,
    headers: AUTH,
    body: '',
    receivedAtMs: atMs,
    answer: { status, headers: answer.headers ?? {}, body: answer.body === undefined ? '' : JSON.stringify(answer.body) },
    ...extra,
  };
}

const CURSOR = 'a+b/c=%2F%d';
const page = (next: string | null) => ({ body: { operations: [], next_cursor: next } });
const refused = (retryAfter: string) => ({ body: { error: { code: 'rate_limit.exceeded', category: 'rate_limited', message: 'x', request_id: 'r' } }, headers: { 'retry-after': retryAfter } });
const permanent = { body: { error: { code: 'request.validation_failed', category: 'permanent', message: 'x', request_id: 'r' } } };

describe('client/4.1/cursor-verbatim', () => {
  test('the cursor given, percent-encoded, passes', () => {
    const trace = [req(0, 'GET', '/v1/credits/operations', 200, page(CURSOR)), req(10, 'GET', `/v1/credits/operations?cursor=${encodeURIComponent(CURSOR)}`, 200, page(null))];
    expect(judgeCursorVerbatim(trace).verdict).toBe('pass');
  });
  test('the cursor pasted unencoded (+ read as a space) fails at that request', () => {
    const trace = [req(0, 'GET', '/v1/credits/operations', 200, page(CURSOR)), req(10, 'GET', `/v1/credits/operations?cursor=${CURSOR}`, 400, permanent)];
    expect(judgeCursorVerbatim(trace)).toMatchObject({ verdict: 'fail', at: 1 });
  });
  test('a cursor sent before any was given fails', () => {
    expect(judgeCursorVerbatim([req(0, 'GET', '/v1/credits/operations', 200, page('x')), req(5, 'GET', '/v1/credits/operations?cursor=y', 200, page(null))]).verdict).toBe('fail');
  });
  test('no cursor given is not run, never a pass', () => {
    expect(judgeCursorVerbatim([req(0, 'GET', '/v1/credits/operations', 200, page(null))]).verdict).toBe('not-run');
    expect(judgeCursorVerbatim([]).verdict).toBe('not-run');
  });
  test('a cursor given and never passed back is not run', () => {
    expect(judgeCursorVerbatim([req(0, 'GET', '/v1/credits/operations', 200, page('x'))]).verdict).toBe('not-run');
  });
});

describe('client/8.1/retry-after-honoured', () => {
  test('the next read request after Retry-After passes', () => {
    expect(judgeRetryAfterHonoured([req(0, 'GET', '/v1/me', 429, refused('2')), req(2_010, 'GET', '/v1/me', 200)]).verdict).toBe('pass');
  });
  test('a read request to another route before Retry-After fails: the pool is refused', () => {
    expect(judgeRetryAfterHonoured([req(0, 'GET', '/v1/me', 429, refused('2')), req(1_000, 'GET', '/v1/credits/operations', 200)])).toMatchObject({ verdict: 'fail', at: 1 });
  });
  test('a write request meanwhile is another pool', () => {
    expect(judgeRetryAfterHonoured([req(0, 'GET', '/v1/me', 429, refused('2')), req(100, 'POST', '/v1/x', 200), req(2_000, 'GET', '/v1/me', 200)]).verdict).toBe('pass');
  });
  test('no 429, or nothing after it, is not run', () => {
    expect(judgeRetryAfterHonoured([req(0, 'GET', '/v1/me', 200)]).verdict).toBe('not-run');
    expect(judgeRetryAfterHonoured([req(0, 'GET', '/v1/me', 429, refused('1'))]).verdict).toBe('not-run');
  });
});

describe('client/8.1/same-request-after-429', () => {
  test('the same method, path, query and body passes, whatever the query encoding', () => {
    expect(judgeSameRequestAfter429([req(0, 'GET', '/v1/credits/operations?cursor=%2b', 429, refused('1')), req(1_000, 'GET', '/v1/credits/operations?cursor=%2B', 200)]).verdict).toBe('pass');
  });
  test('a changed query fails', () => {
    expect(judgeSameRequestAfter429([req(0, 'GET', '/v1/credits/operations?limit=10', 429, refused('1')), req(1_000, 'GET', '/v1/credits/operations?limit=5', 200)])).toMatchObject({ verdict: 'fail', at: 1 });
  });
  test('another route meanwhile is no retry: the retry on the refused route is judged', () => {
    const trace = [req(0, 'GET', '/v1/credits/operations?limit=10', 429, refused('1')), req(1_000, 'GET', '/v1/me', 200), req(1_100, 'GET', '/v1/credits/operations?limit=5', 200)];
    expect(judgeSameRequestAfter429(trace)).toMatchObject({ verdict: 'fail', at: 2 });
    expect(judgeSameRequestAfter429(trace.slice(0, 2)).verdict).toBe('not-run');
  });
  test('a changed body fails', () => {
    const post = (at: number, body: string, status: number) => req(at, 'POST', '/v1/deal-agents/da_1/messages', status, status === 429 ? refused('1') : {}, { body });
    expect(judgeSameRequestAfter429([post(0, '{"message":"a"}', 429), post(1_000, '{"message":"b"}', 200)]).verdict).toBe('fail');
  });
});

describe('client/8.1/backoff-multiplier', () => {
  const get = (at: number, status: number, retryAfter?: string) => req(at, 'GET', '/v1/me', status, retryAfter === undefined ? {} : refused(retryAfter));
  test('a wait longer than Retry-After after the second 429 in a row passes', () => {
    expect(judgeBackoffMultiplier([get(0, 429, '1'), get(1_000, 429, '2'), get(4_000, 200)]).verdict).toBe('pass');
  });
  test('waiting exactly Retry-After again fails at the request sent too soon', () => {
    expect(judgeBackoffMultiplier([get(0, 429, '1'), get(1_000, 429, '2'), get(3_020, 200)])).toMatchObject({ verdict: 'fail', at: 2 });
  });
  test('a wait shorter than Retry-After is left to retry-after-honoured', () => {
    expect(judgeBackoffMultiplier([get(0, 429, '1'), get(100, 429, '1'), get(200, 200)]).verdict).toBe('not-run');
  });
  test('a single 429 is not run', () => {
    expect(judgeBackoffMultiplier([get(0, 429, '1'), get(1_000, 200)]).verdict).toBe('not-run');
  });
});

describe('client/7/no-retry-permanent', () => {
  test('the same request sent again after a permanent error fails', () => {
    expect(judgeNoRetryPermanent([req(0, 'GET', '/v1/credits/operations?from=b&to=a', 400, permanent), req(50, 'GET', '/v1/credits/operations?from=b&to=a', 400, permanent)])).toMatchObject({ verdict: 'fail', at: 1 });
  });
  test('a fixed request passes', () => {
    expect(judgeNoRetryPermanent([req(0, 'GET', '/v1/credits/operations?from=b&to=a', 400, permanent), req(50, 'GET', '/v1/credits/operations?from=a&to=b', 200)]).verdict).toBe('pass');
  });
  test('a 429 sent again is not a permanent retry; no permanent answer is not run', () => {
    expect(judgeNoRetryPermanent([req(0, 'GET', '/v1/me', 429, refused('1')), req(1_000, 'GET', '/v1/me', 200)]).verdict).toBe('not-run');
  });
});

describe('client/5/bearer-only', () => {
  test('the token only in Authorization: Bearer passes', () => {
    expect(judgeBearerOnly([req(0, 'GET', '/v1/me', 200)]).verdict).toBe('pass');
  });
  test.each([
    ['the query', req(0, 'GET', '/v1/me?access_token=$ASI_TOKEN', 200)],
    ['another header', req(0, 'GET', '/v1/me', 200, {}, { headers: { ...AUTH, 'x-api-key': '$ASI_TOKEN' } })],
    ['the body', req(0, 'POST', '/v1/x', 200, {}, { body: '{"token":"$ASI_TOKEN"}' })],
    ['another scheme', req(0, 'GET', '/v1/me', 200, {}, { headers: { authorization: 'Token $ASI_TOKEN' } })],
  ])('the token in %s fails', (_where, r) => {
    expect(judgeBearerOnly([r]).verdict).toBe('fail');
  });
  test('no request is not run', () => {
    expect(judgeBearerOnly([]).verdict).toBe('not-run');
  });
});

test('timeline: times from the first request, the judged one marked, Retry-After shown', () => {
  const lines = timeline([req(1_000, 'GET', '/v1/me', 429, refused('1')), req(2_200, 'GET', '/v1/me', 200)], 1);
  expect(lines).toEqual(['  +0.00 s GET /me → 429 (Retry-After: 1)', '> +1.20 s GET /me → 200']);
});

const down = (message: string) => ({ body: { error: { code: 'system.rate_limit_unavailable', category: 'transient', message, request_id: 'r' } } });
const LEDGER = '/v1/credits/operations?limit=10';

describe('the rules the later scenarios trigger: not run without their trigger, never a pass', () => {
  test.each([
    ['transient-backoff', () => judgeTransientBackoff([])],
    ['poll-cadence', () => judgePollCadence([])],
    ['slow-down', () => judgeSlowDown([])],
    ['stream-final-state', () => judgeStreamFinalState([], undefined)],
    ['no-match-on-wording', () => judgeNoMatchOnWording([], [])],
  ])('%s on an empty trace', (_name, judge) => {
    expect(judge().verdict).toBe('not-run');
  });
});

describe('client/7/transient-backoff', () => {
  test('growing waits pass; fixed waits fail', () => {
    // Three 503s, then the ledger: `waits` are the gaps before each retry.
    const run = (waits: number[]) => {
      const times = waits.reduce((ts, w) => [...ts, ts[ts.length - 1]! + w], [0]);
      return times.map((t, i) => (i < waits.length ? req(t, 'GET', LEDGER, 503, down('x')) : req(t, 'GET', LEDGER, 200, page(null))));
    };
    expect(judgeTransientBackoff(run([250, 500, 1000])).verdict).toBe('pass');
    expect(judgeTransientBackoff(run([100, 100, 100])).verdict).toBe('fail');
  });
});

describe('client/7/no-match-on-wording', () => {
  test('the same requests under both wordings pass; a retry under one wording only fails', () => {
    const a = [req(0, 'GET', LEDGER, 503, down('retry soon')), req(250, 'GET', LEDGER, 200, page(null))];
    const b = [req(0, 'GET', LEDGER, 503, down('store down')), req(260, 'GET', LEDGER, 200, page(null))];
    expect(judgeNoMatchOnWording(a, b).verdict).toBe('pass');
    expect(judgeNoMatchOnWording(a, b.slice(0, 1)).verdict).toBe('fail');
    // No error whose wording changes: not run.
    expect(judgeNoMatchOnWording(a, a).verdict).toBe('not-run');
  });
});

describe('client/8.1/poll-cadence', () => {
  const job = { body: { job_id: 'j1', status: 'queued' } };
  test('1 s, then 2 s passes; 100 ms fails; a POST poll fails', () => {
    const post = req(0, 'POST', '/v1/deal-agents/a/messages', 202, job);
    expect(judgePollCadence([post, req(1000, 'GET', '/v1/message-jobs/j1', 200), req(3000, 'GET', '/v1/message-jobs/j1', 200)]).verdict).toBe('pass');
    expect(judgePollCadence([post, req(100, 'GET', '/v1/message-jobs/j1', 200)]).verdict).toBe('fail');
    expect(judgePollCadence([post, req(1000, 'POST', '/v1/message-jobs/j1', 200)]).verdict).toBe('fail');
  });
});

describe('client/8.1/slow-down-low-remaining', () => {
  const pool = (remaining: number) => ({ body: { operations: [], next_cursor: null }, headers: { 'x-ratelimit-limit': '600', 'x-ratelimit-remaining': String(remaining) } });
  test('longer gaps after a low Remaining pass; the same gaps fail', () => {
    const trace = (gapAfterLow: number) => [req(0, 'GET', LEDGER, 200, pool(300)), req(10, 'GET', LEDGER, 200, pool(50)), req(10 + gapAfterLow, 'GET', LEDGER, 200, pool(40))];
    expect(judgeSlowDown(trace(300)).verdict).toBe('pass');
    expect(judgeSlowDown(trace(10)).verdict).toBe('fail');
  });
});

describe('client/6/stream-final-state', () => {
  const streamed = (body: string) => [req(0, 'POST', '/v1/deal-agents/agt_demo/messages', 200, { headers: { 'content-type': 'text/event-stream' } }, {})].map((r) => ({ ...r, answer: { ...r.answer, body } }));
  test('the REST text passes; another fails; an error event expects its code; no result file is not run', () => {
    const done = 'event: text_delta\rdata: {}\r\r';
    expect(judgeStreamFinalState(streamed(done), `${TURN_TEXT}\n`).verdict).toBe('pass');
    expect(judgeStreamFinalState(streamed(done), 'incomplete').verdict).toBe('fail');
    expect(judgeStreamFinalState(streamed('event:error\r\ndata: {}\r\n\r\n'), 'error upstream.unavailable').verdict).toBe('pass');
    expect(judgeStreamFinalState(streamed(done), undefined).verdict).toBe('not-run');
  });
});
