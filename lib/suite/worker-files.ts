import { readFileSync, writeFileSync } from 'node:fs';

/**
 * Files the suites' worker leaves beside the run's transcript for the main process: the pacer's
 * figures, the mark that the target stopped answering, and what the run is waiting for (which
 * fault hooks are on: lib/hooks/fault-state.ts). A module of its own: the main process reads them
 * and must not load vitest's test runtime.
 */
export function pacerStatsFile(transcriptFile: string): string {
  return `${transcriptFile}.pacer.json`;
}

/** Written once, with the reason, when the client gives up on an unresponsive target. */
export function targetDownFile(transcriptFile: string): string {
  return `${transcriptFile}.down`;
}

export function waitsFile(transcriptFile: string): string {
  return `${transcriptFile}.waits.json`;
}

/** A wait the worker is in, for the main process's progress lines. */
export interface WaitNotice {
  id: number;
  /** What the run waits for, in words that follow "waiting for". */
  what: string;
  /** Unix ms at which the wait should be over. */
  untilMs: number;
  /** The suite file of the test that began the wait: its header goes above the line. */
  testFile?: string;
}

export function readWaits(transcriptFile: string): WaitNotice[] {
  try {
    return JSON.parse(readFileSync(waitsFile(transcriptFile), 'utf8')) as WaitNotice[];
  } catch {
    return [];
  }
}

/** Replaces the list of waits (a reader that meets it half written sees none, and looks again a second later). */
export function recordWaits(transcriptFile: string, waits: readonly WaitNotice[]): void {
  writeFileSync(waitsFile(transcriptFile), JSON.stringify(waits));
}
