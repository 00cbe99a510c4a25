import { spawn } from 'node:child_process';

export interface HookRun {
  command: string;
  exitCode: number | null;
  output: string;
}

/** How long a hook command may take (README: "must exit 0 within 30 s"). */
export const HOOK_TIMEOUT_MS = 30_000;
const OUTPUT_CHARS = 2000;

/**
 * Runs a profile hook with /bin/sh, in a process group of its own so that a timeout (or an
 * interrupted run) stops the whole command, not only its shell. `onStart` learns the pid as soon
 * as it exists. Never throws: a command that cannot start or times out has a null exit code.
 */
export function runHook(command: string, onStart?: (pid: number) => void, timeoutMs = HOOK_TIMEOUT_MS): Promise<HookRun> {
  return new Promise((resolve) => {
    let output = '';
    const keep = (chunk: Buffer): void => {
      if (output.length < OUTPUT_CHARS) output = `${output}${chunk.toString('utf8')}`.slice(0, OUTPUT_CHARS);
    };
    const child = spawn('/bin/sh', ['-c', command], { detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    if (child.pid !== undefined) onStart?.(child.pid);
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    const timer = setTimeout(() => {
      output += `\n(stopped after ${timeoutMs / 1000} s)`;
      stopHook(child.pid);
    }, timeoutMs);
    child.on('error', (err) => {
      clearTimeout(timer);
      resolve({ command, exitCode: null, output: `${output}${err.message}` });
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ command, exitCode: code, output });
    });
  });
}

/** Stops a hook's whole process group (it was started detached: its pid is the group's id). */
export function stopHook(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, 'SIGTERM');
  } catch {
    // Already gone.
  }
}
