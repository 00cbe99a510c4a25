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

/** Sends `requests`, `inFlight` at a time, and returns their exchanges in the order given. */
export async function sendAll(client: HttpClient, requests: readonly SendOptions[], inFlight: number): Promise<Exchange[]> {
  const out = new Array<Exchange>(requests.length);
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < requests.length) {
      const i = next++;
      out[i] = await client.send(requests[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(Math.max(1, inFlight), requests.length) }, lane));
  return out;
}
