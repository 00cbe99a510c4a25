import type { HttpClient, SendOptions } from '../http/client.ts';
import type { Exchange } from '../model/exchange.ts';

/**
 * Independent requests of one test (a route list, the inputs of a property, the exchange matrix's
 * rows) in flight at once at a nearby target: their round trips overlap instead of adding up, and
 * such a target is never sent more at once than a browser opens connections to one host.
 */
export const PROBES_IN_FLIGHT = 6;

/** A round trip up to this long is a nearby target's: PROBES_IN_FLIGHT side by side. */
export const NEAR_ROUND_TRIP_MS = 25;

/**
 * The most side by side at a far target. A longer round trip gets more lanes in proportion, so that
 * the run's independent requests go about as fast as a nearby target's six, up to this many: 200 ms
 * away, the matrix's 300 rows took 21 s six at a time.
 */
export const FAR_PROBES_IN_FLIGHT = 32;

/**
 * Requests side by side within the profile's pacing.max_in_flight: PROBES_IN_FLIGHT, more for a
 * round trip longer than NEAR_ROUND_TRIP_MS (up to FAR_PROBES_IN_FLIGHT).
 */
export function sideBySide(maxInFlight: number, roundTripMs = 0): number {
  const lanes = Math.min(FAR_PROBES_IN_FLIGHT, Math.max(PROBES_IN_FLIGHT, Math.ceil((PROBES_IN_FLIGHT * roundTripMs) / NEAR_ROUND_TRIP_MS)));
  return Math.max(1, Math.min(lanes, maxInFlight));
}

/** Round trips the target's floor is read from. */
const ROUND_TRIPS_KEPT = 32;

/**
 * The target's round trip as the run sees it: the shortest time to the headers among the last
 * ROUND_TRIPS_KEPT answers. Waiting only ever lengthens a round trip (a spend's hundreds in flight,
 * a loaded machine, a slow route), so the shortest is the nearest to the path's own; a target
 * whose answers vary widely counts as near, and keeps PROBES_IN_FLIGHT.
 */
export class RoundTripFloor {
  readonly #kept: number[] = [];
  #next = 0;

  note(exchange: Exchange): void {
    const ms = exchange.response === undefined ? undefined : (exchange.timings.headersMs ?? exchange.timings.totalMs);
    if (ms === undefined) return;
    this.#kept[this.#next] = ms;
    this.#next = (this.#next + 1) % ROUND_TRIPS_KEPT;
  }

  /** The shortest kept round trip, 0 before any answer. */
  ms(): number {
    return this.#kept.length === 0 ? 0 : Math.min(...this.#kept);
  }
}

/**
 * Runs the tasks it is given at most `inFlight` at once, each as soon as one before it has ended,
 * in the order given; each call answers with its own task's promise.
 */
export function inLanes(inFlight: number): <R>(task: () => Promise<R>) => Promise<R> {
  // A queue read from `head` on: a pool's spend queues thousands, and shifting an array that long
  // moves every entry each time.
  const waiting: Array<(() => void) | undefined> = [];
  let head = 0;
  let running = 0;
  const next = (): void => {
    running -= 1;
    const start = waiting[head];
    if (start === undefined) return;
    waiting[head] = undefined;
    head += 1;
    if (head === waiting.length) {
      waiting.length = 0;
      head = 0;
    }
    start();
  };
  return <R>(task: () => Promise<R>): Promise<R> =>
    new Promise<R>((resolve, reject) => {
      const start = (): void => {
        running += 1;
        // Through a promise: a task that throws before returning one still frees its lane.
        Promise.resolve().then(task).then(resolve, reject).finally(next);
      };
      if (running < Math.max(1, inFlight)) start();
      else waiting.push(start);
    });
}

/**
 * Sends `requests`, `inFlight` at a time, and returns their exchanges in the order given. Event
 * streams go one at a time among them: the client holds a stream to its caps, and a hostile
 * target's streams side by side would multiply what the run holds.
 */
export function sendAll(client: HttpClient, requests: readonly SendOptions[], inFlight: number): Promise<Exchange[]> {
  const lane = inLanes(inFlight);
  const streamLane = inLanes(1);
  return Promise.all(requests.map((request) => lane(() => (request.stream === true ? streamLane(() => client.send(request)) : client.send(request)))));
}
