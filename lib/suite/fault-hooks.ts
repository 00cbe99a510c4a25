import { execFile } from 'node:child_process';
import type { FaultName } from '../profile/resolved-profile.ts';
import { session } from './session.ts';

export interface HookRun {
  command: string;
  exitCode: number | null;
  output: string;
}

const HOOK_TIMEOUT_MS = 30_000;

function runHook(command: string): Promise<HookRun> {
  return new Promise((resolve) => {
    execFile('/bin/sh', ['-c', command], { timeout: HOOK_TIMEOUT_MS, maxBuffer: 64 * 1024 }, (err, stdout, stderr) => {
      const code = err === null ? 0 : typeof (err as { code?: unknown }).code === 'number' ? ((err as { code: number }).code) : null;
      resolve({ command, exitCode: code, output: `${stdout}${stderr}`.slice(0, 2000) });
    });
  });
}

export function hasFault(name: FaultName): boolean {
  return session().context.profile.faults[name] !== undefined;
}

/**
 * Runs `body` with a fault switched on through the profile's hook, and always switches it off
 * again. Throws when a hook command fails: the drill's results could not be trusted.
 */
export async function withFault<T>(name: FaultName, body: () => Promise<T>): Promise<T> {
  const hook = session().context.profile.faults[name];
  if (hook === undefined) throw new Error(`faults.${name} is not configured`);
  const on = await runHook(hook.enable);
  if (on.exitCode !== 0) throw new Error(`faults.${name}.enable exited ${on.exitCode}: ${session().client.redact(on.output)}`);
  try {
    return await body();
  } finally {
    const off = await runHook(hook.disable);
    if (off.exitCode !== 0) throw new Error(`faults.${name}.disable exited ${off.exitCode}: ${session().client.redact(off.output)}`);
  }
}
