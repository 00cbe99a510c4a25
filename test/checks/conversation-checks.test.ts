import { describe, expect, test } from 'vitest';
import { faultFindings, recoveryFinding, refusalOf } from '../../lib/checks/conversation-fault.ts';
import { jobIdOf, jobPollDelaysMs, jobPollFindings, jobPollPath, jobStateOf, resolvePointer } from '../../lib/checks/conversation-job.ts';
import { restTurnFindings } from '../../lib/checks/conversation-rest.ts';
import { streamChosenFinding, streamTurnFindings } from '../../lib/checks/conversation-stream.ts';
import type { Finding } from '../../lib/model/finding.ts';
import { DONE, POOLS, answer, envelope, ev, poolHeaders } from './conversation-fixtures.ts';

const verdicts = (findings: Finding[]): Record<string, string> => Object.fromEntries(findings.map((f) => [f.requirement, f.verdict]));

describe('restTurnFindings', () => {
  const TURN = [{ role: 'assistant', content: 'Done.' }];

  test('200 with conversation_id and messages and write pool headers passes', () => {
    const v = verdicts(restTurnFindings(answer(200, { conversation_id: 'c', messages: TURN, extra: 1 }, { headers: poolHeaders('write') }), POOLS));
    expect(v).toEqual({
      'conversation/1/rest-default': 'pass',
      'conversation/1/rest-finished': 'pass',
      'conversation/2.4/rest-messages-non-empty': 'pass',
      'conversation/2.4/response-fields': 'pass',
      'conversation/8.1/message-write-pool': 'pass',
    });
  });

  test('a finished turn with an empty messages array holds the MUSTs and fails the SHOULD only (§2.4 says "array")', () => {
    const v = verdicts(restTurnFindings(answer(200, { conversation_id: 'c', messages: [] }, { headers: poolHeaders('write') }), POOLS));
    expect(v['conversation/1/rest-finished']).toBe('pass');
    expect(v['conversation/2.4/response-fields']).toBe('pass');
    expect(v['conversation/2.4/rest-messages-non-empty']).toBe('fail');
  });

  test.each([
    ['no message yet and a status saying the turn runs', { conversation_id: 'c', messages: [], status: 'running' }, 'fail'],
    ['a status saying the turn runs', { conversation_id: 'c', messages: TURN, status: 'running' }, 'fail'],
    ['a state saying it is queued', { conversation_id: 'c', messages: TURN, state: 'QUEUED' }, 'fail'],
    ['a status saying the conversation was created', { conversation_id: 'c', messages: TURN, status: 'created' }, 'pass'],
    ['a status saying it completed', { conversation_id: 'c', messages: TURN, status: 'completed' }, 'pass'],
  ])('rest-finished with %s: %s', (_title, body, verdict) => {
    expect(verdicts(restTurnFindings(answer(200, body, { headers: poolHeaders('write') }), POOLS))['conversation/1/rest-finished']).toBe(verdict);
  });

  test.each([
    ['messages missing', { conversation_id: 'c' }],
    ['messages an object', { conversation_id: 'c', messages: {} }],
    ['conversation_id a number', { conversation_id: 1, messages: [] }],
    ['an array body', [{ conversation_id: 'c', messages: [] }]],
  ])('%s fails response-fields only', (_title, body) => {
    const v = verdicts(restTurnFindings(answer(200, body, { headers: poolHeaders('write') }), POOLS));
    expect(v['conversation/1/rest-default']).toBe('pass');
    expect(v['conversation/2.4/response-fields']).toBe('fail');
  });

  test('an event stream where none was asked for fails rest-default', () => {
    const ex = answer(200, 'event: done\ndata: {}\n\n', { headers: poolHeaders('write'), events: [DONE] });
    const v = verdicts(restTurnFindings(ex, POOLS));
    expect(v['conversation/1/rest-default']).toBe('fail');
    expect(v['conversation/2.4/response-fields']).toBe('inconclusive');
  });

  test('202 is the job mode, not a blocking turn', () => {
    expect(verdicts(restTurnFindings(answer(202, { job_id: 'j' }), POOLS))['conversation/1/rest-default']).toBe('fail');
  });

  test('the read pool on a message POST fails message-write-pool', () => {
    expect(verdicts(restTurnFindings(answer(200, { conversation_id: 'c', messages: [] }, { headers: poolHeaders('read') }), POOLS))['conversation/8.1/message-write-pool']).toBe('fail');
  });
});

