import { expect } from 'vitest';
import { recordWaits, type WaitNotice } from './worker-files.ts';

const active = new Map<number, WaitNotice>();
let lastId = 0;

/**
 * Runs `work`, telling the main process meanwhile that the run waits for `what` until about
 * `untilMs`, so that a long wait prints progress lines (lib/runner/progress-reporter.ts) instead of
 * silence. Several waits may be announced at once.
 */
export async function waitingFor<T>(transcriptFile: string, what: string, untilMs: number, work: Promise<T>): Promise<T> {
  const id = ++lastId;
  const testFile = expect.getState().testPath;
  active.set(id, { id, what, untilMs, ...(testFile === undefined ? {} : { testFile }) });
  recordWaits(transcriptFile, [...active.values()]);
  try {
    return await work;
  } finally {
    active.delete(id);
    recordWaits(transcriptFile, [...active.values()]);
  }
}
