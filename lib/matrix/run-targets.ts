import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PACKAGE_ROOT } from '../package-root.ts';
import type { Report } from '../report/report-model.ts';
import { consoleText } from '../report/console-text.ts';
import { REPORT_FILE_NAMES } from '../report/write-reports.ts';
import { durationText } from '../report/writers/run-facts.ts';
import { OUTCOME_WORDS, countsText } from './matrix-text.ts';
import type { PlannedTarget } from './matrix-plan.ts';

const SIGNALS = ['SIGINT', 'SIGTERM'] as const;
export type MatrixSignal = (typeof SIGNALS)[number];

const CLI = join(PACKAGE_ROOT, 'bin', 'asi-conformance.js');

/** The console log of a target's run, beside its run folder. */
export const RUN_LOG = 'run.log';

/** How one target's run went. */
export interface TargetRun {
  target: PlannedTarget;
  /** False when the matrix was interrupted before this target's turn. */
  started: boolean;
  /** The run's own folder (`<matrix>/<name>/<run-id>/`), when it wrote one with a report. */
  runDir?: string;
  exitCode?: number;
  /** Why the run wrote no report: the last line it printed on stderr, or how it ended. */
  error?: string;
}

export interface RunTargetsOptions {
  /** The matrix folder: each target runs with --out <matrix>/<name>. */
  dir: string;
  concurrency: number;
  /** Progress lines: one when a target starts, one when it ends. */
  say: (line: string) => void;
  env?: NodeJS.ProcessEnv;
}

/** The fields of a report.json the progress line reads; the matrix reads the verified bundle. */
type ReportGist = Pick<Report, 'outcome' | 'exitCode' | 'counts' | 'stopped'>;

function reportedRun(dir: string): { runDir: string; gist: ReportGist } | undefined {
  if (!existsSync(dir)) return undefined;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    const file = join(dir, entry.name, REPORT_FILE_NAMES.json);
    if (!existsSync(file)) continue;
    try {
      return { runDir: join(dir, entry.name), gist: JSON.parse(readFileSync(file, 'utf8')) as ReportGist };
    } catch {
      // A run killed while writing it: no report to read (its bundle, if any, is judged by verify).
      return undefined;
    }
  }
  return undefined;
}

/** The line a run that wrote no report ended on: its last line on stderr, without the tool's name. */
function lastLine(stderr: string): string | undefined {
  const lines = stderr.split('\n').map((l) => l.trim()).filter((l) => l !== '');
  return lines.at(-1)?.replace(/^asi-conformance: /, '');
}

/**
 * Runs each target as its own `asi-conformance run` process (its own profile, pacer, report and
 * bundle), at most `concurrency` at once, in the order given. Each child is the leader of its own
 * process group, so that a Ctrl-C reaches it once, from here: on SIGINT or SIGTERM no further
 * target starts and the signal is passed to every running child, which stops its suites, switches
 * its fault hooks off and writes its reports; then this waits for all of them. A second signal is
 * passed on too (a run says it and still finishes: faults off once, reports written).
 */
export async function runTargets(targets: readonly PlannedTarget[], options: RunTargetsOptions): Promise<{ runs: TargetRun[]; interrupted?: MatrixSignal }> {
  const runs: TargetRun[] = targets.map((target) => ({ target, started: false }));
  const running = new Set<ChildProcess>();
  const width = Math.max(...targets.map((t) => t.name.length));
  const say = (run: TargetRun, what: string): void => options.say(`  ${run.target.name.padEnd(width)}  ${what}`);
  let interrupted: MatrixSignal | undefined;
  let next = 0;
  let finish: () => void = () => {};
  const allDone = new Promise<void>((resolve) => (finish = resolve));

  const onSignal = (signal: MatrixSignal): void => {
    const first = interrupted === undefined;
    interrupted ??= signal;
    const waiting = runs.length - next;
    options.say(
      first
        ? `${signal}: passing it to ${running.size} running target${running.size === 1 ? '' : 's'} (each stops, switches its fault hooks off and writes its reports); ${waiting} not started`
        : `${signal} again: passing it on`,
    );
    for (const child of running) child.kill(signal);
  };

  const startNext = (): void => {
    while (interrupted === undefined && running.size < options.concurrency && next < runs.length) start(runs[next++]!);
    if (running.size === 0 && (next >= runs.length || interrupted !== undefined)) finish();
  };

  const start = (run: TargetRun): void => {
    const dir = join(options.dir, run.target.name);
    mkdirSync(dir, { recursive: true });
    const log = createWriteStream(join(dir, RUN_LOG));
    const began = Date.now();
    run.started = true;
    say(run, `started: ${run.target.what}${choicesText(run.target.args)}`);
    const child = spawn(process.execPath, [CLI, ...run.target.args, '--out', dir], {
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: options.env ?? process.env,
    });
    running.add(child);
    let stderr = '';
    child.stdout?.on('data', (d: Buffer) => log.write(d));
    child.stderr?.on('data', (d: Buffer) => {
      stderr += d.toString();
      log.write(d);
    });
    let ended = false;
    const end = (code: number | null, signal: NodeJS.Signals | null, failure?: string): void => {
      if (ended) return;
      ended = true;
      running.delete(child);
      log.end();
      if (code !== null) run.exitCode = code;
      const reported = reportedRun(dir);
      if (reported !== undefined) {
        run.runDir = reported.runDir;
        const g = reported.gist;
        // A run the preflight ended judged nothing: the line it ended on says more than its counts.
        const what = g.stopped?.at === 'preflight' ? consoleText(g.stopped.reason) : countsText(g.counts);
        say(run, `${OUTCOME_WORDS[g.outcome]}, exit ${g.exitCode}: ${what} in ${durationText(Date.now() - began)}`);
      } else {
        const how = failure ?? lastLine(stderr) ?? (signal !== null ? `ended by ${signal} before it wrote a report` : `exited ${code ?? '?'} without a report`);
        run.error = consoleText(how);
        say(run, `no report, ${code === null ? (signal ?? 'no exit code') : `exit ${code}`}: ${run.error}`);
      }
      startNext();
    };
    child.on('error', (err) => end(null, null, `could not start: ${err.message}`));
    child.on('close', (code, signal) => end(code, signal));
  };

  for (const s of SIGNALS) process.on(s, onSignal);
  try {
    startNext();
    await allDone;
  } finally {
    for (const s of SIGNALS) process.off(s, onSignal);
  }
  return { runs, ...(interrupted === undefined ? {} : { interrupted }) };
}

/** The run flags of a start line, as given (the profile or base_url is said before them). */
function choicesText(args: readonly string[]): string {
  const shown: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (['--suite', '--only', '--skip', '--fail-on', '--timeout', '--seed', '--expect'].includes(a)) shown.push(`${a} ${args[++i] ?? ''}`);
  }
  return shown.length === 0 ? '' : ` (${shown.join(' ')})`;
}
