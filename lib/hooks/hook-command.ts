import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import type { Socket } from 'node:net';

export interface HookRun {
  command: string;
  /** Null when the command could not start, ran out of time or was stopped by a signal. */
  exitCode: number | null;
  /** The signal that ended it, when one did. */
  signal: NodeJS.Signals | null;
  /** The end of what it wrote to stderr, and to stdout (the last OUTPUT_CHARS characters of each). */
  stderr: string;
  stdout: string;
  /** Why it has no exit code, when the reason is the harness's: it could not start, or ran out of time. */
  problem?: string;
}

export interface HookOptions {
  /** The hook's whole environment (lib/hooks/hook-environment.ts); the harness's own when absent. */
  env?: NodeJS.ProcessEnv;
  /** Learns the pid (the id of the hook's process group) as soon as it exists. */
  onStart?: (pid: number) => void;
  timeoutMs?: number;
}

/** How long a hook command may take (docs/guide/profiles.md: "must exit 0 within 30 s"). */
export const HOOK_TIMEOUT_MS = 30_000;
/**
 * How long the output of a hook whose shell has exited is waited for. A process it started in the
 * background (a fault injector, `proxy &`) keeps the output open: the hook has ended all the same.
 */
const OUTPUT_AFTER_EXIT_MS = 500;
/** How long a stopped hook gets to end after SIGTERM before SIGKILL. */
const STOP_GRACE_MS = 3_000;
const OUTPUT_CHARS = 2000;

/** Keeps the end of a stream: a command's last words (its error) come last. */
function tailOf(): { add(chunk: Buffer): void; text(): string } {
  let text = '';
  let cut = false;
  return {
    add(chunk) {
      text += chunk.toString('utf8');
      if (text.length > OUTPUT_CHARS) {
        text = text.slice(-OUTPUT_CHARS);
        cut = true;
      }
    },
    text: () => (cut ? `…${text}` : text),
  };
}

/**
 * Runs a profile hook with /bin/sh, in a process group of its own so that a timeout (or an
 * interrupted run) stops the whole command, not only its shell. It ends when its shell exits: a
 * process it left running in the background is left alone, its output no longer read (and no
 * longer keeping the harness alive), but not cut, which would kill a writer with SIGPIPE. Never
 * throws: a command that cannot start or times out has a null exit code and says why.
 */
export function runHook(command: string, options: HookOptions = {}): Promise<HookRun> {
  const timeoutMs = options.timeoutMs ?? HOOK_TIMEOUT_MS;
  return new Promise((resolve) => {
    const stdout = tailOf();
    const stderr = tailOf();
    let problem: string | undefined;
    const child = spawn('/bin/sh', ['-c', command], { detached: true, stdio: ['ignore', 'pipe', 'pipe'], ...(options.env === undefined ? {} : { env: options.env }) });
    if (child.pid !== undefined) options.onStart?.(child.pid);
    child.stdout.on('data', stdout.add);
    child.stderr.on('data', stderr.add);
    const timer = setTimeout(() => {
      problem = `stopped after ${timeoutMs / 1000} s`;
      void stopHook(child.pid);
    }, timeoutMs);
    let afterExit: NodeJS.Timeout | undefined;
    let ended = false;
    const done = (exitCode: number | null, signal: NodeJS.Signals | null): void => {
      if (ended) return;
      ended = true;
      clearTimeout(timer);
      clearTimeout(afterExit);
      resolve({ command, exitCode, signal, stderr: stderr.text(), stdout: stdout.text(), ...(problem === undefined ? {} : { problem }) });
    };
    child.on('error', (err) => {
      problem = `could not start: ${err.message}`;
      done(null, null);
    });
    child.on('close', done);
    child.on('exit', (exitCode, signal) => {
      afterExit = setTimeout(() => {
        // A child's piped output is a net.Socket, which the typings give as a plain Readable.
        (child.stdout as Socket).unref();
        (child.stderr as Socket).unref();
        done(exitCode, signal);
      }, OUTPUT_AFTER_EXIT_MS);
    });
  });
}

/**
 * Runs a disable hook, and once more when a signal the harness never sends ended it. The harness
 * stops enable hooks only; a disable it leaves alone. But a Ctrl-C or a CI cancel signals the
 * harness's whole process group, and a hook forked a moment before (its setsid still to come,
 * every signal blocked across the fork) keeps that signal pending and dies of it before its
 * command starts: the fault would stay on. Switching a fault off twice is harmless; leaving it on is not.
 */
export async function runDisableHook(command: string, options: HookOptions = {}): Promise<HookRun> {
  const first = await runHook(command, options);
  if (first.signal === null || first.problem !== undefined) return first;
  return runHook(command, options);
}

/**
 * How a hook ended, in one line: its exit code, and when it failed the end of its stderr (its
 * stdout when stderr is empty), lines joined with ` | `. A failing `node` prints its real error
 * several lines down, after the loader's frame: the whole tail is shown, not its first line.
 */
export function hookOutcome(run: HookRun): string {
  const how = run.problem ?? (run.signal !== null ? `was stopped by ${run.signal}` : `exited ${run.exitCode}`);
  if (run.exitCode === 0) return how;
  const said = (run.stderr.trim() !== '' ? run.stderr : run.stdout)
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== '');
  if (said.length === 0) return `${how}, saying nothing`;
  return `${how}; ${run.stderr.trim() !== '' ? 'stderr' : 'stdout'}: ${said.join(' | ')}`;
}

/**
 * Whether a process of the group still runs. A zombie does not count: an exited shell whose
 * parent thread is gone (vitest ended its worker) is never reaped, and an orphan waits for init
 * to reap it. Read from /proc where there is one, from kill(0) elsewhere.
 */
function groupAlive(pgid: number): boolean {
  let entries: string[];
  try {
    entries = readdirSync('/proc').filter((e) => /^\d+$/.test(e));
  } catch {
    try {
      process.kill(-pgid, 0);
      return true;
    } catch {
      return false;
    }
  }
  return entries.some((e) => {
    try {
      const stat = readFileSync(`/proc/${e}/stat`, 'utf8');
      // pid (comm) state ppid pgrp ...: comm may hold spaces and parentheses, so read after the last ')'.
      const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      return Number(pgrp) === pgid && state !== 'Z';
    } catch {
      return false;
    }
  });
}

/**
 * Stops a hook's whole process group (it was started detached: its pid is the group's id) and
 * waits until the group is gone, so that nothing it was doing can land after what comes next
 * (an enable command stopped by an interrupt must not finish after the disable).
 */
export async function stopHook(pid: number | undefined): Promise<void> {
  if (pid === undefined || !groupAlive(pid)) return;
  try {
    process.kill(-pid, 'SIGTERM');
  } catch {
    return;
  }
  const end = Date.now() + STOP_GRACE_MS;
  while (groupAlive(pid)) {
    if (Date.now() > end) {
      try {
        process.kill(-pid, 'SIGKILL');
      } catch {
        // Gone meanwhile.
      }
      return;
    }
    await new Promise((r) => setTimeout(r, 20));
  }
}
