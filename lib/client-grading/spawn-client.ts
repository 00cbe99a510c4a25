import { spawn } from 'node:child_process';

export interface ClientExit {
  /** The command's exit code, or null when a signal ended it. */
  code: number | null;
  signal: NodeJS.Signals | null;
  timedOut: boolean;
  /** Why the command could not start (ENOENT, EACCES), when it could not. */
  startError?: string;
}

/**
 * Runs the user's client command in its own process group with stdio inherited; past the time
 * limit the whole group gets SIGTERM, then SIGKILL a second later.
 */
export function spawnClient(command: readonly string[], env: NodeJS.ProcessEnv, timeLimitMs: number): Promise<ClientExit> {
  return new Promise((resolve) => {
    const [file, ...args] = command;
    const child = spawn(file!, args, { env, stdio: 'inherit', detached: true });
    let timedOut = false;
    let killer: NodeJS.Timeout | undefined;
    const signalGroup = (signal: NodeJS.Signals): void => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, signal);
      } catch {
        // The group is already gone.
      }
    };
    const limit = setTimeout(() => {
      timedOut = true;
      signalGroup('SIGTERM');
      killer = setTimeout(() => signalGroup('SIGKILL'), 1_000);
    }, timeLimitMs);
    child.once('error', (err: NodeJS.ErrnoException) => {
      clearTimeout(limit);
      resolve({ code: null, signal: null, timedOut: false, startError: `${err.code ?? 'error'}: ${file}` });
    });
    child.once('exit', (code, signal) => {
      clearTimeout(limit);
      if (killer !== undefined) clearTimeout(killer);
      // Whatever the command left running in its group goes with it.
      signalGroup('SIGKILL');
      resolve({ code, signal, timedOut });
    });
  });
}
