import { existsSync, linkSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { threadId } from 'node:worker_threads';
import { FAULT_NAMES, type FaultName } from '../profile/resolved-profile.ts';

/**
 * Files beside the run's transcript through which the suites' worker (a drill, lib/suite/fault-hooks.ts)
 * and the main process (an interrupted or cut-short run, lib/runner/run-control.ts) agree on which
 * fault is on and on who switches it off. Files, not memory: the two may be threads or processes.
 *
 * Exactly once: whoever runs a fault's disable command first claims it by creating its claim file
 * (a hard link, which fails when the name exists: one of two racing claims fails); the loser never runs it, and waits for the winner's
 * outcome when it needs it. The worker writes which fault it is switching on *before* it looks
 * for the stop mark, and the main process sets the mark *before* it reads that: so either the
 * worker sees the mark and enables nothing, or the main process sees the fault and switches it off.
 */

/**
 * Written by the worker only. `not-started`: it saw the stop mark and ran no enable command;
 * `off`: its own disable command switched the fault off.
 */
export interface FaultState {
  phase: 'enabling' | 'on' | 'off' | 'not-started';
  /** The enable command's process group, while it runs: an interrupt stops it before the disable. */
  pid?: number;
}

/** Who runs a fault's disable command, and once it has ended, how it went. */
export interface DisableClaim {
  by: 'drill' | 'interrupt';
  outcome?: { ok: boolean; text: string };
}

function stateFile(transcriptFile: string, name: FaultName): string {
  return `${transcriptFile}.fault-${name}.json`;
}

function claimFile(transcriptFile: string, name: FaultName): string {
  return `${transcriptFile}.fault-${name}.off`;
}

function stopFile(transcriptFile: string): string {
  return `${transcriptFile}.stopping`;
}

/** Every file this module may leave beside the transcript: the run removes them when it ends. */
export function faultWorkingFiles(transcriptFile: string): string[] {
  return [stopFile(transcriptFile), ...FAULT_NAMES.flatMap((n) => [stateFile(transcriptFile, n), claimFile(transcriptFile, n), `${stateFile(transcriptFile, n)}.tmp`, `${claimFile(transcriptFile, n)}.tmp`])];
}

/** Replaces a file whole: a reader in another thread never sees half of it. */
function writeWhole(file: string, data: unknown): void {
  writeFileSync(`${file}.tmp`, JSON.stringify(data));
  renameSync(`${file}.tmp`, file);
}

function readJson<T>(file: string): T | undefined {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as T;
  } catch {
    return undefined;
  }
}

export function writeFaultState(transcriptFile: string, name: FaultName, state: FaultState): void {
  writeWhole(stateFile(transcriptFile, name), state);
}

export function readFaultState(transcriptFile: string, name: FaultName): FaultState | undefined {
  return readJson<FaultState>(stateFile(transcriptFile, name));
}

/** A drill starting over forgets the fault's last round (its disable has ended: drills run one at a time). */
export function forgetFault(transcriptFile: string, name: FaultName): void {
  rmSync(stateFile(transcriptFile, name), { force: true });
  rmSync(claimFile(transcriptFile, name), { force: true });
}

/** True for the one caller that gets to run the fault's disable command. */
export function claimDisable(transcriptFile: string, name: FaultName, by: DisableClaim['by']): boolean {
  const file = claimFile(transcriptFile, name);
  // Written aside, then linked to its name: a reader never finds a claim without its content.
  const mine = `${file}.${process.pid}-${threadId}.tmp`;
  writeFileSync(mine, JSON.stringify({ by } satisfies DisableClaim));
  try {
    linkSync(mine, file);
    return true;
  } catch {
    return false;
  } finally {
    rmSync(mine, { force: true });
  }
}

/** The claim on a fault's disable, once made; without an outcome while the command runs. */
export function readClaim(transcriptFile: string, name: FaultName): DisableClaim | undefined {
  return readJson<DisableClaim>(claimFile(transcriptFile, name));
}

export function recordDisable(transcriptFile: string, name: FaultName, claim: Required<DisableClaim>): void {
  writeWhole(claimFile(transcriptFile, name), claim);
}

/** Set by the main process when the run stops early: from then on no drill switches a fault on. */
export function markStopping(transcriptFile: string): void {
  writeFileSync(stopFile(transcriptFile), '');
}

export function isStopping(transcriptFile: string): boolean {
  return existsSync(stopFile(transcriptFile));
}
