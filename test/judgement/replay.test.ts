import { describe, expect, test } from 'vitest';
import { envelopeFindings } from '../../lib/checks/error-envelope.ts';
import { rollingWindowFinding } from '../../lib/checks/rate-limit-counting.ts';
import { readPage } from '../../lib/checks/ledger-page.ts';
import { walkCompleteFindings } from '../../lib/checks/ledger-walk-findings.ts';
import { replayRequestOf, replayRequirement, type ReplayRequest } from '../../lib/judgement/replay.ts';
import type { Exchange } from '../../lib/model/exchange.ts';
import { answer, BASE, recorded, results, row } from './judgement-fixtures.ts';

const NEW_BASE = 'http://fixed.invalid/v1';

describe('replaying a requirement on another server', () => {
  test('a recorded request is sent again below the new base URL, the token still a placeholder', () => {
    const e = answer(200, {}, {}, '/credits/operations?limit=5');
    expect(replayRequestOf(e, BASE)).toEqual({ method: 'GET', target: '/credits/operations?limit=5', headers: { authorization: 'Bearer $ASI_TOKEN', accept: 'application/json' }, tokenRole: 'primary', stream: false });
    expect(replayRequestOf(e, 'http://elsewhere.invalid/v1')).toBeUndefined();
  });

  test('the failing judgement is sent again and judged by the same checker: then failed, now passes', async () => {
    const wrong = answer(401, { error: { code: 'auth.token_missing', category: 'permanent', message: 'm', request_id: 'r1' } }, { 'x-request-id': 'r2' }, '/me');
    const { record, findings } = recorded([wrong], () => envelopeFindings(wrong));
    const sent: ReplayRequest[] = [];
    const fixed = async (request: ReplayRequest): Promise<Exchange> => {
      sent.push(request);
      const e = answer(401, { error: { code: 'auth.token_missing', category: 'permanent', message: 'm', request_id: 'r9' } }, { 'x-request-id': 'r9' }, request.target);
      return { ...e, request: { ...e.request, url: `${NEW_BASE}${request.target}` } };
    };
    const [replayed] = await replayRequirement({ record, results: results(findings), requirement: 'errors/7/request-id-header', recordedBaseUrl: BASE, baseUrl: NEW_BASE, send: fixed });
    expect(sent.map((r) => r.target)).toEqual(['/me']);
    expect(replayed?.then.map((f) => f.verdict)).toEqual(['fail']);
    expect(replayed?.now.map((f) => f.verdict)).toEqual(['pass']);
  });

  test('a walk is sent again page by page, and its pages are read from the new answers', async () => {
    const p1 = answer(200, { operations: [row('a')], next_cursor: 'c' });
    const p2 = answer(200, { operations: [row('a')], next_cursor: null }, {}, '/credits/operations?cursor=c');
    const walk = { query: {}, pages: [readPage(p1), readPage(p2)], rows: [...readPage(p1).rows, ...readPage(p2).rows], end: 'last-page' as const, cursors: ['c'] };
    const { record, findings } = recorded([p1, p2], () => walkCompleteFindings(walk, undefined));
    expect(findings[0]?.verdict).toBe('fail');
    const pages: Record<string, Exchange> = {
      '/credits/operations': answer(200, { operations: [row('a')], next_cursor: 'c' }),
      '/credits/operations?cursor=c': answer(200, { operations: [row('b')], next_cursor: null }),
    };
    const [replayed] = await replayRequirement({ record, results: results(findings), requirement: 'ledger/4.1/walk-complete', recordedBaseUrl: BASE, baseUrl: NEW_BASE, send: async (r) => pages[r.target]! });
    expect(replayed).toMatchObject({ sent: 2, requests: ['GET /credits/operations', 'GET /credits/operations?cursor=c'], now: [{ verdict: 'pass' }] });
  });

  test('a judgement that rests on requests in time is named and not sent again', async () => {
    const served = [answer(200, {}, { 'x-ratelimit-remaining': '5' }, '/me'), answer(200, {}, { 'x-ratelimit-remaining': '4' }, '/me')];
    const { record, findings } = recorded(served, () => [rollingWindowFinding('ratelimit/8.1/rolling-window', served, 600, 60_000, 'read')]);
    let sent = 0;
    const [replayed] = await replayRequirement({ record, results: results(findings), requirement: 'ratelimit/8.1/rolling-window', recordedBaseUrl: BASE, baseUrl: NEW_BASE, send: async () => { sent += 1; return served[0]!; } });
    expect(sent).toBe(0);
    expect(replayed?.skipped).toMatch(/^its judgement rests on requests in time .*run --only ratelimit\/8\.1\/rolling-window/);
  });
});
