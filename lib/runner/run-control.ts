import { existsSync, readFileSync } from 'node:fs';
import type { Vitest } from 'vitest/node';
import type { FaultName, ResolvedProfile } from '../profile/resolved-profile.ts';
import { readFaultState, recordFault, targetDownFile } from '../suite/worker-files.ts';
import { runHook, stopHook } from './hook-command.ts';

const SIGNALS = ['SIGINT', 'SIGTERM'] as const;
type RunSignal = (typeof SIGNALS)[number];
const POLL_MS = 200;

/**
 * Ends a run early and cleanly. Two things do it: the target stops answering (the worker's client
 * leaves a mark, seen here within a fraction of a second), or the user interrupts (SIGINT,
 * SIGTERM). Either way vitest is told to cancel, which ends the test under way at once; then every
 * fault hook the worker left on (or was switching on) gets its disable command, from this process,
 * so that a vendor's staging stack is never left with a fault on. A second signal exits at once,
 * after the disables that can still run.
 *
 * vitest installs its own SIGINT and SIGTERM listeners that exit the process a millisecond later;
 * they are taken out for the run (vitest's close() would remove them in any case).
 */
export class RunControl {
  readonly #transcriptFile: string;
  readonly #profile: ResolvedProfile;
  readonly #say: (line: string) => void;
  #vitest: Vitest | undefined;
  #timer: NodeJS.Timeout | undefined;
  #onSignal = (signal: RunSignal): void => void this.#interrupt(signal);
  #restoring: Promise<void> | undefined;
  /** Why the run stopped early, once it has. */
  cutShort: string | undefined;
  interrupted: RunSignal | undefined;

  constructor(transcriptFile: string, profile: ResolvedProfile, say: (line: string) => void) {
    this.#transcriptFile = transcriptFile;
    this.#profile = profile;
    this.#say = say;
  }

  /** Listens before vitest starts, so that a signal during its start-up is not lost. */
  start(): void {
    for (const s of SIGNALS) process.on(s, this.#onSignal);
    this.#timer = setInterval(() => this.#watchTarget(), POLL_MS);
  }

  /** vitest is running: take its exit-at-once signal listeners out for the run. */
  attach(vitest: Vitest): void {
    this.#vitest = vitest;
    for (const s of SIGNALS) {
      for (const l of process.listeners(s)) {
        if (l === this.#onSignal) continue;
        process.off(s, l as (...args: unknown[]) => void);
      }
    }
    if (this.cutShort !== undefined) void vitest.cancelCurrentRun('keyboard-input');
  }

  async stop(): Promise<void> {
    clearInterval(this.#timer);
    // The run may have ended between two looks: a target that went down still cut it short.
    this.#watchTarget();
    for (const s of SIGNALS) process.off(s, this.#onSignal);
    // vitest's own listeners are not put back: its close() takes them out, so they belong to no one now.
    await this.#restoring;
  }

  #watchTarget(): void {
    const mark = targetDownFile(this.#transcriptFile);
    if (this.cutShort !== undefined || !existsSync(mark)) return;
    const why = readFileSync(mark, 'utf8').trim();
    this.#cancel(`the target stopped answering (${why}); the run was cut short`);
  }

  #cancel(reason: string): void {
    this.cutShort ??= reason;
    void this.#vitest?.cancelCurrentRun('keyboard-input');
  }

  async #interrupt(signal: RunSignal): Promise<void> {
    if (this.interrupted !== undefined) {
      this.#say(`${signal} again: stopping now`);
      await this.#restoring;
      process.exit(3);
    }
    this.interrupted = signal;
    this.#say(`${signal}: stopping the run; fault hooks that are on get switched off first`);
    this.#cancel(`interrupted by ${signal}`);
    await this.restoreFaults();
  }

  /**
   * Runs the disable command of every fault the worker left on or was switching, after stopping
   * a hook command still running. Says what it did; called at the end of every run too, where it
   * normally finds nothing to do.
   */
  restoreFaults(): Promise<void> {
    this.#restoring = this.#restoring === undefined ? this.#disableAll() : this.#restoring.then(() => this.#disableAll());
    return this.#restoring;
  }

  async #disableAll(): Promise<void> {
    const state = readFaultState(this.#transcriptFile);
    for (const [name, entry] of Object.entries(state) as Array<[FaultName, NonNullable<(typeof state)[FaultName]>]>) {
      const hook = this.#profile.faults[name];
      if (hook === undefined) continue;
      stopHook(entry.pid);
      const off = await runHook(hook.disable);
      if (off.exitCode === 0) recordFault(this.#transcriptFile, name, undefined);
      this.#say(
        off.exitCode === 0
          ? `switched fault ${name} off (faults.${name}.disable exited 0)`
          : `could not switch fault ${name} off: faults.${name}.disable exited ${off.exitCode}; switch it off by hand`,
      );
    }
  }
}
