import { describe, expect, test } from 'vitest';
import { resetPassesAtMs, resetRefillFinding, retryAfterElapsesAtMs, retryAfterTrueFinding, type Probe } from '../../lib/checks/rate-limit-retry.ts';
import { ClockWitness } from '../../lib/checks/server-clock.ts';
import { exchange, refused, served, T0 } from './rate-limit-fixtures.ts';

const RA = 'ratelimit/8.1/retry-after-true';
const RESET = 'ratelimit/8.1/reset-refill';

/** A 429 at T0 (answered at T0 + 5 ms) saying Retry-After 10 and Reset T0 + 10 s, dated T0. */
function refusal(retryAfter = '10', resetS = (T0 + 10_000) / 1000): ReturnType<typeof refused> {
  return refused(0, retryAfter, { headers: { 'x-ratelimit-reset': String(resetS), date: new Date(T0).toUTCString() } });
}

function probe(exchange: Probe['exchange'], basis: Probe['exchange'], first = true): Probe {
  return { exchange, basis, first };
}

describe('retryAfterTrueFinding', () => {
  test('refused 2 s before, served once elapsed: pass', () => {
    const r = refusal();
    const before = refused(8_000, '2');
    const after = served(5, 10_100);
    expect(retryAfterTrueFinding(RA, [probe(before, r), probe(after, before)]).verdict).toBe('pass');
  });

  test('served well before Retry-After elapsed: a safe upper bound, noted, not a failure', () => {
    const r = refusal('30');
    const f = retryAfterTrueFinding(RA, [probe(served(5, 10_000), r)]);
    expect(f.verdict).toBe('pass');
    expect(f.note).toMatch(/served 10\.0 s after a 429 that said Retry-After: 30: a safe upper bound/);
  });

  test('refused before Retry-After elapsed and nothing sent after it: not judged', () => {
    const r = refusal('10');
    expect(retryAfterTrueFinding(RA, [probe(refused(5_000, '5'), r)]).verdict).toBe('inconclusive');
  });

  test('refused again after Retry-After elapsed: fail', () => {
    const r = refusal('5');
    const f = retryAfterTrueFinding(RA, [probe(refused(5_200, '5'), r)]);
    expect(f.verdict).toBe('fail');
    expect(f.actual).toMatch(/refused again 5\.2 s after the 429 that said Retry-After: 5/);
  });

  test('Retry-After: 0 and an immediate retry that is refused: fail', () => {
    expect(retryAfterTrueFinding(RA, [probe(refused(10, '0'), refusal('0'))]).verdict).toBe('fail');
  });

  test('the next request served within the last second of the wait agrees: pass', () => {
    const r = refusal('10');
    expect(retryAfterTrueFinding(RA, [probe(served(5, 9_500), r)]).verdict).toBe('pass');
  });

  test('a request within the last second of the wait after another was served is not judged', () => {
    const r = refusal('10');
    expect(retryAfterTrueFinding(RA, [probe(served(5, 9_500), r, false)]).verdict).toBe('inconclusive');
  });

  test('Retry-After twice the wait, and a staged refill a loaded machine sent late: its first request, served, judges the 429', () => {
    // The burst's 429 says 14 s (the real wait was 7 s). The refill went 13.2 s after it, served
    // all through (no later 429); the probe a second before Retry-After was held too long and left
    // out; the Reset probe went after the refill, served too. Only the refill is the next request.
    const r = refusal('14', (T0 + 7_000) / 1000);
    const refill = [served(5, 13_200), served(4, 13_250), served(3, 13_300)];
    const timed = refill.map((e, i) => probe(e, r, i === 0));
    const resetProbe = probe(served(2, 13_600), r, false);
    expect(retryAfterTrueFinding(RA, [resetProbe]).verdict).toBe('inconclusive');
    expect(retryAfterTrueFinding(RA, [resetProbe, ...timed]).verdict).toBe('pass');
  });

  test('a refill request refused once Retry-After has elapsed still fails, whatever the other probes say', () => {
    const r = refusal('3');
    const agreeing = probe(served(5, 20), refused(10, '0'));
    expect(retryAfterTrueFinding(RA, [agreeing, probe(refused(3_200, '3'), r)]).verdict).toBe('fail');
  });

  test('a probe that met the limiter store down says nothing of the pool: not judged, by either check', () => {
    const storeDown = exchange(503, { at: 10_100, body: { error: { code: 'system.rate_limit_unavailable', category: 'transient', message: 'm', request_id: 'r' } } });
    expect(retryAfterTrueFinding(RA, [probe(storeDown, refusal())]).verdict).toBe('inconclusive');
    expect(resetRefillFinding(RESET, [probe(storeDown, refusal())]).verdict).toBe('inconclusive');
  });

  test('a probe after another was served is not "the next request": not judged', () => {
    expect(retryAfterTrueFinding(RA, [probe(refused(10_100, '1'), refusal(), false)]).verdict).toBe('inconclusive');
  });
});

