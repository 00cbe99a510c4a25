import { expect, test } from 'vitest';
import type { Exchange } from '../../lib/model/exchange.ts';
import { EVIDENCE_BUDGET, TRANSCRIPT_BUDGET, keptForDocumentChecks, trimExchange } from '../../lib/model/evidence-trim.ts';

function streamed(events: number, dataChars: number): Exchange {
  return {
    seq: 1,
    startedAt: new Date(0).toISOString(),
    request: { method: 'POST', url: 'http://t.invalid/v1/m', headers: {} },
    response: {
      status: 200,
      headers: { 'content-type': 'text/event-stream' },
      body: 'x'.repeat(200_000),
      bodyBytes: 200_000,
      truncated: false,
      events: Array.from({ length: events }, (_, i) => ({ event: 'text_delta', data: 'd'.repeat(dataChars), atMs: i })),
      chunkTimes: Array.from({ length: events }, (_, i) => i),
    },
    timings: { totalMs: 1 },
  };
}

test('a flood of events keeps the first ones within the budget and counts the rest', () => {
  const res = trimExchange(streamed(10_000, 5), TRANSCRIPT_BUDGET).response!;
  expect(res.events).toHaveLength(TRANSCRIPT_BUDGET.events);
  expect(res.eventsOmitted).toBe(10_000 - TRANSCRIPT_BUDGET.events);
  expect(res.chunkTimes).toHaveLength(TRANSCRIPT_BUDGET.chunkTimes);
  expect(res.chunkTimesOmitted).toBe(10_000 - TRANSCRIPT_BUDGET.chunkTimes);
  expect(res.body).toHaveLength(TRANSCRIPT_BUDGET.body);
  expect(res.truncated).toBe(true);
});

test('large events are kept up to the budget of data characters, the last one cut', () => {
  const res = trimExchange(streamed(10, 5_000)).response!;
  const chars = res.events!.reduce((n, e) => n + e.data.replace(/…$/, '').length, 0);
  expect(chars).toBe(EVIDENCE_BUDGET.eventData);
  expect(res.events!.at(-1)!.data.endsWith('…')).toBe(true);
  expect(res.eventsOmitted).toBe(10 - res.events!.length);
});

test('a small exchange is kept as it is', () => {
  const ex = streamed(3, 5);
  ex.response!.body = 'short';
  expect(trimExchange(ex)).toEqual(ex);
});

test('the transcript counts bodies and event data in bytes as written: a control character costs six', () => {
  const ex = streamed(100, 5_000);
  ex.response!.body = '\u0001'.repeat(100_000);
  ex.response!.events = ex.response!.events!.map((e) => ({ ...e, data: '\u0001'.repeat(5_000) }));
  const res = trimExchange(ex, TRANSCRIPT_BUDGET).response!;
  expect(res.body).toHaveLength(Math.floor(TRANSCRIPT_BUDGET.body / 6));
  const line = JSON.stringify(res);
  // Two budgets of content, and the fields and escapes around them.
  expect(Buffer.byteLength(line)).toBeLessThan(2 * 131_072 + 20_000);
  expect(res.eventsOmitted).toBe(100 - res.events!.length);
});

test('an exchange kept for document checks is whole, unless its response was cut', () => {
  const whole = streamed(3, 5);
  expect(keptForDocumentChecks(whole)).toBe(whole);
  const cut = streamed(10_000, 5);
  cut.response!.truncated = true;
  const kept = keptForDocumentChecks(cut).response!;
  expect(kept.body).toHaveLength(TRANSCRIPT_BUDGET.body);
  expect(kept.events).toHaveLength(TRANSCRIPT_BUDGET.events);
  expect(kept.truncated).toBe(true);
});
