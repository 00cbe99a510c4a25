import { existsSync, readFileSync } from 'node:fs';
import type { Vitest } from 'vitest/node';
import { claimDisable, markStopping, readClaim, readFaultState, recordDisable, type DisableClaim, type FaultState } from '../hooks/fault-state.ts';
import { HOOK_TIMEOUT_MS, hookOutcome, runDisableHook, stopHook } from '../hooks/hook-command.ts';
import { hookEnvironment } from '../hooks/hook-environment.ts';
import { FAULT_NAMES, type FaultHook, type FaultName, type ResolvedProfile } from '../profile/resolved-profile.ts';
import { targetDownFile } from '../suite/worker-files.ts';
import { causeText, Interrupts, type InterruptCause } from './interrupts.ts';

const SIGNALS = ['SIGINT', 'SIGTERM'] as const;
const POLL_MS = 200;
/** A drill writes its enable command's pid a few milliseconds after saying it starts one. */
const PID_WAIT_MS = 2_000;
/** A drill's own disable command, under way when the run stops, ends within its timeout. */
const DRILL_DISABLE_WAIT_MS = HOOK_TIMEOUT_MS + 5_000;

async function until<T>(look: () => T | undefined, ms: number): Promise<T | undefined> {
  const end = Date.now() + ms;
  for (;;) {
    const seen = look();
    if (seen !== undefined || Date.now() > end) return seen;
    await new Promise((r) => setTimeout(r, 20));
  }
}

/**
 * Ends a run early and cleanly. Two things do it: the target stops answering (the worker's client
 * leaves a mark, seen here within a fraction of a second), or an interrupt (lib/runner/interrupts.ts:
 * SIGINT, SIGTERM, or npm having ended). Either way no drill may switch a fault on any more, and
 * every fault the worker left on (or was switching on) is claimed by this process, whose disable
 * command then runs once (lib/hooks/fault-state.ts), so that a vendor's staging stack is never
 * left with a fault on. vitest is told to cancel, which ends the test under way, once the claims
 * are made: a drill's own disable command, under way when the run stops, runs in vitest's worker
 * and must end before the worker does; a fault claimed here no drill switches off any more.
 *
 * vitest installs its own SIGINT and SIGTERM listeners that exit the process a millisecond later;
 * they are taken out as soon as they are added (vitest's close() would remove them in any case).
 */
export class RunControl {
  readonly #transcriptFile: string;
  readonly #profile: ResolvedProfile;
  readonly #redact: (text: string) => string;
  readonly #say: (line: string) => void;
  readonly #interrupts: Interrupts;
  /** True when the run command gave no Interrupts: this run listens for signals itself. */
  readonly #ownInterrupts: boolean;
  #vitest: Vitest | undefined;
  #underway = false;
  #cancelled = false;
  #timer: NodeJS.Timeout | undefined;
  #stopListening: (() => void) | undefined;
  #restoring: Promise<void> = Promise.resolve();
  #stopping: Promise<void> | undefined;
  /** Why the run stopped early, once it has. */
  cutShort: string | undefined;
  interrupted: InterruptCause | undefined;

  /**
   * `redact` takes the run's secrets out of a hook's output: hooks inherit the environment, tokens
   * included, and what a disable printed is kept in a working file and shown.
   */
  constructor(transcriptFile: string, profile: ResolvedProfile, say: (line: string) => void, redact: (text: string) => string, interrupts?: Interrupts) {
    this.#transcriptFile = transcriptFile;
    this.#profile = profile;
    this.#redact = redact;
    this.#say = say;
    this.#interrupts = interrupts ?? new Interrupts(say);
    this.#ownInterrupts = interrupts === undefined;
  }

