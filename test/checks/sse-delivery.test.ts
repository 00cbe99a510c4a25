import { describe, expect, test } from 'vitest';
import { BURST_SPAN_MS, MIN_TURN_MS, deliveryFinding, deliveryFindings, judgeDelivery } from '../../lib/checks/sse-delivery.ts';
import type { SseEventRecord } from '../../lib/model/exchange.ts';
import { eventsExchange } from './sse-fixtures.ts';

const timed = (...times: number[]): SseEventRecord[] => times.map((atMs, i) => ({ event: i === times.length - 1 ? 'done' : 'text_delta', data: '{}', atMs }));

describe('judgeDelivery', () => {
  test('events spread over the turn are incremental', () => {
    expect(judgeDelivery(timed(50, 100, 150, 200, 250)).kind).toBe('incremental');
  });

  test('a long wait and then every event at once is a burst', () => {
    expect(judgeDelivery(timed(600, 600, 601, 601, 602)).kind).toBe('burst');
  });

  test('a fast server that answers everything at once is not judged', () => {
    expect(judgeDelivery(timed(5, 5, 6, 6)).kind).toBe('too-short');
  });

  test('too few events are not judged', () => {
    expect(judgeDelivery(timed(900, 900)).kind).toBe('too-short');
  });

  test('a slow first token followed by a quick but spread answer is incremental', () => {
    expect(judgeDelivery(timed(2_000, 2_020, 2_040, 2_060)).kind).toBe('incremental');
  });

  test('a fast streaming server (a slow first token, then one event every 3 ms) is incremental', () => {
    expect(judgeDelivery(timed(250, 253, 256, 259, 262, 265, 268, 271, 274, 277, 280)).kind).toBe('incremental');
  });

  test.each([
    [MIN_TURN_MS, BURST_SPAN_MS, 'burst'],
    [MIN_TURN_MS - 1, BURST_SPAN_MS, 'too-short'],
    [MIN_TURN_MS, BURST_SPAN_MS + 1, 'incremental'],
  ] as const)('first event at %i ms, span %i ms: %s', (first, span, kind) => {
    expect(judgeDelivery(timed(first, first + 1, first + span)).kind).toBe(kind);
  });
});

describe('deliveryFinding (SHOULD)', () => {
  test('a burst fails with the timings in actual', () => {
    const f = deliveryFinding(eventsExchange(timed(550, 550, 551), { chunkTimes: [550] }));
    expect(f.verdict).toBe('fail');
    expect(f.actual).toMatch(/all 3 events arrived within 1 ms, 550 ms after the request, in 1 chunk/);
  });

  test('incremental delivery passes with a note', () => {
    const f = deliveryFinding(eventsExchange(timed(50, 100, 150)));
    expect(f.verdict).toBe('pass');
    expect(f.note).toMatch(/3 events over 100 ms/);
  });
});

describe('deliveryFindings: the streams of one test together', () => {
  const burst = (seq: number) => ({ ...eventsExchange(timed(550, 550, 551), { chunkTimes: [550] }), seq });
  const streamed = (seq: number) => ({ ...eventsExchange(timed(250, 260, 270)), seq });

  test('a buffering server bursts on every stream: each fails', () => {
    expect(deliveryFindings([burst(1), burst(2)]).map((f) => f.verdict)).toEqual(['fail', 'fail']);
  });

  test('a lone burst beside a stream that arrived incrementally is not judged alone, and says why', () => {
    const [lone, other] = deliveryFindings([burst(1), streamed(2)]);
    expect(lone?.verdict).toBe('pass');
    expect(lone?.note).toMatch(/all 3 events arrived within 1 ms.*not judged alone: #2 of the same test arrived incrementally/);
    expect(other?.verdict).toBe('pass');
  });

  test('one stream alone is judged as before', () => {
    expect(deliveryFindings([burst(1)]).map((f) => f.verdict)).toEqual(['fail']);
  });
});
