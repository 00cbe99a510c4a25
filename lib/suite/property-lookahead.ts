import fc from 'fast-check';
import { inLanes } from './side-by-side.ts';

/** What fast-check is given to draw a property's inputs: the same for the dry draw and the run. */
export interface DrawParameters<T> {
  seed: number;
  numRuns: number;
  examples?: Array<[T]>;
}

/**
 * The inputs a run of fast-check with these parameters feeds its predicate until a first failure,
 * in order: drawn by a run whose predicate holds for every input. Drawing depends only on the seed,
 * the run index and the examples, not on what the predicate did with earlier inputs, so the real
 * run draws the same (`fc.sample` does not: its bias differs from the tenth run on).
 */
export async function drawnInputs<T>(arbitrary: fc.Arbitrary<T>, parameters: DrawParameters<T>): Promise<T[]> {
  const inputs: T[] = [];
  await fc.check(
    fc.asyncProperty(arbitrary, async (input) => {
      inputs.push(input);
      return true;
    }),
    parameters,
  );
  return inputs;
}

type Settled<R> = { ok: true; value: R } | { ok: false; error: unknown };

/**
 * Probes drawn ahead of the run, `inFlight` at a time, so that a far target's round trips overlap
 * (their answers do not depend on each other: the property must say so). The run then takes the
 * result of each input in turn; once an input is not the one drawn (shrinking has begun, or
 * drawing differed), it probes live again.
 */
export class ProbedAhead<T, R extends object> {
  readonly #keys: string[];
  readonly #results: Array<Promise<Settled<R>>>;
  #next = 0;
  #live = false;

  constructor(inputs: readonly T[], probe: (input: T) => Promise<R>, inFlight: number) {
    this.#keys = inputs.map((input) => fc.stringify(input));
    const lane = inLanes(inFlight);
    // An input not yet started once the run probes live (a failure, or another input) is never sent.
    const skipped = Promise.reject(new Error('not probed: the run went on live'));
    skipped.catch(() => undefined);
    this.#results = inputs.map((input) =>
      lane(() => (this.#live ? skipped : probe(input))).then(
        (value): Settled<R> => ({ ok: true, value }),
        (error: unknown): Settled<R> => ({ ok: false, error }),
      ),
    );
  }

  /** The result probed ahead for the run's next input, or undefined: then probe it live. */
  async take(input: T): Promise<R | undefined> {
    if (this.#live || this.#next >= this.#keys.length || fc.stringify(input) !== this.#keys[this.#next]) {
      this.#live = true;
      return undefined;
    }
    const settled = await this.#results[this.#next++]!;
    if (!settled.ok) throw settled.error;
    return settled.value;
  }

  /** From now on every input is probed live (the run found a failure and shrinks it), and none ahead starts. */
  stop(): void {
    this.#live = true;
  }

  /** Every probe started ahead has settled, taken or not: no request of the property is left in flight. */
  async settled(): Promise<void> {
    await Promise.all(this.#results);
  }
}
