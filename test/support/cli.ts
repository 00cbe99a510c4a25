import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const BIN = fileURLToPath(new URL('../../bin/asi-conformance.js', import.meta.url));
export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/**
 * Node's flags for the CLI processes the self-tests start: V8's optimizing tiers up to Maglev, not
 * TurboFan (`--max-opt=2`; Node 20 leaves Maglev off, so it interprets and compiles baseline
 * code only). Most of these processes live a second or two, and TurboFan spent more CPU on them
 * than it saved (measured on 2 cores, two runs each: a run of the ledger suite 4.1 against 4.5 CPU
 * s, the certification-bundle and replay test files 59 against 63 CPU s). What the CLI does is the
 * same either way; a user's run keeps Node's defaults, and the bench measures those.
 */
export const CLI_NODE_FLAGS: readonly string[] = ['--max-opt=2'];

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
  /** Peak resident set size of the CLI process in KiB (Linux VmHWM, sampled), when it could be read. */
  peakRssKiB?: number;
}

/** The process's peak resident set so far (VmHWM, in KiB), or undefined off Linux or once it exited. */
function peakRss(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const m = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m === null ? undefined : Number(m[1]);
  } catch {
    return undefined;
  }
}

/** Runs the built CLI as a user would (`npm test` builds dist/ first), with a hard time limit. */
export function runCli(args: string[], options: { env?: NodeJS.ProcessEnv; timeoutMs?: number; cwd?: string; uid?: number; gid?: number } = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...CLI_NODE_FLAGS, BIN, ...args], {
      cwd: options.cwd ?? ROOT,
      env: { ...process.env, ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
      // Another user (a test run as root checks what an ordinary user may not write).
      ...(options.uid === undefined ? {} : { uid: options.uid }),
      ...(options.gid === undefined ? {} : { gid: options.gid }),
    });
    let stdout = '';
    let stderr = '';
    // VmHWM only grows: the last reading before the exit is the peak, give or take the last 50 ms.
    let peak: number | undefined;
    const sampler = setInterval(() => {
      peak = peakRss(child.pid) ?? peak;
    }, 50);
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => {
      clearInterval(sampler);
      child.kill('SIGKILL');
      reject(new Error(`asi-conformance ${args.join(' ')} did not finish within ${options.timeoutMs ?? 120_000} ms\n${stderr}`));
    }, options.timeoutMs ?? 120_000);
    child.on('exit', () => clearInterval(sampler));
    child.on('close', (code) => {
      clearTimeout(timer);
      clearInterval(sampler);
      resolve({ code, stdout, stderr, ...(peak === undefined ? {} : { peakRssKiB: peak }) });
    });
  });
}

/** Starts the built CLI and hands back the child, for tests that signal it while it runs. */
export function startCli(args: string[], options: { env?: NodeJS.ProcessEnv; cwd?: string } = {}): { child: ReturnType<typeof spawn>; done: Promise<CliResult> } {
  const child = spawn(process.execPath, [...CLI_NODE_FLAGS, BIN, ...args], { cwd: options.cwd ?? ROOT, env: { ...process.env, ...options.env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const done = new Promise<CliResult>((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
  return { child, done };
}
