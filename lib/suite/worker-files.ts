import { readFileSync, writeFileSync } from 'node:fs';
import type { FaultName } from '../profile/resolved-profile.ts';

/**
 * Files the suites' worker leaves beside the run's transcript for the main process: the pacer's
 * figures, the mark that the target stopped answering, which fault hooks are on, and what the run
 * is waiting for. A module of its own: the main process reads them and must not load vitest's
 * test runtime.
 */
export function pacerStatsFile(transcriptFile: string): string {
  return `${transcriptFile}.pacer.json`;
}

/** Written once, with the reason, when the client gives up on an unresponsive target. */
export function targetDownFile(transcriptFile: string): string {
  return `${transcriptFile}.down`;
}

export function faultStateFile(transcriptFile: string): string {
  return `${transcriptFile}.faults.json`;
}

/** A fault hook the worker has started: its enable command may be running (`pid`) or done. */
export interface FaultInFlight {
  phase: 'enabling' | 'on' | 'disabling';
  /** The hook's shell, while a command runs: an interrupted run stops it before switching the fault off. */
  pid?: number;
}

export type FaultState = Partial<Record<FaultName, FaultInFlight>>;

export function readFaultState(transcriptFile: string): FaultState {
  try {
    return JSON.parse(readFileSync(faultStateFile(transcriptFile), 'utf8')) as FaultState;
  } catch {
    return {};
  }
}

/** Records (or, with undefined, forgets) one fault's state; written synchronously so that a signal never finds it stale. */
export function recordFault(transcriptFile: string, name: FaultName, entry: FaultInFlight | undefined): void {
  const state = readFaultState(transcriptFile);
  if (entry === undefined) delete state[name];
  else state[name] = entry;
  writeFileSync(faultStateFile(transcriptFile), JSON.stringify(state));
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
