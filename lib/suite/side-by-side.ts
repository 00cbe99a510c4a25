import type { HttpClient, SendOptions } from '../http/client.ts';
import type { Exchange } from '../model/exchange.ts';

/**
 * Independent requests of one test (a route list, the inputs of a property) in flight at once: a
 * far target's round trips overlap instead of adding up, and a target is never sent more at once
 * than a browser opens connections to one host.
 */
export const PROBES_IN_FLIGHT = 6;

/** Requests side by side within the profile's pacing.max_in_flight. */
export function sideBySide(maxInFlight: number): number {
  return Math.max(1, Math.min(PROBES_IN_FLIGHT, maxInFlight));
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
