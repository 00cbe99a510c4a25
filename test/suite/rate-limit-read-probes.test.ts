import { describe, expect, test } from 'vitest';
import { receivedAtMs, sentAtMs } from '../../lib/checks/pool-headers.ts';
import { resetRefillFinding, retryAfterTrueFinding } from '../../lib/checks/rate-limit-retry.ts';
import type { Exchange } from '../../lib/model/exchange.ts';
import { probeReadRefusal, readPoolTimed, type RefillProbe } from '../../lib/suite/rate-limit-probes.ts';
import type { Session } from '../../lib/suite/session.ts';
import { refused, served, T0 } from '../checks/rate-limit-fixtures.ts';

const WINDOW_MS = 5_000;

/** Ms from the fixtures' clock to now: the probes sleep until real instants. */
function now(): number {
  return Date.now() - T0;
}

/** A session whose client answers each request with the next of `answers`, made as it is sent. */
function scripted(answers: Array<(at: number) => Exchange>): { session: Session; sent: Exchange[] } {
  const sent: Exchange[] = [];
  const client = {
    send: async (): Promise<Exchange> => {
      const answer = answers.shift();
      if (answer === undefined) throw new Error('no more answers scripted');
      const exchange = answer(now());
      sent.push(exchange);
      return exchange;
    },
  };
  return { session: { client, clockWitness: () => undefined } as unknown as Session, sent };
}

describe("the read pool's timed probes", () => {
  test('a first refill served all through, before the probe at Retry-After, leaves that probe no longer the next request after the 429', async () => {
    // The burst's 429 said Retry-After: 1; the refill is due before the probe (late on a loaded
    // machine), takes the points that came back, and the probe at Retry-After meets a full pool.
    const basis = refused(now() - 600, '1');
    const answers = [(at: number) => served(2, at), (at: number) => served(1, at), (at: number) => served(0, at), (at: number) => refused(at, '1'), (at: number) => served(0, at)];
    const { session, sent } = scripted(answers);
    const refill: RefillProbe = { atMs: Date.now(), count: 3, sent: [], timed: [] };
    const probes = await probeReadRefusal(session, basis, WINDOW_MS, {}, refill);
    expect(refill.sent).toEqual(sent.slice(0, 3));
    expect(refill.timed.map((p) => p.first)).toEqual([true, false, false]);
    // Refused after requests that took the points: timed against nothing, and one more probe goes
    // once its own 429's Retry-After has elapsed, the next request after that 429.
    expect(probes.map((p) => [p.exchange, p.basis, p.first])).toEqual([
      [sent[3], basis, false],
      [sent[4], sent[3], true],
    ]);
    expect(sentAtMs(sent[4]!)).toBeGreaterThanOrEqual(receivedAtMs(sent[3]!) + 1_000);
    const finding = retryAfterTrueFinding('ratelimit/8.1/retry-after-true', [...probes, ...refill.timed]);
    expect(finding.verdict).toBe('pass');
  });

  test('a refill that ends refused makes its 429 the one the next probe is timed against', async () => {
    const basis = refused(now() - 600, '1');
    const { session, sent } = scripted([(at) => served(0, at), (at) => refused(at, '1'), (at) => served(0, at)]);
    const refill: RefillProbe = { atMs: Date.now(), count: 3, sent: [], timed: [] };
    const probes = await probeReadRefusal(session, basis, WINDOW_MS, {}, refill);
    expect(refill.timed.map((p) => p.first)).toEqual([true, false]);
    expect(probes.map((p) => [p.exchange, p.basis, p.first])).toEqual([[sent[2], sent[1], true]]);
  });

  test('a refill held past the Reset instant (the limiter drill) is the next request after the 429: reset-refill is judged by it', async () => {
    // The store is down until after Reset; the refill was due first, goes first once it is back,
    // and is served all through: the probe after it is not the next request after the 429.
    const resetS = Math.floor(Date.now() / 1000) + 1;
    const basis = refused(now() - 600, '1', { headers: { 'x-ratelimit-reset': String(resetS) } });
    const storeBackAt = resetS * 1000 + 1_500;
    const { session, sent } = scripted([(at) => served(2, at), (at) => served(1, at), (at) => served(0, at), (at) => served(5, at)]);
    const refill: RefillProbe = { atMs: Date.now(), count: 3, sent: [], timed: [] };
    const probes = await probeReadRefusal(session, basis, WINDOW_MS, { storeUp: () => new Promise((r) => setTimeout(r, Math.max(0, storeBackAt - Date.now()))) }, refill);
    expect(refill.timed.map((p) => [p.exchange, p.basis, p.first])).toEqual([
      [sent[0], basis, true],
      [sent[1], basis, false],
      [sent[2], basis, false],
    ]);
    expect(probes.map((p) => [p.exchange, p.first])).toEqual([[sent[3], false]]);
    expect(resetRefillFinding('ratelimit/8.1/reset-refill', probes).verdict).toBe('inconclusive');
    const timed = readPoolTimed(probes, refill.timed);
    expect(timed.map((p) => p.exchange)).toEqual(sent);
    expect(resetRefillFinding('ratelimit/8.1/reset-refill', timed).verdict).toBe('pass');
  });
});
