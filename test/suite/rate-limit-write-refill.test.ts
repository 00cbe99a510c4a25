import { describe, expect, test } from 'vitest';
import { firstRefillOf, type WriteRun } from '../../lib/suite/rate-limit-campaign.ts';
import { latestWriteRefusal, replayDueAtMs, replayIsNextAfter } from '../../lib/suite/rate-limit-probes.ts';
import { refused, served, T0 } from '../checks/rate-limit-fixtures.ts';

const WINDOW_MS = 10_000;

/**
 * A staged write spend in a 10 s window: four early POSTs in the first 300 ms, the staged pause,
 * the POST after the read spend at 2.9 s, a burst of five served and three refused at 3 s.
 * Only the fields the replay's timing reads are filled in (a whole WriteRun is a campaign's worth).
 */
function stagedWrite(): WriteRun {
  const early = [0, 100, 200, 300].map((at) => served(5, at));
  const afterReadSpent = served(5, 2_900);
  const burst = [...[0, 1, 2, 3, 4].map((i) => served(5, 3_000 + i)), ...[0, 1, 2].map(() => refused(3_010, '7'))];
  const posts = [afterReadSpent, ...burst];
  const partial = { early, charged: [...early, ...posts], refusal: burst[burst.length - 1], batch: { posts, rowsPerMessage: 1 } };
  return partial as unknown as WriteRun;
}

describe('the replay of refused POSTs after the write pool\'s first refill', () => {
  test('foreseen before the refill has gone: after its instant, once as many burst points as it replays are back', () => {
    const write = stagedWrite();
    const due = replayDueAtMs(write, WINDOW_MS, undefined);
    expect(due).toBeGreaterThanOrEqual(firstRefillOf(write, WINDOW_MS).atMs);
    // The refill takes the four early points; the replay's third POST waits for the burst's second.
    expect(due).toBe(T0 + 3_001 + 5 + WINDOW_MS + 100);
  });

  test('after the refill: timed against the refill\'s 429, the points it took not counted again', () => {
    const write = stagedWrite();
    const atMs = firstRefillOf(write, WINDOW_MS).atMs - T0;
    const refill = [...[0, 1, 2, 3].map((i) => served(3 - i, atMs + 10 * i)), refused(atMs + 40, '2')];
    expect(latestWriteRefusal(write, refill)).toBe(refill[4]);
    expect(replayIsNextAfter(refill[4]!, refill)).toBe(true);
    expect(replayDueAtMs(write, WINDOW_MS, refill)).toBe(T0 + atMs + 40 + 5 + 2_000 + 100);
  });

  test('a refill served all through leaves the campaign\'s 429 the one to time the replay against', () => {
    const write = stagedWrite();
    const refill = [served(3, 11_500)];
    expect(latestWriteRefusal(write, refill)).toBe(write.refusal);
    expect(latestWriteRefusal(write, [])).toBe(write.refusal);
    // Its served POSTs took points that 429 promised: the replay's first POST is not the next request after it.
    expect(replayIsNextAfter(write.refusal!, refill)).toBe(false);
    expect(replayIsNextAfter(write.refusal!, [])).toBe(true);
  });
});