describe('streamChosenFinding and streamTurnFindings', () => {
  const stream = (contentType: string) => {
    const ex = answer(200, '', { headers: poolHeaders('write'), events: [ev('text_delta', { content: 'a' }, 10), DONE] });
    ex.response!.headers['content-type'] = contentType;
    return ex;
  };

  test.each(['text/event-stream', 'text/event-stream; charset=utf-8', 'Text/Event-Stream'])('%s passes', (type) => {
    expect(streamChosenFinding('accept', stream(type)).verdict).toBe('pass');
  });

  test('application/json fails even when the body is an event stream', () => {
    const f = streamChosenFinding('stream-flag', stream('application/json'));
    expect(f.requirement).toBe('conversation/1/sse-by-stream-flag');
    expect(f.verdict).toBe('fail');
  });

  test('a REST answer to a stream request fails the choice and leaves the grammar inconclusive', () => {
    const ex = answer(200, { conversation_id: 'c', messages: [] }, { headers: poolHeaders('write') });
    ex.response!.events = [];
    const v = verdicts(streamTurnFindings(ex, { choice: 'accept', pool: POOLS, delivery: true }));
    expect(v['conversation/1/sse-by-accept']).toBe('fail');
    expect(v['conversation/6/single-terminal-event']).toBe('inconclusive');
    expect(v['conversation/6/incremental-delivery']).toBe('inconclusive');
  });
});

describe('async jobs', () => {
  test('jobPollDelaysMs starts at 1 s and doubles up to 5 s', () => {
    expect(jobPollDelaysMs()).toEqual([1000, 2000, 4000, 5000, 5000, 5000]);
  });

  test.each([
    [{ job_id: 'j1' }, '/job_id', 'j1'],
    [{ data: { id: 42 } }, '/data/id', '42'],
    [{ 'a/b': { '~k': 'x' } }, '/a~1b/~0k', 'x'],
    [{ jobs: ['first'] }, '/jobs/0', 'first'],
  ])('jobIdOf %j at %s is %s', (body, pointer, id) => {
    expect(jobIdOf(answer(202, body), pointer)).toEqual({ ok: true, id });
  });

  test.each([
    [{ job_id: '' }, /not a job id/],
    [{ job_id: null }, /not a job id/],
    [{ id: 'x' }, /nothing at the JSON pointer/],
  ])('jobIdOf %j has no id', (body, why) => {
    const r = jobIdOf(answer(202, body), '/job_id');
    expect(r.ok).toBe(false);
    expect(r.ok ? '' : r.why).toMatch(why);
  });

  test('resolvePointer does not walk into inherited properties', () => {
    expect(resolvePointer({}, '/constructor')).toEqual({ found: false });
  });

  test('jobPollPath percent-encodes the id', () => {
    expect(jobPollPath('/message-jobs/{job_id}', 'a/b c')).toBe('/message-jobs/a%2Fb%20c');
  });

  test.each([
    [{ status: 'queued' }, 'pending'],
    [{ state: 'RUNNING' }, 'pending'],
    [{ status: 'completed', result: {} }, 'finished'],
    [{ status: 'failed' }, 'finished'],
    [{ result: { conversation_id: 'c', messages: [] } }, 'finished'],
    [{ conversation_id: 'c', messages: [] }, 'finished'],
    [{ whatever: true }, 'unknown'],
  ])('jobStateOf %j is %s', (body, state) => {
    expect(jobStateOf(answer(200, body, { method: 'GET' })).state).toBe(state);
  });

  test('polls on the read pool that end in a finished job pass', () => {
    const polls = [answer(200, { status: 'running' }, { method: 'GET', headers: poolHeaders('read') }), answer(200, { status: 'completed' }, { method: 'GET', headers: poolHeaders('read') })];
    expect(verdicts(jobPollFindings(polls, POOLS))).toEqual({ 'conversation/1/async-job': 'pass', 'conversation/8.1/job-poll-read-pool': 'pass', 'conversation/4.3/job-outcome': 'pass' });
  });

  test('a poll on the write pool fails job-poll-read-pool; a 404 poll fails async-job', () => {
    const v = verdicts(jobPollFindings([answer(404, envelope('not_found', 'permanent'), { method: 'GET', headers: poolHeaders('write') })], POOLS));
    expect(v['conversation/8.1/job-poll-read-pool']).toBe('fail');
    expect(v['conversation/1/async-job']).toBe('fail');
  });

  test.each([
    [[599, 598, 597], 'pass'],
    [[598, 598, 599], 'pass'],
    [[599, 597], 'fail'],
  ])('polls with Remaining %j: %s (more than one point per poll is wrong; fewer may be points coming back)', (remaining, verdict) => {
    const polls = remaining.map((r) => answer(200, { status: 'running' }, { method: 'GET', headers: { ...poolHeaders('read'), 'x-ratelimit-remaining': String(r) } }));
    expect(verdicts(jobPollFindings(polls, POOLS))['conversation/8.1/job-poll-read-pool']).toBe(verdict);
  });

  test('a job still pending at the end of the budget is only a warning (INFO)', () => {
    const v = verdicts(jobPollFindings([answer(200, { status: 'running' }, { method: 'GET', headers: poolHeaders('read') })], POOLS));
    expect(v['conversation/4.3/job-outcome']).toBe('warn');
  });
});

