import { describe, expect, test } from 'vitest';
import { backgroundAllowance, ledgerPage, refusedNoWorkFinding, replayOnceFinding, type LedgerCount, type RefusedBatch, type RefusedTrial } from '../../lib/checks/rate-limit-ledger.ts';
import { exchange, poolHeaders, RESET } from './rate-limit-fixtures.ts';

const post = (status: number) => exchange(status, { method: 'POST', path: '/deal-agents/da_1/messages', headers: poolHeaders('write', 60, 0, RESET) });
/** A count taken at `atMs` (harness clock), its walk lasting 50 ms. */
const count = (rows: number, atMs = 0): LedgerCount => ({ ok: true, rows, pages: [], startedMs: atMs, endedMs: atMs + 50 });

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

/** Refused trial of `refused` POSTs over 300 ms, the ledger growing by `grew`, others adding `others` rows in 2 s. */
function trial(refused: number, grew: number, others: number): RefusedTrial {
  return {
    posts: Array.from({ length: refused }, () => post(429)),
    before: count(100, 0),
    after: count(100 + grew, 250),
    background: { rows: others, spanMs: 2_000 },
  };
}

describe('a ledger other clients write to', () => {
  test('no allowance on a ledger seen quiet; some when others write', () => {
    expect(backgroundAllowance(undefined, 1_000)).toBe(0);
    expect(backgroundAllowance({ rows: 0, spanMs: 2_000 }, 1_000)).toBe(0);
    // 20 rows in 2 s, taken high (29.9), over 300 ms: 4.5 expected, 12 allowed.
    expect(backgroundAllowance({ rows: 20, spanMs: 2_000 }, 300)).toBe(12);
  });

  test('rows the batch does not explain, and a trial within what others add: pass, saying so', () => {
    const f = refusedNoWorkFinding('ratelimit/8.1/refused-no-work', { ...batch(10, 15), trial: trial(32, 3, 20) });
    expect(f.verdict).toBe('pass');
    expect(f.note).toMatch(/3 rows of the batch beyond its served POSTs came from other clients: 32 more refused POSTs then left 3 rows, within the 12/);
  });

  test('a trial whose refused POSTs leave rows beyond what others add: fail', () => {
    const f = refusedNoWorkFinding('ratelimit/8.1/refused-no-work', { ...batch(10, 15), trial: trial(32, 36, 20) });
    expect(f.verdict).toBe('fail');
    expect(f.actual).toMatch(/32 more refused POSTs then left 36 rows, beyond the 12/);
  });

  test('on a quiet ledger one row left by the trial is refused work', () => {
    expect(refusedNoWorkFinding('ratelimit/8.1/refused-no-work', { ...batch(10, 13), trial: trial(32, 1, 0) }).verdict).toBe('fail');
  });

  test('a trial the pool served: inconclusive', () => {
    const served: RefusedTrial = { ...trial(0, 0, 0), posts: [post(200)] };
    expect(refusedNoWorkFinding('ratelimit/8.1/refused-no-work', { ...batch(10, 13), trial: served }).verdict).toBe('inconclusive');
  });

  test('a replay among other clients\' rows: pass within the allowance, fail beyond it', () => {
    const quietBatch = { ...batch(10, 15), trial: trial(32, 2, 20) };
    const replay = (grew: number) => ({ finals: [post(200), post(200)], before: count(20, 0), after: count(20 + grew, 950), background: { rows: 20, spanMs: 2_000 } });
    expect(replayOnceFinding('ratelimit/8.1/replay-once', quietBatch, replay(9)).verdict).toBe('pass');
    expect(replayOnceFinding('ratelimit/8.1/replay-once', quietBatch, replay(40)).verdict).toBe('fail');
  });
});
