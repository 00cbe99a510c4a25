import { describe, expect, test } from 'vitest';
import { BackgroundWriteGate } from '../../lib/suite/background-write-gate.ts';

const CLEAR_MS = 12_000;

function deferred(): { promise: Promise<void>; resolve(): void } {
  let resolve = (): void => {};
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

/** Lets every pending promise reaction run. */
const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * The limiter drill counts the ledger before and after its fault; the write pool's first refill,
 * sent in the background, leaves rows. Under load the two met, and the drill read the refill's
 * rows as its own (a false fail of ratelimit/7/limiter-down-fail-closed). The gate keeps them apart.
 */
describe('the background write gate', () => {
  test('a write due while a count runs goes only once the count has ended', async () => {
    const gate = new BackgroundWriteGate(60_000);
    const events: string[] = [];
    gate.due(Date.now() + CLEAR_MS * 2);
    expect(gate.inTheWay(CLEAR_MS)).toBeUndefined();
    const count = deferred();
    const counting = gate.counting(async () => {
      events.push('count starts');
      await count.promise;
      events.push('count ends');
    });
    const writing = gate.write(async () => {
      events.push('write');
    });
    await settle();
    expect(events).toEqual(['count starts']);
    count.resolve();
    await Promise.all([counting, writing]);
    expect(events).toEqual(['count starts', 'count ends', 'write']);
  });

  test('a write going out, or due within the clearance, is in the way of a count until it is over', async () => {
    const gate = new BackgroundWriteGate(60_000);
    const atMs = Date.now() + 1_000;
    gate.due(atMs);
    const near = gate.inTheWay(CLEAR_MS);
    expect(near?.atMs).toBe(atMs);
    // Due far off it is not in the way, but once it is going out it is, however it was due.
    gate.due(Date.now() + CLEAR_MS * 2);
    expect(gate.inTheWay(CLEAR_MS)).toBeUndefined();
    const post = deferred();
    const writing = gate.write(() => post.promise);
    const going = gate.inTheWay(CLEAR_MS);
    expect(going).toBeDefined();
    let over = false;
    void going!.done.then(() => (over = true));
    await settle();
    expect(over).toBe(false);
    post.resolve();
    await writing;
    await settle();
    expect(over).toBe(true);
    expect(gate.inTheWay(CLEAR_MS)).toBeUndefined();
  });

  test('a write that failed before it went is over all the same', async () => {
    const gate = new BackgroundWriteGate(60_000);
    gate.due(Date.now());
    const waiting = gate.inTheWay(CLEAR_MS)!;
    gate.over();
    await waiting.done;
    expect(gate.inTheWay(CLEAR_MS)).toBeUndefined();
  });

  test('a count that never ends holds the write no longer than the bound', async () => {
    const gate = new BackgroundWriteGate(50);
    void gate.counting(() => new Promise<void>(() => {}));
    let wrote = false;
    await gate.write(async () => {
      wrote = true;
    });
    expect(wrote).toBe(true);
  });
});
