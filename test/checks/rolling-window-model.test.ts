import { describe, expect, test } from 'vitest';
import { judgePoolModel, type ModelAnswer, type ModelRequest, type PoolModelInput } from '../../lib/checks/rolling-window-model.ts';

const W = 60_000;
const LIMIT = 10;
const T0 = 1_800_000_000_000;

/** A small deterministic generator, so a failing trace replays. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/** A limiter as a server runs it: decides at the counting instant, says Remaining, Reset and Retry-After. */
interface Limiter {
  decide(now: number): { allowed: boolean; remaining: number; resetMs: number; retryAfterMs?: number };
}

function rolling(limit = LIMIT, charge429 = false): Limiter {
  let spent: number[] = [];
  return {
    decide(now) {
      spent = spent.filter((t) => t + W > now);
      if (spent.length >= limit) {
        const back = spent[spent.length - limit]! + W;
        if (charge429) spent.push(now);
        return { allowed: false, remaining: 0, resetMs: back, retryAfterMs: back - now };
      }
      spent.push(now);
      return { allowed: true, remaining: limit - spent.length, resetMs: spent[0]! + W };
    },
  };
}

/** Fixed windows opened at the first spend: every point back at once. */
function firstSpendWindow(): Limiter {
  let opened: number | undefined;
  let used = 0;
  return {
    decide(now) {
      opened ??= now;
      if (now >= opened + W) {
        opened += Math.floor((now - opened) / W) * W;
        used = 0;
      }
      const allowed = used < LIMIT;
      if (allowed) used += 1;
      return { allowed, remaining: LIMIT - used, resetMs: opened + W, ...(allowed ? {} : { retryAfterMs: opened + W - now }) };
    },
  };
}

/** Every point back one window after the last spend. */
function lastSpend(): Limiter {
  let last = Number.NEGATIVE_INFINITY;
  let used = 0;
  return {
    decide(now) {
      if (now >= last + W) used = 0;
      const allowed = used < LIMIT;
      if (allowed) {
        used += 1;
        last = now;
      }
      return { allowed, remaining: LIMIT - used, resetMs: last + W, ...(allowed ? {} : { retryAfterMs: last + W - now }) };
    },
  };
}

/** The sliding-window counter: the previous fixed window weighted by its overlap, plus the current. */
function slidingCounter(): Limiter {
  let opened: number | undefined;
  let previous = 0;
  let current = 0;
  return {
    decide(now) {
      opened ??= now;
      const elapsed = Math.floor((now - opened) / W);
      if (elapsed >= 1) {
        previous = elapsed === 1 ? current : 0;
        current = 0;
        opened += elapsed * W;
      }
      const estimate = (): number => previous * (1 - (now - opened!) / W) + current;
      const allowed = estimate() < LIMIT;
      if (allowed) current += 1;
      return { allowed, remaining: Math.max(0, LIMIT - Math.ceil(estimate())), resetMs: opened + W, ...(allowed ? {} : { retryAfterMs: 1000 }) };
    },
  };
}

/** A token bucket refilling continuously at limit per window. */
function tokenBucket(): Limiter {
  let tokens = LIMIT;
  let at: number | undefined;
  return {
    decide(now) {
      tokens = Math.min(LIMIT, tokens + (((now - (at ?? now)) * LIMIT) / W));
      at = now;
      const allowed = tokens >= 1;
      if (allowed) tokens -= 1;
      return { allowed, remaining: Math.floor(tokens), resetMs: now + (LIMIT - tokens) * (W / LIMIT), ...(allowed ? {} : { retryAfterMs: (1 - tokens) * (W / LIMIT) }) };
    },
  };
}

/** One request as the harness sends it: when, and how long its answer takes to leave and come back. */
interface Planned {
  at: number;
  /** Ms from the send to the counting instant, and from there to the headers. */
  toCount: number;
  fromCount: number;
}

/**
 * Runs the plan through a limiter in counting order (the server's serial order), and records what
 * the harness sees: each request's interval and the answer's headers, the clock offset applied.
 */
function trace(plan: readonly Planned[], limiter: Limiter, options: { offsetMs?: number; points?: (i: number) => number } = {}): PoolModelInput {
  const offset = options.offsetMs ?? 0;
  const order = plan.map((p, i) => ({ ...p, i, count: p.at + p.toCount })).sort((a, b) => a.count - b.count);
  const requests: ModelRequest[] = [];
  const answers: ModelAnswer[] = [];
  for (const p of order) {
    let d = limiter.decide(p.count);
    // A route that spends more than one point: the extra points, decided at once.
    for (let k = 1; k < (options.points?.(p.i) ?? 1) && d.allowed; k++) d = { ...d, remaining: limiter.decide(p.count).remaining };
    const seq = p.i + 1;
    requests.push({ seq, sendMs: p.at, headersMs: p.count + p.fromCount, spend: d.allowed ? 'one' : 'maybe' });
    const answer: ModelAnswer = { seq, outcome: d.allowed ? 'served' : 'refused', remaining: d.remaining, resetS: Math.ceil((d.resetMs + offset) / 1000), clockOffsetMs: offset };
    if (d.retryAfterMs !== undefined) answer.retryAfterS = Math.max(1, Math.ceil(d.retryAfterMs / 1000));
    answers.push(answer);
  }
  return { limit: LIMIT, windowMs: W, requests, answers, recordStartMs: T0 };
}

function problemsOf(input: PoolModelInput): string[] {
  return judgePoolModel(input).flatMap((v) => v.problems.map((p) => `#${v.seq} ${p.claim}: ${p.text}`));
}