describe('faults', () => {
  const rest503 = (code: string, category: string) => ({ exchange: answer(503, envelope(code, category)) });

  test('upstream: 503 with the envelope and category transient passes, and the code is reported', () => {
    const findings = faultFindings('upstream_unavailable', [rest503('upstream.unavailable', 'transient')]);
    expect(verdicts(findings)).toEqual({ 'conversation/7/upstream-503': 'pass', 'conversation/7/upstream-transient': 'pass', 'conversation/7/fault-code': 'pass' });
    expect(findings.find((f) => f.requirement === 'conversation/7/fault-code')?.note).toMatch(/upstream\.unavailable/);
  });

  test('upstream: a plain-text 503 fails upstream-503', () => {
    const ex = answer(503, 'Service Unavailable', { headers: { 'content-type': 'text/plain' } });
    const v = verdicts(faultFindings('upstream_unavailable', [{ exchange: ex }]));
    expect(v['conversation/7/upstream-503']).toBe('fail');
    expect(v['conversation/7/upstream-transient']).toBe('inconclusive');
  });

  test('upstream: a permanent category fails upstream-transient only', () => {
    const v = verdicts(faultFindings('upstream_unavailable', [rest503('upstream.unavailable', 'permanent')]));
    expect(v['conversation/7/upstream-503']).toBe('pass');
    expect(v['conversation/7/upstream-transient']).toBe('fail');
  });

  test('upstream: a 502 fails, a 200 fails', () => {
    expect(verdicts(faultFindings('upstream_unavailable', [{ exchange: answer(502, envelope('x', 'transient')) }]))['conversation/7/upstream-503']).toBe('fail');
    expect(verdicts(faultFindings('upstream_unavailable', [{ exchange: answer(200, { conversation_id: 'c', messages: [] }) }]))['conversation/7/upstream-503']).toBe('fail');
  });

  test('a stream that had started may end with an error event; one that finished first only adds a note', () => {
    const erred = answer(200, '', { events: [ev('text_delta', { content: 'a' }), ev('error', { code: 'u', category: 'transient', message: 'm' })] });
    const finished = answer(200, '', { events: [ev('text_delta', { content: 'a' }), DONE] });
    expect(refusalOf(erred)).toEqual({ kind: 'error-event', code: 'u', category: 'transient' });
    const v = verdicts(faultFindings('upstream_unavailable', [{ exchange: finished, startedBeforeFault: true }, { exchange: erred, startedBeforeFault: true }]));
    expect(v['conversation/7/upstream-503']).toBe('pass');
    const onlyFinished = faultFindings('upstream_unavailable', [{ exchange: finished, startedBeforeFault: true }]);
    expect(verdicts(onlyFinished)['conversation/7/upstream-503']).toBe('inconclusive');
  });

  test('a stream sent under the fault that completes normally fails', () => {
    const finished = answer(200, '', { events: [DONE] });
    expect(verdicts(faultFindings('upstream_unavailable', [{ exchange: finished }]))['conversation/7/upstream-503']).toBe('fail');
  });

  test('spend cap: any error in the envelope refuses; a 402 is fine, a 200 is not', () => {
    expect(verdicts(faultFindings('spend_cap_reached', [{ exchange: answer(402, envelope('billing.cap', 'permanent')) }]))['conversation/8.2/spend-cap-refused']).toBe('pass');
    expect(verdicts(faultFindings('spend_cap_reached', [{ exchange: answer(402, envelope('billing.cap', 'permanent')) }]))['conversation/8.2/spend-cap-not-rate-limit']).toBe('pass');
    expect(verdicts(faultFindings('spend_cap_reached', [{ exchange: answer(200, { conversation_id: 'c', messages: [] }) }]))['conversation/8.2/spend-cap-refused']).toBe('fail');
  });

  test.each([
    ['429 rate_limit.exceeded', { exchange: answer(429, envelope('rate_limit.exceeded', 'rate_limited')) }, 'fail'],
    ['429 of category rate_limited under its own code', { exchange: answer(429, envelope('credits.cap', 'rate_limited')) }, 'fail'],
    ['429 of category permanent under its own code', { exchange: answer(429, envelope('credits.cap', 'permanent')) }, 'pass'],
    ['503 rate_limit.exceeded', { exchange: answer(503, envelope('rate_limit.exceeded', 'transient')) }, 'fail'],
    ['an error event rate_limit.exceeded', { exchange: answer(200, '', { events: [ev('error', { code: 'rate_limit.exceeded', category: 'rate_limited', message: 'm' }, 5)] }) }, 'fail'],
  ])('spend cap refused as %s: spend-cap-not-rate-limit %s', (_title, probe, verdict) => {
    expect(verdicts(faultFindings('spend_cap_reached', [probe]))['conversation/8.2/spend-cap-not-rate-limit']).toBe(verdict);
  });

  test('a job-mode POST may accept the job under the fault (noted); its refusal is judged like any other', () => {
    const accepted = { exchange: answer(202, { job_id: 'j', status: 'queued' }), label: 'POST /a (job mode)', job: true };
    const refused = { exchange: answer(503, envelope('upstream.unavailable', 'rate_limited')), label: 'POST /b (job mode)', job: true };
    const only = faultFindings('upstream_unavailable', [accepted]);
    expect(verdicts(only)['conversation/7/upstream-503']).toBe('inconclusive');
    expect(only.find((f) => f.requirement === 'conversation/7/fault-code')?.note).toMatch(/served: HTTP 202 .*POST \/a \(job mode\)/);
    const v = verdicts(faultFindings('upstream_unavailable', [accepted, refused]));
    expect(v['conversation/7/upstream-503']).toBe('pass');
    expect(v['conversation/7/upstream-transient']).toBe('fail');
    // A REST POST served under the fault is no job: it fails.
    expect(verdicts(faultFindings('upstream_unavailable', [{ exchange: answer(202, { job_id: 'j' }), label: 'POST /a' }]))['conversation/7/upstream-503']).toBe('fail');
  });

  test('the failure names the route form that was not refused, and the note groups the forms by outcome', () => {
    const served = { exchange: answer(200, { conversation_id: 'c', messages: [] }), label: 'POST /company (stream: true)' };
    const findings = faultFindings('spend_cap_reached', [rest503('credits.cap', 'transient'), { ...rest503('credits.cap', 'transient'), label: 'POST /company' }, served]);
    expect(findings.find((f) => f.verdict === 'fail')?.actual).toMatch(/^POST \/company \(stream: true\): served/);
    expect(findings.find((f) => f.requirement === 'conversation/7/fault-code')?.note).toBe(
      'spend_cap_reached: HTTP 503, code credits.cap, category transient: a REST message under the fault, POST /company; served: HTTP 200 {"conversation_id":"c","messages":[]}: POST /company (stream: true)',
    );
  });

  test('recovery is INFO: a warning when still refused', () => {
    expect(recoveryFinding('spend_cap_reached', answer(200, {})).verdict).toBe('pass');
    expect(recoveryFinding('spend_cap_reached', answer(503, envelope('x', 'transient'))).verdict).toBe('warn');
  });
});
