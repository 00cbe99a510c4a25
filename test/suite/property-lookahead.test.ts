import fc from 'fast-check';
import { expect, test } from 'vitest';
import { drawnInputs, ProbedAhead } from '../../lib/suite/property-lookahead.ts';

const ARBITRARY = fc.record({ n: fc.integer({ min: 0, max: 1000 }), text: fc.string(), tags: fc.array(fc.constantFrom('a', 'b', 'c')) });

test('the inputs drawn ahead are those the run feeds its predicate, examples first, past the runs where fast-check biases its draws', async () => {
  const parameters = { seed: 20261126, numRuns: 30, examples: [[{ n: 1, text: 'x', tags: [] }]] as Array<[{ n: number; text: string; tags: string[] }]> };
  const fed: string[] = [];
  await fc.check(
    fc.asyncProperty(ARBITRARY, async (input) => {
      fed.push(fc.stringify(input));
      return true;
    }),
    parameters,
  );
  const drawn = (await drawnInputs(ARBITRARY, parameters)).map((input) => fc.stringify(input));
  expect(drawn).toEqual(fed);
  expect(drawn).toHaveLength(30);
});

/** A probe that answers after a tick and counts how many it is running at once. */
function countingProbe(): { probe: (n: number) => Promise<{ n: number }>; most: () => number; calls: number[] } {
  let running = 0;
  let most = 0;
  const calls: number[] = [];
  const probe = async (n: number): Promise<{ n: number }> => {
    calls.push(n);
    running += 1;
    most = Math.max(most, running);
    await new Promise((r) => setTimeout(r, 5));
    running -= 1;
    return { n };
  };
  return { probe, most: () => most, calls };
}

test('inputs are probed side by side, never more at once than asked, and taken in the order drawn', async () => {
  const { probe, most, calls } = countingProbe();
  const ahead = new ProbedAhead([1, 2, 3, 4, 5, 6, 7], probe, 3);
  for (const n of [1, 2, 3, 4, 5, 6, 7]) expect(await ahead.take(n)).toEqual({ n });
  expect(most()).toBe(3);
  expect(calls).toEqual([1, 2, 3, 4, 5, 6, 7]);
});

test('an input other than the one drawn next is probed live, and so is every input after it', async () => {
  const { probe } = countingProbe();
  const ahead = new ProbedAhead([1, 2, 3], probe, 2);
  expect(await ahead.take(1)).toEqual({ n: 1 });
  expect(await ahead.take(9)).toBeUndefined();
  expect(await ahead.take(2)).toBeUndefined();
  await ahead.settled();
});

test('after stop, nothing more is taken from the probes ahead; settled waits for those started', async () => {
  const { probe, calls } = countingProbe();
  const ahead = new ProbedAhead([1, 2, 3, 4], probe, 2);
  expect(await ahead.take(1)).toEqual({ n: 1 });
  ahead.stop();
  expect(await ahead.take(2)).toBeUndefined();
  await ahead.settled();
  expect(calls).toEqual([1, 2, 3]);
});

test('a probe that threw throws when its input is taken, and the others still settle', async () => {
  const boom = new Error('probe broke');
  const ahead = new ProbedAhead([1, 2], async (n: number) => (n === 1 ? Promise.reject(boom) : { n }), 2);
  await expect(ahead.take(1)).rejects.toBe(boom);
  await ahead.settled();
});

test('after stop, an input not yet started is never probed', async () => {
  const { probe, calls } = countingProbe();
  const ahead = new ProbedAhead([1, 2, 3, 4, 5], probe, 1);
  expect(await ahead.take(1)).toEqual({ n: 1 });
  ahead.stop();
  await ahead.settled();
  expect(calls.length).toBeLessThanOrEqual(2);
});
