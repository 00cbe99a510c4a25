import type { Exchange } from '../model/exchange.ts';

/**
 * Requests in flight at most while a pool is spent on purpose, unless the profile says otherwise
 * (`pacing.max_in_flight`, up to MAX_IN_FLIGHT): the harness's own bound on how hard it pushes a
 * target. A pool at the spec's limits is spent with at most this many, so that such a server never
 * sees more at once than a busy client might send.
 */
export const DEFAULT_MAX_IN_FLIGHT = 256;

/** The most `pacing.max_in_flight` may be, and the most a big pool's default grows to. */
export const MAX_IN_FLIGHT = 1024;

/**
 * A bigger pool is spent in about this many round trips when the profile sets no cap: its default
 * grows with the pool. The run cannot end before a window has passed after the spend, so a big pool
 * far away (6,000 reads 200 ms away) spent 256 at a time adds seconds to the run (measured: about
 * 1,000 requests a second, against about 1,900 with 1,000 in flight).
 */
const ROUND_TRIPS_PER_POOL = 6;

/** `pacing.max_in_flight` when the profile does not set it: 256, or more for a pool that needs it. */
export function defaultMaxInFlight(limits: { read: number; write: number }): number {
  const biggest = Math.max(limits.read, limits.write);
  return Math.min(MAX_IN_FLIGHT, Math.max(DEFAULT_MAX_IN_FLIGHT, Math.ceil(biggest / ROUND_TRIPS_PER_POOL)));
}

/**
 * Share of the window a spend aims to take. Every point spent comes back a window later, so a
 * spend that takes a good part of the window gets points back before the pool runs out, and the
 * run cannot end before the window has healed after the spend: the shorter, the better. In
 * practice the cap decides as soon as the round trip is more than a few milliseconds.
 */
const SPEND_SHARE_OF_WINDOW = 1 / 300;

export interface SpendPlan {
  /** Requests the spend still has to send (what the pool says is left, and those beyond it). */
  requests: number;
  /** A round trip of one request of this pool, as measured. */
  roundTripMs: number;
  windowMs: number;
  /** Never fewer in flight than this (a nearby target: the spend is short anyway). */
  floor: number;
  /** Never more (the profile's `pacing.max_in_flight`). */
  cap: number;
}

/**
 * Requests to keep in flight so that spending `requests` at `roundTripMs` each takes a small share
 * of the window: a far target or a big pool gets more at once, within the cap.
 */
export function spendInFlight(plan: SpendPlan): number {
  const target = plan.windowMs * SPEND_SHARE_OF_WINDOW;
  const wanted = Math.ceil((plan.requests * plan.roundTripMs) / Math.max(1, target));
  return Math.max(1, Math.min(plan.cap, Math.max(plan.floor, wanted)));
}

/** The median round trip of requests answered one after another (a 0 ms answer counts as 1 ms). */
export function medianRoundTripMs(exchanges: readonly Exchange[]): number {
  const times = exchanges
    .filter((e) => e.response !== undefined)
    .map((e) => Math.max(1, e.timings.totalMs))
    .sort((a, b) => a - b);
  if (times.length === 0) return 1;
  const mid = Math.floor(times.length / 2);
  return times.length % 2 === 1 ? times[mid]! : (times[mid - 1]! + times[mid]!) / 2;
}
