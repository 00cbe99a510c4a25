import type { Exchange } from '../model/exchange.ts';
import { headersAtMs, sentAtMs } from './pool-headers.ts';

/**
 * Margin added to an instant placed by the target's clock (with the witness's round trip): the
 * Date headers of one server may come from machines whose clocks differ by a few milliseconds.
 * Dates that disagree by more are seen as such (ClockWitness) once the run has answers from each
 * machine near the turn of a second.
 */
export const CLOCK_MARGIN_MS = 100;

/** The Date header of an answer, in Unix ms, or undefined when it has none that parses. */
function dateMs(exchange: Exchange): number | undefined {
  const date = exchange.response?.headers['date'];
  const ms = date === undefined ? Number.NaN : Date.parse(date);
  return Number.isNaN(ms) ? undefined : ms;
}

/**
 * A lower bound of the target's clock minus the harness's, from one answer's Date header: the
 * target read its clock between the send and the headers' arrival, and the header drops the
 * fraction of its second, so its clock stood at the Date or later while the harness's stood at the
 * headers' arrival or earlier. The answer read just after the target's clock turned a second gives
 * a bound within a round trip of the truth.
 */
export function clockFloorMs(witness: Exchange | undefined): number | undefined {
  const date = witness === undefined ? undefined : dateMs(witness);
  return witness === undefined || date === undefined ? undefined : date - headersAtMs(witness);
}

/**
 * The answer whose Date header bounds the target's clock most tightly from below (clockFloorMs),
 * among every answer noted; none when the Date headers disagree (one says the clock is surely
 * ahead by more than another says it can be: machines with different clocks, or a clock that
 * jumped), so that an instant is then placed by the answer that states it alone.
 */
export class ClockWitness {
  #best: Exchange | undefined;
  #floorMs = Number.NEGATIVE_INFINITY;
  #ceilingMs = Number.POSITIVE_INFINITY;

  note(exchange: Exchange): void {
    const date = dateMs(exchange);
    if (date === undefined) return;
    const floor = date - headersAtMs(exchange);
    // The clock stood under the Date's next second when the request was already sent.
    this.#ceilingMs = Math.min(this.#ceilingMs, date + 1000 - sentAtMs(exchange));
    if (floor > this.#floorMs) {
      this.#floorMs = floor;
      this.#best = exchange;
    }
  }

  witness(): Exchange | undefined {
    return this.#floorMs > this.#ceilingMs + CLOCK_MARGIN_MS ? undefined : this.#best;
  }
}
