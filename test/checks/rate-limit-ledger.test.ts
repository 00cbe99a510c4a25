import { describe, expect, test } from 'vitest';
import { ledgerPage, refusedNoWorkFinding, replayOnceFinding, type LedgerCount, type RefusedBatch } from '../../lib/checks/rate-limit-ledger.ts';
import { exchange, poolHeaders, RESET } from './rate-limit-fixtures.ts';

const post = (status: number) => exchange(status, { method: 'POST', path: '/deal-agents/da_1/messages', headers: poolHeaders('write', 60, 0, RESET) });
const count = (rows: number): LedgerCount => ({ ok: true, rows, pages: [] });

function batch(before: number, after: number, rowsPerMessage: number | undefined = 1): RefusedBatch {
  return { rowsPerMessage, posts: [post(200), post(200), post(429), post(429)], before: count(before), after: count(after) };
}

describe('ledgerPage', () => {
  test('reads the rows and the cursor of a page', () => {
    const page = exchange(200, { body: { operations: [{}, {}], next_cursor: 'abc' } });
    expect(ledgerPage(page)).toEqual({ ok: true, rows: 2, nextCursor: 'abc' });
    expect(ledgerPage(exchange(200, { body: { operations: [], next_cursor: null } }))).toEqual({ ok: true, rows: 0, nextCursor: null });
    expect(ledgerPage(exchange(400, { body: {} })).ok).toBe(false);
  });
});

describe('refusedNoWorkFinding', () => {
  test('the ledger grew by the served messages only: pass', () => {
    expect(refusedNoWorkFinding('ratelimit/8.1/refused-no-work', batch(10, 12)).verdict).toBe('pass');
  });

  test('two rows more than the served messages: fail', () => {
    const f = refusedNoWorkFinding('ratelimit/8.1/refused-no-work', batch(10, 14));
    expect(f.verdict).toBe('fail');
    expect(f.actual).toMatch(/2 more than the served messages/);
  });

  test('a ledger that does not witness messages: inconclusive', () => {
    expect(refusedNoWorkFinding('ratelimit/8.1/refused-no-work', batch(10, 10, 0)).verdict).toBe('inconclusive');
  });

  test('fewer rows than served messages: the ledger may lag, inconclusive', () => {
    expect(refusedNoWorkFinding('ratelimit/8.1/refused-no-work', batch(10, 11)).verdict).toBe('inconclusive');
  });
});

describe('replayOnceFinding', () => {
  test('each replayed message served and leaving its row once: pass', () => {
    const f = replayOnceFinding('ratelimit/8.1/replay-once', batch(10, 12), { finals: [post(200), post(200)], before: count(12), after: count(14) });
    expect(f.verdict).toBe('pass');
  });

  test('rows left at refusal and again at replay: fail', () => {
    const f = replayOnceFinding('ratelimit/8.1/replay-once', batch(10, 14), { finals: [post(200), post(200)], before: count(14), after: count(16) });
    expect(f.verdict).toBe('fail');
    expect(f.actual).toBe('4: 2 left when they were refused and 2 when they were replayed');
  });

  test('a replay refused again: fail', () => {
    expect(replayOnceFinding('ratelimit/8.1/replay-once', batch(10, 12), { finals: [post(200), post(429)], before: count(12), after: count(13) }).verdict).toBe('fail');
  });
});

describe('replayOnceFinding with more refusals than replays', () => {
  const four = (before: number, after: number): RefusedBatch => ({
    rowsPerMessage: 1,
    posts: [post(200), post(429), post(429), post(429), post(429)],
    before: count(before),
    after: count(after),
  });

  test('every refused message left its row: the two replayed ones are done twice', () => {
    const f = replayOnceFinding('ratelimit/8.1/replay-once', four(0, 5), { finals: [post(200), post(200)], before: count(5), after: count(7) });
    expect(f.verdict).toBe('fail');
  });

  test('some of them did: which ones cannot be told', () => {
    expect(replayOnceFinding('ratelimit/8.1/replay-once', four(0, 2), { finals: [post(200), post(200)], before: count(2), after: count(4) }).verdict).toBe('inconclusive');
  });
});
