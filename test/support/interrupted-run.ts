import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Report } from '../../lib/report/report-model.ts';
import { BIN, ROOT } from './cli.ts';
import { referenceTarget, type ReferenceTarget } from './reference-target.ts';

/** The drill the interrupted runs stop: the first of conversation-faults, a few seconds in. */
export const FAULT = 'upstream_unavailable';
export const SUITE = 'conversation-faults';

/** What a run leaves in its folder, sorted: the reports and the bundle, no working file. */
export const RUN_FILES = ['bundle.tar.gz', 'junit.xml', 'report.html', 'report.json', 'summary.md', 'transcript.har'];

/** A reference, and a profile whose hooks for FAULT switch it as the reference's do and note each call. */
export interface Scene {
  target: ReferenceTarget;
  /** One line per hook call: `enable`, `disable`. */
  calls: string;
  out: string;
  /** The run's arguments after `run`. */
  args: string[];
}

export async function scene(options: { disableSeconds?: number; disableLeaksToken?: boolean } = {}): Promise<Scene> {
  const dir = mkdtempSync(join(tmpdir(), 'asi-interrupted-'));
  const calls = join(dir, 'calls.log');
  const out = join(dir, 'reports');
  // The disable takes a moment: a second signal or the drill's own disable arrive while it runs.
  const pause = options.disableSeconds ?? 1;
  const switchFault = (state: string): string => `asi-conformance fault ${FAULT} ${state} --base-url \\"\${BASE_URL}\\"`;
  // A careless hook: it prints the token it inherited and fails, after switching the fault off.
  const leak = options.disableLeaksToken === true ? ' && echo \\"token $ASI_TOKEN\\" >&2 && exit 1' : '';
  const target = await referenceTarget({}, (yaml) =>
    yaml
      .replace(new RegExp(`(${FAULT}:\\n\\s+enable: )".*"`), `$1"echo enable >> '${calls}' && ${switchFault('on')}"`)
      .replace(new RegExp(`(${FAULT}:\\n\\s+enable: .*\\n\\s+disable: )".*"`), `$1"echo disable >> '${calls}' && sleep ${pause} && ${switchFault('off')}${leak}"`),
  );
  writeFileSync(calls, '');
  return { target, calls, out, args: ['--config', target.profile, '--suite', SUITE, '-q', '--out', out] };
}

export interface Ended {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** Milliseconds from the first signal to the end of the process started. */
  afterSignalMs: number;
  /** Whether others of its process group (an orphaned harness) still ran when it ended. */
  groupOutlivedIt: boolean;
  stdout: string;
  stderr: string;
}

export interface Launched {
  child: ChildProcess;
  /**
   * Sends the signals, `gapMs` apart, to the process alone or to its whole process group; each
   * after the harness has said it got the ones before.
   */
  signal(signals: NodeJS.Signals[], to: 'process' | 'group', gapMs?: number): void;
  ended: Promise<Ended>;
}

/** Starts a command in a process group of its own (as a shell starts a job), output captured. */
export function launch(command: string, args: string[], options: { cwd: string; env: NodeJS.ProcessEnv }): Launched {
  const child = spawn(command, args, { cwd: options.cwd, env: options.env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  let signalledAt = 0;
  child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<Omit<Ended, 'stdout' | 'stderr'>>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal, afterSignalMs: Date.now() - signalledAt, groupOutlivedIt: groupAlive(child.pid!) })),
  );
  // An orphaned harness keeps the pipes open after its wrapper is gone: read on until they close.
  const closed = new Promise<void>((resolve) => child.on('close', () => resolve()));
  const ended = (async (): Promise<Ended> => {
    const exit = await exited;
    await closed;
    await groupEnded(child.pid!, 60_000);
    return { ...exit, stdout, stderr };
  })();
  return {
    child,
    ended,
    signal(signals, to, gapMs = 50) {
      signalledAt = Date.now();
      const pid = to === 'group' ? -child.pid! : child.pid!;
      void (async () => {
        for (const [i, s] of signals.entries()) {
          if (i > 0) {
            await new Promise((r) => setTimeout(r, gapMs));
            // Two signals of one kind pending at once are one to the kernel: on a loaded machine
            // the harness may not run for 50 ms. Each waits until the one before it was said.
            const before = signals.slice(0, i);
            const said = (): boolean => before.every((b) => stderr.split(b).length - 1 >= before.filter((x) => x === b).length);
            await until(said, 30_000, `the harness saying it got ${before.join(' and ')}`).catch(() => undefined);
          }
          try {
            process.kill(pid, s);
          } catch {
            // Ended already: what it said shows what it got.
          }
        }
      })();
    },
  };
}

/** Whether any process of the group is left, a zombie included. */
export function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Resolves when no process of the group is left (an orphaned harness included). */
export async function groupEnded(pgid: number, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (groupAlive(pgid)) {
    if (Date.now() > end) throw new Error(`process group ${pgid} still runs after ${ms} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

export async function until(condition: () => boolean, ms: number, what: string): Promise<void> {
  const end = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > end) throw new Error(`${what}: not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** What the run left: the hook calls, its report, and any working file not removed. */
export function aftermath(s: Scene): { calls: string[]; report: Report; runFiles: string[] } {
  const calls = readFileSync(s.calls, 'utf8').split('\n').filter((l) => l !== '');
  const runs = existsSync(s.out) ? readdirSync(s.out) : [];
  if (runs.length !== 1) throw new Error(`expected one run folder in ${s.out}, found ${runs.length}`);
  const dir = join(s.out, runs[0]!);
  const runFiles = readdirSync(dir, { withFileTypes: false }).map(String);
  const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as Report;
  return { calls, report, runFiles };
}

/** The environment of a user's shell: without the npm_* variables of the npm that runs these tests. */
export function userEnv(extra: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!/^npm_/i.test(k)) env[k] = v;
  return { ...env, ...extra };
}

/**
 * A project that depends on asi-conformance as npm would lay it out (node_modules/asi-conformance
 * and its bin link), linked to this checkout instead of installed: `npx asi-conformance` there runs
 * this build through npm exec and its /bin/sh, without a registry.
 */
export function linkedProject(): string {
  const project = mkdtempSync(join(tmpdir(), 'asi-npx-'));
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'ci-project', version: '1.0.0', private: true }));
  mkdirSync(join(project, 'node_modules', '.bin'), { recursive: true });
  symlinkSync(ROOT, join(project, 'node_modules', 'asi-conformance'));
  symlinkSync(join('..', 'asi-conformance', 'bin', 'asi-conformance.js'), join(project, 'node_modules', '.bin', 'asi-conformance'));
  return project;
}

export { BIN, ROOT };
