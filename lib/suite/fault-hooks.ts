import type { FaultName } from '../profile/resolved-profile.ts';
import { runHook } from '../runner/hook-command.ts';
import { faultsOn, session } from './session.ts';
import { recordFault } from './worker-files.ts';

export function hasFault(name: FaultName): boolean {
  return session().context.profile.faults[name] !== undefined;
}

/**
 * Runs `body` with a fault switched on through the profile's hook, and always switches it off
 * again. Throws when a hook command fails: the drill's results could not be trusted. Which fault
 * is on is written down as it changes, so that an interrupted run switches it off from the main
 * process (lib/runner/run-control.ts) even when this worker is gone.
 */
export async function withFault<T>(name: FaultName, body: () => Promise<T>): Promise<T> {
  const { context, client } = session();
  const hook = context.profile.faults[name];
  if (hook === undefined) throw new Error(`faults.${name} is not configured`);
  const transcript = context.transcriptFile;
  recordFault(transcript, name, { phase: 'enabling' });
  const on = await runHook(hook.enable, (pid) => recordFault(transcript, name, { phase: 'enabling', pid }));
  recordFault(transcript, name, { phase: 'on' });
  faultsOn.add(name);
  try {
    if (on.exitCode !== 0) throw new Error(`faults.${name}.enable exited ${on.exitCode}: ${client.redact(on.output)}`);
    return await body();
  } finally {
    const off = await runHook(hook.disable, (pid) => recordFault(transcript, name, { phase: 'disabling', pid }));
    if (off.exitCode === 0) {
      recordFault(transcript, name, undefined);
      faultsOn.delete(name);
    } else recordFault(transcript, name, { phase: 'on' });
    // A fault left on must fail the drill loudly, whatever the body did.
    if (off.exitCode !== 0) throw new Error(`faults.${name}.disable exited ${off.exitCode}: ${client.redact(off.output)}`);
  }
}