/**
 * The staged spend: a few points early, the rest a while later, refused requests before the first
 * refill, then at the first refill as many requests as came back early and one more.
 */
function staged(latencyMs = 40): Planned[] {
  const at = (t: number): Planned => ({ at: T0 + t, toCount: latencyMs / 2, fromCount: latencyMs / 2 });
  const early = [0, 200, 400].map(at);
  const later = Array.from({ length: LIMIT - 3 }, (_, i) => at(10_000 + i * 100));
  const refused = [20_000, 30_000].map(at);
  const refill = [62_500, 62_700, 62_900, 63_100].map(at);
  return [...early, ...later, ...refused, ...refill];
}

describe('judgePoolModel: admissible traces of a rolling window pass', () => {
  test('the staged spend on a rolling window: nothing to say', () => {
    expect(problemsOf(trace(staged(), rolling()))).toEqual([]);
  });

  test('refused requests charged too (a legal reading): nothing to say', () => {
    expect(problemsOf(trace(staged(), rolling(LIMIT, true)))).toEqual([]);
  });

  test('a target whose clock is 7 s ahead, with Reset on its own clock: nothing to say', () => {
    expect(problemsOf(trace(staged(), rolling(), { offsetMs: 7_000 }))).toEqual([]);
  });

  test.each([1, 2, 3, 4, 5, 6, 7, 8])('concurrent requests with latency and jitter (seed %i): nothing to say', (seed) => {
    const next = random(seed);
    const plan: Planned[] = [];
    let t = 0;
    for (let i = 0; i < 80; i++) {
      // Bursts of concurrent requests, pauses, answers from 1 ms to 3 s.
      t += next() < 0.3 ? next() * 8_000 : next() * 50;
      plan.push({ at: T0 + t, toCount: next() * 1_500, fromCount: next() * 1_500 });
    }
    expect(problemsOf(trace(plan, rolling()))).toEqual([]);
  });

  test('a pool spent by another client before the record began: nothing to say', () => {
    const input = trace(staged(), rolling());
    // Four points spent 30 s before the record: the model does not see them, the pool does.
    const limiter = rolling();
    for (let i = 0; i < 4; i++) limiter.decide(T0 - 30_000 + i);
    const withPrior = trace(staged(), limiter);
    expect(problemsOf({ ...withPrior, recordStartMs: input.recordStartMs })).toEqual([]);
  });

  test("another client's points spent until the run's first request to the pool, two windows after the record began (a start held up): nothing to say", () => {
    const limiter = rolling();
    // Three points spent by another client in the 10 s before the run's first request to the pool.
    for (let i = 0; i < 3; i++) limiter.decide(T0 - 10_000 + i * 3_000);
    const input = { ...trace(staged(), limiter), recordStartMs: T0 - 2 * W };
    expect(problemsOf({ ...input, firstSentMs: T0 })).toEqual([]);
    // Judged from the record's start alone, they read as the run's own points miscounted.
    expect(problemsOf(input)).not.toEqual([]);
  });

  test('a request that got no answer may have been counted at any time after its send', () => {
    const input = trace(staged(), rolling());
    const lost: ModelRequest = { seq: 999, sendMs: T0 + 5_000, headersMs: Number.POSITIVE_INFINITY, spend: 'maybe' };
    expect(problemsOf({ ...input, requests: [...input.requests, lost] })).toEqual([]);
  });
});

describe('judgePoolModel: wrong limiters fail on the staged spend', () => {
  test.each([
    ['a fixed window opened at the first spend (every point back at once)', firstSpendWindow],
    ['every point back a window after the last spend', lastSpend],
    ['the sliding-window counter', slidingCounter],
    ['a token bucket refilling continuously', tokenBucket],
  ])('%s', (_name, make) => {
    expect(problemsOf(trace(staged(), make())).length).toBeGreaterThan(0);
  });

  test('a request that spends two points', () => {
    const problems = problemsOf(trace(staged(), rolling(), { points: (i) => (i === 1 ? 2 : 1) }));
    expect(problems.some((p) => p.includes('count'))).toBe(true);
  });

  test("a request of the other pool that spends this one's point (the model never counts it)", () => {
    const input = trace(staged(), rolling());
    // The server counted request #2 here, but it was a GET against the write pool: the model drops it.
    const problems = problemsOf({ ...input, requests: input.requests.filter((r) => r.seq !== 2), answers: input.answers.filter((a) => a.seq !== 2) });
    expect(problems.length).toBeGreaterThan(0);
  });

  test('a hidden cap: a refusal while the pool surely has points', () => {
    const input = trace(staged(), rolling());
    const answers = input.answers.map((a) => (a.seq === 3 ? { ...a, outcome: 'refused' as const, remaining: 0 } : a));
    const requests = input.requests.map((r) => (r.seq === 3 ? { ...r, spend: 'maybe' as const } : r));
    const verdict = judgePoolModel({ ...input, answers, requests }).find((v) => v.seq === 3);
    expect(verdict?.problems.map((p) => p.claim)).toContain('refusal');
  });

  test('a served answer whose Remaining equals the Limit', () => {
    const input = trace(staged(), rolling());
    const answers = input.answers.map((a) => (a.seq === 1 ? { ...a, remaining: LIMIT } : a));
    const verdict = judgePoolModel({ ...input, answers }).find((v) => v.seq === 1);
    expect(verdict?.problems[0]?.text).toMatch(/Remaining 10, the model's interval \[\d+, 9\]/);
  });
});