  /**
   * Listens before vitest starts, so that an interrupt during its start-up (or before) is not lost,
   * and keeps vitest's exit-at-once listeners out from the moment it adds them (a signal between
   * that and onInit would end the process with 130, faults on and no report).
   */
  start(): void {
    if (this.#ownInterrupts) this.#interrupts.listen();
    process.on('newListener', this.#onNewListener);
    this.#stopListening = this.#interrupts.onInterrupt((cause) => void this.#interrupt(cause));
    this.#timer = setInterval(() => this.#watchTarget(), POLL_MS);
  }

  /** vitest is running and can be cancelled. */
  attach(vitest: Vitest): void {
    this.#vitest = vitest;
  }

  /** Called before a listener is added: it is taken out again before any signal can reach it. */
  #onNewListener = (event: string | symbol, listener: (...args: unknown[]) => void): void => {
    if (!(SIGNALS as readonly (string | symbol)[]).includes(event) || this.#interrupts.owns(listener)) return;
    queueMicrotask(() => process.off(event, listener));
  };

  /**
   * A suite file is under way. vitest forgets a cancel that comes before its run has started (it
   * clears it as the run begins), so a run stopped during the preflight or vitest's start-up is
   * cancelled here, as its first file starts.
   */
  fileStarted(): void {
    this.#underway = true;
    if (this.#stopping !== undefined) void this.#stopping.then(() => this.#cancelVitest());
  }

  async stop(): Promise<void> {
    clearInterval(this.#timer);
    process.off('newListener', this.#onNewListener);
    // The run may have ended between two looks: a target that went down still cut it short.
    this.#watchTarget();
    this.#stopListening?.();
    if (this.#ownInterrupts) this.#interrupts.close();
    await this.#stopping;
    await this.#restoring;
  }

  #watchTarget(): void {
    const mark = targetDownFile(this.#transcriptFile);
    if (this.cutShort !== undefined || !existsSync(mark)) return;
    const why = readFileSync(mark, 'utf8').trim();
    void this.#stopEarly(`the target stopped answering (${why}); the run was cut short`);
  }

  #interrupt(cause: InterruptCause): Promise<void> {
    if (this.interrupted !== undefined) return Promise.resolve();
    this.interrupted = cause;
    this.#say(`${causeText(cause)}: stopping the run; fault hooks that are on get switched off first`);
    return this.#stopEarly(`interrupted by ${causeText(cause)}`);
  }

  #stopEarly(reason: string): Promise<void> {
    this.cutShort ??= reason;
    this.#stopping ??= (async () => {
      markStopping(this.#transcriptFile);
      await this.#queue(async () => {
        const mine = await this.#claimFaults();
        // Every fault that is on is now this process's to switch off, or switched off by its
        // drill: the worker has nothing left to finish, and the test under way can end now.
        this.#cancelVitest();
        await this.#switchOff(mine);
      });
    })();
    return this.#stopping;
  }

  /** Once: a second cancel makes vitest end its worker at once, whatever it is doing. */
  #cancelVitest(): void {
    if (this.#vitest === undefined || !this.#underway || this.#cancelled) return;
    this.#cancelled = true;
    void this.#vitest.cancelCurrentRun('keyboard-input');
  }

  /**
   * Switches off every fault the worker left on or was switching on, after stopping an enable
   * command still running, and says what it did. Called when a run stops early and at the end of
   * every run, where it normally finds every fault switched off by its drill. Calls queue up.
   */
  restoreFaults(): Promise<void> {
    return this.#queue(async () => this.#switchOff(await this.#claimFaults()));
  }

  #queue(work: () => Promise<void>): Promise<void> {
    this.#restoring = this.#restoring.then(work);
    return this.#restoring;
  }

  /**
   * Claims the disable of every fault that is on or being switched on. A fault whose drill has
   * claimed it first is its drill's: when the run stops early, its disable command, under way in
   * the worker, is waited for (the worker must not be ended before it) and its outcome said.
   */
  async #claimFaults(): Promise<Array<{ name: FaultName; hook: FaultHook; state: FaultState }>> {
    const t = this.#transcriptFile;
    const mine: Array<{ name: FaultName; hook: FaultHook; state: FaultState }> = [];
    for (const name of FAULT_NAMES) {
      const hook = this.#profile.faults[name];
      let state = readFaultState(t, name);
      if (hook === undefined || state === undefined) continue;
      if (state.phase === 'enabling' && state.pid === undefined) {
        state = await until<FaultState>(() => {
          const s = readFaultState(t, name);
          return s === undefined || s.phase !== 'enabling' || s.pid !== undefined ? s : undefined;
        }, PID_WAIT_MS) ?? state;
      }
      if (state.phase === 'not-started' || state.phase === 'off') continue;
      if (claimDisable(t, name, 'interrupt')) {
        mine.push({ name, hook, state });
        continue;
      }
      // Claimed: by an earlier pass of this process (nothing to add), or by the drill.
      if (this.cutShort === undefined) continue;
      const claim = await until<DisableClaim>(() => {
        const c = readClaim(t, name);
        return c?.outcome === undefined ? undefined : c;
      }, DRILL_DISABLE_WAIT_MS);
      if (claim?.by === 'interrupt') continue;
      if (claim?.outcome === undefined) this.#say(`faults.${name}.disable, run by its drill, has not ended within ${DRILL_DISABLE_WAIT_MS / 1000} s: check that the fault is off`);
      else if (claim.outcome.ok) this.#say(`fault ${name} was switched off by its drill (${claim.outcome.text})`);
      else this.#say(`could not switch fault ${name} off: ${claim.outcome.text}; switch it off by hand`);
    }
    return mine;
  }

  async #switchOff(claimed: Array<{ name: FaultName; hook: FaultHook; state: FaultState }>): Promise<void> {
    for (const { name, hook, state } of claimed) {
      if (state.phase === 'enabling') await stopHook(state.pid);
      const off = await runDisableHook(hook.disable, { env: hookEnvironment(this.#profile.baseUrl) });
      const text = `faults.${name}.disable ${this.#redact(hookOutcome(off))}`;
      recordDisable(this.#transcriptFile, name, { by: 'interrupt', outcome: { ok: off.exitCode === 0, text } });
      this.#say(off.exitCode === 0 ? `switched fault ${name} off (${text})` : `could not switch fault ${name} off: ${text}; switch it off by hand`);
    }
  }
}
