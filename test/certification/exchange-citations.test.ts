import { describe, expect, test } from 'vitest';
import { citationDifference } from '../../lib/certification/exchange-citations.ts';
import type { Exchange } from '../../lib/model/exchange.ts';
import { fail } from '../../lib/model/finding.ts';
import { HEADERS_AND_ENVELOPE_BUDGET, TRANSCRIPT_BUDGET, trimExchange, trimFinding } from '../../lib/model/evidence-trim.ts';

/** A stream with control characters (six bytes each in JSON), events long and many, more chunks than any budget keeps. */
function streamed(): Exchange {
  return {
    seq: 7,
    startedAt: '2026-11-25T10:00:00.000Z',
    request: { method: 'POST', url: 'http://t.invalid/v1/deal-agents/da_1/messages', headers: { authorization: 'Bearer $ASI_TOKEN' }, body: '{"message":"hi"}', tokenRole: 'primary' },
    response: {
      status: 200,
      headers: { 'content-type': 'text/event-stream', 'x-ratelimit-remaining': '59' },
      body: 'event: text_delta\n'.repeat(20_000) + '\u0001'.repeat(30_000),
      bodyBytes: 520_000,
      truncated: false,
      events: Array.from({ length: 1_500 }, (_, i) => ({ event: 'text_delta', data: `${i}:${'d\u0002'.repeat(i % 7 === 0 ? 3_000 : 10)}`, id: String(i), atMs: i * 2 })),
      chunkTimes: Array.from({ length: 1_500 }, (_, i) => i * 2),
      streamClosed: true,
    },
    timings: { totalMs: 3_100, headersMs: 12 },
    pool: 'write',
  };
}

/** The record's line, as the session writes it, read back from JSON. */
function recorded(exchange: Exchange): Exchange {
  return JSON.parse(JSON.stringify(trimExchange(exchange, TRANSCRIPT_BUDGET))) as Exchange;
}

/** The copy a failing finding carries into report.json, read back from JSON. */
function cited(exchange: Exchange): Exchange {
  return JSON.parse(JSON.stringify(trimFinding(fail('x/1/y', 'e', 'a', [exchange])).exchanges[0])) as Exchange;
}

describe('a finding\'s copy of an exchange against the record', () => {
  test('matches however the two budgets cut the body, the events and the chunk times', () => {
    const ex = streamed();
    const copy = cited(ex);
    expect(copy.response!.body.length).toBeLessThan(recorded(ex).response!.body.length);
    expect(copy.response!.events!.at(-1)!.data.endsWith('…')).toBe(true);
    expect(citationDifference(copy, recorded(ex))).toBeUndefined();
    // The pacer keeps its own copies for headers and envelope only: those match too.
    expect(citationDifference(JSON.parse(JSON.stringify(trimExchange(ex, HEADERS_AND_ENVELOPE_BUDGET))) as Exchange, recorded(ex))).toBeUndefined();
    const plain: Exchange = { ...ex, response: { status: 401, headers: {}, body: '{"error":{"code":"auth.token_missing"}}', bodyBytes: 38, truncated: false } };
    expect(citationDifference(cited(plain), recorded(plain))).toBeUndefined();
    const none: Exchange = { ...ex, response: undefined, error: { code: 'UND_ERR_HEADERS_TIMEOUT', message: 'Headers Timeout Error' } };
    delete none.response;
    expect(citationDifference(cited(none), recorded(none))).toBeUndefined();
  });

  test('anything the copy shows that was not recorded is named, with where it differs', () => {
    const ex = streamed();
    const record = recorded(ex);
    const edit = (change: (c: Exchange) => void): string | undefined => {
      const copy = cited(ex);
      change(copy);
      return citationDifference(copy, record);
    };
    expect(edit((c) => (c.response!.status = 201))).toBe('response.status: the finding shows 201, the record 200');
    expect(edit((c) => (c.response!.headers['x-ratelimit-remaining'] = '60'))).toBe('response.headers.x-ratelimit-remaining: the finding shows "60", the record "59"');
    expect(edit((c) => (c.request.url += '?from=x'))).toBe('request.url: the finding shows "http://t.invalid/v1/deal-agents/da_1/messages?from=x", the record "http://t.invalid/v1/deal-agents/da_1/messages"');
    expect(edit((c) => (c.startedAt = '2026-11-25T10:00:01.000Z'))).toBe('startedAt: the finding shows "2026-11-25T10:00:01.000Z", the record "2026-11-25T10:00:00.000Z"');
    expect(edit((c) => (c.response!.body = `event: text_delt4${c.response!.body.slice(17)}`))).toBe(
      'response.body from character 17: the finding shows "event: text_delt4\\nevent: text_delta\\neven…", the record "event: text_delta\\nevent: text_delta\\neven…"',
    );
    expect(edit((c) => (c.response!.events![3]!.atMs = 1))).toBe('response.events[3].atMs: the finding shows 1, the record 6');
    expect(edit((c) => (c.response!.events![1]!.data = 'changed'))).toMatch(/^response\.events\[1\]\.data from character 1: the finding shows "changed", the record "1:d\\u0002/);
    expect(edit((c) => c.response!.events!.pop())).toBe('response.events: the finding counts 1499 in all, the record 1500');
    expect(edit((c) => (c.response!.truncated = false))).toBe(
      'response.body from character 16385: the finding shows "…a\\nevent: text_delta\\neven", the record "…a\\nevent: text_delta\\nevent: text_delta\\nevent: tex…"',
    );
    const plain: Exchange = { ...ex, response: { status: 401, headers: {}, body: 'short', bodyBytes: 5, truncated: false } };
    const copy = cited(plain);
    copy.response!.truncated = true;
    expect(citationDifference(copy, recorded(plain))).toBe('response.truncated: the finding shows true, the record false with the same body');
    expect(edit((c) => (c.response!.chunkTimes![0] = 5))).toBe('response.chunkTimes[0]: the finding shows 5, the record 0');
    expect(edit((c) => delete c.response)).toBe('response: the finding shows none, the record status 200');
  });
});
