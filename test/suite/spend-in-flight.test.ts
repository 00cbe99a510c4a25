import { describe, expect, test } from 'vitest';
import { DEFAULT_MAX_IN_FLIGHT, medianRoundTripMs, spendInFlight } from '../../lib/suite/spend-in-flight.ts';
import { served } from '../checks/rate-limit-fixtures.ts';

describe('spendInFlight', () => {
  const plan = { requests: 600, roundTripMs: 2, windowMs: 60_000, floor: 16, cap: DEFAULT_MAX_IN_FLIGHT };

  test('a nearby target: the floor, the spend is short anyway', () => {
    expect(spendInFlight(plan)).toBe(16);
  });

  test('600 reads or 63 writes at 150 ms in a 60 s window: more at once, so that the spend takes a few round trips', () => {
    expect(spendInFlight({ ...plan, roundTripMs: 150, cap: 1024 })).toBe(450);
    expect(spendInFlight({ ...plan, roundTripMs: 150 })).toBe(256);
    expect(spendInFlight({ ...plan, requests: 63, roundTripMs: 150, floor: 8 })).toBe(48);
    expect(spendInFlight({ ...plan, requests: 63, roundTripMs: 20, floor: 8 })).toBe(8);
  });

  test('a big pool far away in a short window: never above the cap, whichever cap the profile sets', () => {
    expect(spendInFlight({ ...plan, requests: 6000, roundTripMs: 200 })).toBe(DEFAULT_MAX_IN_FLIGHT);
    expect(spendInFlight({ ...plan, requests: 6000, roundTripMs: 200, cap: 64 })).toBe(64);
    expect(spendInFlight({ ...plan, requests: 6000, roundTripMs: 200, cap: 4 })).toBe(4);
    expect(spendInFlight({ ...plan, windowMs: 5_000, roundTripMs: 125 })).toBe(DEFAULT_MAX_IN_FLIGHT);
  });

  test('a cap below the floor wins', () => {
    expect(spendInFlight({ ...plan, cap: 2 })).toBe(2);
  });
});

describe('medianRoundTripMs', () => {
  test('the middle round trip of those answered; 1 ms when none was', () => {
    expect(medianRoundTripMs([served(5, 0, { ms: 90 }), served(4, 100, { ms: 250 }), served(3, 400, { ms: 110 })])).toBe(110);
    expect(medianRoundTripMs([served(5, 0, { ms: 100 }), served(4, 100, { ms: 200 })])).toBe(150);
    expect(medianRoundTripMs([])).toBe(1);
  });
});
