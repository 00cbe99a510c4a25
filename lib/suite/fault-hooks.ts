import { claimDisable, forgetFault, isStopping, recordDisable, writeFaultState } from '../hooks/fault-state.ts';
import { hookOutcome, runDisableHook, runHook } from '../hooks/hook-command.ts';
import { hookEnvironment } from '../hooks/hook-environment.ts';
import type { FaultName } from '../profile/resolved-profile.ts';
import { faultsOn, session } from './session.ts';

/** A drill the stopping run leaves out: it reads as not run, like the tests the cancel leaves out. */
export class RunStopping extends Error {
  override name = 'RunStopping';
}

export function hasFault(name: FaultName): boolean {
  return session().context.profile.faults[name] !== undefined;
}

/**
 * Runs `body` with a fault switched on through the profile's hook, and switches it off again.
 * Throws when a hook command fails: the drill's results could not be trusted. Which fault is on
 * is written down as it changes (lib/hooks/fault-state.ts), so that a run that stops early
 * switches it off from the main process (lib/runner/run-control.ts), even while this worker is
 * still busy; the disable command runs once, here or there, never in both.
 */
export async function withFault<T>(name: FaultName, body: () => Promise<T>): Promise<T> {
  const { context, client } = session();
  const hook = context.profile.faults[name];
  if (hook === undefined) throw new Error(`faults.${name} is not configured`);
  const transcript = context.transcriptFile;
  const env = hookEnvironment(context.baseUrl);
  const stopping = new RunStopping(`the run is stopping: faults.${name} was not switched on`);
  if (isStopping(transcript)) throw stopping;
  forgetFault(transcript, name);
  writeFaultState(transcript, name, { phase: 'enabling' });
  if (isStopping(transcript)) {
    writeFaultState(transcript, name, { phase: 'not-started' });
    throw stopping;
  }
  const on = await runHook(hook.enable, { env, onStart: (pid) => writeFaultState(transcript, name, { phase: 'enabling', pid }) });
  writeFaultState(transcript, name, { phase: 'on' });
  faultsOn.add(name);
  let failure: Error | undefined;
  try {
    // First: an enable command the stopping run cut off did not fail on its own.
    if (isStopping(transcript)) throw new RunStopping(`the run is stopping: faults.${name} is switched off by the run`);
    if (on.exitCode !== 0) throw new Error(`faults.${name}.enable ${client.redact(hookOutcome(on))}`);
    return await body();
  } catch (err) {
    failure = err as Error;
    throw err;
  } finally {
    // Claimed already: the run is stopping and switches the fault off itself.
    if (claimDisable(transcript, name, 'drill')) {
      const off = await runDisableHook(hook.disable, { env });
      const text = `faults.${name}.disable ${client.redact(hookOutcome(off))}`;
      recordDisable(transcript, name, { by: 'drill', outcome: { ok: off.exitCode === 0, text } });
      // A fault left on must fail the drill loudly, whatever the body did; a failed enable still says so first.
      if (off.exitCode !== 0) throw new Error(failure === undefined ? text : `${failure.message}; then ${text}`);
      writeFaultState(transcript, name, { phase: 'off' });
      faultsOn.delete(name);
    }
  }
}