describe('resetRefillFinding and the clock of the Date header', () => {
  test('the Reset instant is placed on the harness clock by the Date header', () => {
    const r = refusal('10', (T0 + 10_000) / 1000);
    expect(resetPassesAtMs(r)).toBe(T0 + 10_000 + 5);
    expect(retryAfterElapsesAtMs(r)).toBe(T0 + 5 + 10_000);
    // A target clock 30 s ahead says Reset 30 s later: same instant for the harness.
    const ahead = refused(0, '10', { headers: { 'x-ratelimit-reset': String((T0 + 40_000) / 1000), date: new Date(T0 + 30_000).toUTCString() } });
    expect(resetPassesAtMs(ahead)).toBe(T0 + 10_000 + 5);
  });

  test('the first request after Reset served: pass; refused: fail', () => {
    const r = refusal();
    expect(resetRefillFinding(RESET, [probe(served(5, 10_100), r)]).verdict).toBe('pass');
    const early = refusal('10', T0 / 1000);
    const f = resetRefillFinding(RESET, [probe(refused(200, '10'), early)]);
    expect(f.verdict).toBe('fail');
  });

  test('no request after the Reset instant: inconclusive', () => {
    expect(resetRefillFinding(RESET, [probe(refused(8_000, '2'), refusal())]).verdict).toBe('inconclusive');
  });
});

describe('the target\'s clock read off the whole run (lib/checks/server-clock.ts)', () => {
  // The target's clock is 300 ms behind the harness's. A 429 answered at T0 + 5 ms is dated
  // T0 - 1 s (its second had not turned yet), and says Reset R: by its own Date, R passes on the
  // harness clock 1,005 ms after R, where it really passes 300 ms after R.
  const R = (T0 + 10_000) / 1000;
  const dated = (at: number, date: number, status = 200): ReturnType<typeof exchange> => exchange(status, { at, headers: { date: new Date(date).toUTCString() } });
  const late = (): ReturnType<typeof refused> => refused(0, '10', { headers: { 'x-ratelimit-reset': String(R), date: new Date(T0 - 1000).toUTCString() } });
  // Sent just after the target's second turned (T0 + 300 ms on the harness clock), answered 5 ms later.
  const witness = (): ReturnType<typeof exchange> => dated(300, T0);

  test('an answer read just after the target\'s second turned places Reset within twice its round trip and the margin', () => {
    expect(resetPassesAtMs(late())).toBe(R * 1000 + 1005);
    // Its floor (305 ms behind), its round trip (5 ms) and the margin.
    expect(resetPassesAtMs(late(), witness())).toBe(R * 1000 + 305 + 5 + 100);
    // A witness that places the clock less tightly than the 429's own Date leaves the instant as it was.
    expect(resetPassesAtMs(late(), dated(900, T0 - 1000))).toBe(R * 1000 + 1005);
  });

  test('a refusal after the Reset the witness places fails; judged by the 429\'s Date alone, it was not judged', () => {
    const probeAt = 10_500;
    expect(resetRefillFinding(RESET, [probe(refused(probeAt, '10'), late())]).verdict).toBe('inconclusive');
    expect(resetRefillFinding(RESET, [probe(refused(probeAt, '10'), late())], witness()).verdict).toBe('fail');
    expect(resetRefillFinding(RESET, [probe(served(5, probeAt), late())], witness()).verdict).toBe('pass');
  });

  test('the witness is the answer that bounds the clock most tightly; Dates that disagree give none', () => {
    const clock = new ClockWitness();
    expect(clock.witness()).toBeUndefined();
    const loose = dated(900, T0);
    clock.note(loose);
    clock.note(exchange(200, { at: 950 }));
    expect(clock.witness()).toBe(loose);
    const tight = witness();
    clock.note(tight);
    clock.note(dated(1_200, T0));
    expect(clock.witness()).toBe(tight);
    // An answer sent at T0 + 2 s and dated T0 says the clock is at least 1 s behind; the witness
    // says at most 305 ms: two clocks, so neither is trusted to place an instant.
    clock.note(dated(2_000, T0));
    expect(clock.witness()).toBeUndefined();
  });
});
