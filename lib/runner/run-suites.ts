import { join } from 'node:path';
import type { createVitest, Reporter, TestSpecification, Vitest } from 'vitest/node';
import { Redactor } from '../http/redactor.ts';
import { transportSecrets } from '../http/transport.ts';
import { PACKAGE_ROOT } from '../package-root.ts';
import type { RunContext } from '../suite/run-context.ts';
import { readWaits } from '../suite/worker-files.ts';
import { FindingsCollector, type CollectedTest } from './findings-collector.ts';
import type { KeptThread } from './kept-thread.ts';
import type { Interrupts } from './interrupts.ts';
import { ProgressReporter } from './progress-reporter.ts';
import { RunControl } from './run-control.ts';
import { compareSuites } from './suite-order.ts';
import { suiteName } from './suite-files.ts';
import { suiteModuleCache } from './suite-module-cache.ts';

export interface SuiteRunOptions {
  files: string[];
  failOn: 'must' | 'should';
  progress: (line: string) => void;
  /** Lines that print even with -q: an interrupt, and which fault hooks it switched off. */
  notice?: (line: string) => void;
  /** Interrupts the run command listens for from its start; RunControl listens itself without. */
  interrupts?: Interrupts;
  /** A vitest instance kept for many runs (calibration); a run of its own otherwise. */
  shared?: SharedSuiteRunner;
}

type VitestOptions = Parameters<typeof createVitest>[1];
type Sequencer = NonNullable<NonNullable<VitestOptions>['sequence']>['sequencer'];

/**
 * Vitest and the suites' sequencer, loaded when suites are about to run: a command that ends
 * before (a usage error, verify, list) does not pay for loading them.
 */
async function loadVitest(): Promise<{ node: typeof import('vitest/node'); options: (reporters: Reporter[], context: RunContext, kept?: KeptThread) => VitestOptions }> {
  const [node, { SuiteSequencer }] = await Promise.all([import('vitest/node'), import('./suite-sequencer.ts')]);
  return { node, options: (reporters, context, kept) => vitestOptions(reporters, context, SuiteSequencer, kept) };
}

/** What a run of the suites is given to vitest: no config file, one worker, isolation off, the suite order, the module cache, the worker's heap growth. */
function vitestOptions(reporters: Reporter[], context: RunContext, sequencer: Sequencer, kept?: KeptThread): VitestOptions {
  const cache = suiteModuleCache();
  return {
    config: false,
    root: PACKAGE_ROOT,
    dir: PACKAGE_ROOT,
    include: ['suites/**/*.test.ts'],
    watch: false,
    reporters,
    provide: { asi: context },
    fileParallelism: false,
    isolate: false,
    maxWorkers: 1,
    pool: kept === undefined ? 'threads' : kept.pool,
    sequence: { sequencer },
    passWithNoTests: true,
    setupFiles: kept === undefined ? [WORKER_HEAP_BUILT] : [WORKER_HEAP, RUN_MODULES],
    ...(cache === undefined ? {} : { experimental: cache }),
    ...(kept === undefined ? BUILT_LIB : {}),
  };
}

/** Run in the worker before each suite file: how its heap grows (lib/suite/worker-heap.ts). */
const WORKER_HEAP = join(PACKAGE_ROOT, 'lib', 'suite', 'worker-heap.ts');
/** Run in a kept thread before each suite file: fresh modules for each run (lib/suite/run-modules.ts). */
const RUN_MODULES = join(PACKAGE_ROOT, 'lib', 'suite', 'run-modules.ts');

const DIST = join(PACKAGE_ROOT, 'dist');
/** WORKER_HEAP as built: in a run of its own, the worker loads lib/ from dist/ (BUILT_LIB). */
const WORKER_HEAP_BUILT = join(DIST, 'suite', 'worker-heap.js');

/**
 * In a run of its own, the suites' imports of lib/ load its build in dist/ (the CLI's own, made
 * by `npm run build`) with Node's module loader, as the CLI's main thread does. Through vite's
 * module runner the worker asked the main thread for each module in turn, one import after
 * another: its start took 0.7 s to the first request, 0.3 s this way, and a little CPU less. A
 * kept thread (calibration) goes on loading lib/ through the runner, the only loader that
 * evaluates modules afresh for every run (lib/suite/run-modules.ts); the suites' own files go
 * through it in both.
 */
const BUILT_LIB = {
  alias: [{ find: /^(?:\.\.\/)+lib\/(.*)\.ts$/, replacement: `${DIST}/$1.js` }],
  server: { deps: { external: [new RegExp(`^${DIST.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/`)] } },
};

const VITE_OPTIONS = { logLevel: 'silent' as const, cacheDir: undefined };

/** Hands every event of a vitest instance kept for many runs to the reporters of the run under way. */
class RelayReporter implements Reporter {
  to: Reporter[] = [];
  onTestRunStart(...args: Parameters<NonNullable<Reporter['onTestRunStart']>>): void {
    for (const r of this.to) void r.onTestRunStart?.(...args);
  }
  onTestModuleQueued(...args: Parameters<NonNullable<Reporter['onTestModuleQueued']>>): void {
    for (const r of this.to) void r.onTestModuleQueued?.(...args);
  }
  onTestCaseReady(...args: Parameters<NonNullable<Reporter['onTestCaseReady']>>): void {
    for (const r of this.to) void r.onTestCaseReady?.(...args);
  }
  onTestCaseResult(...args: Parameters<NonNullable<Reporter['onTestCaseResult']>>): void {
    for (const r of this.to) void r.onTestCaseResult?.(...args);
  }
  onTestRunEnd(...args: Parameters<NonNullable<Reporter['onTestRunEnd']>>): void {
    for (const r of this.to) void r.onTestRunEnd?.(...args);
  }
}

/**
 * One vitest instance for many runs in one process (calibration runs hundreds): each run provides
 * its own context and has its own reporters; the instance, its transformed suites and its worker
 * thread are made once (lib/runner/kept-thread.ts). The worker's modules are evaluated afresh for
 * every run, as in a run of its own.
 */
export class SharedSuiteRunner {
  readonly #relay = new RelayReporter();
  #thread: KeptThread | undefined;
  #vitest: Promise<Vitest> | undefined;

  async run(context: RunContext, files: readonly string[], reporters: Reporter[], onVitest: (vitest: Vitest) => void): Promise<void> {
    this.#vitest ??= Promise.all([loadVitest(), import('./kept-thread.ts')]).then(([{ node, options }, { KeptThread }]) => {
      this.#thread = new KeptThread();
      return node.createVitest('test', options([this.#relay], context, this.#thread), VITE_OPTIONS);
    });
    const vitest = await this.#vitest;
    vitest.provide('asi', context);
    this.#relay.to = reporters;
    onVitest(vitest);
    const project = vitest.getRootProject();
    const ordered = [...files].sort((a, b) => compareSuites(suiteName(a), suiteName(b)));
    const specs: TestSpecification[] = ordered.map((f) => project.createSpecification(f));
    try {
      await vitest.runTestSpecifications(specs, true);
    } finally {
      this.#relay.to = [];
    }
  }

  async close(): Promise<void> {
    try {
      if (this.#vitest !== undefined) await (await this.#vitest).close();
    } finally {
      await this.#thread?.close();
    }
  }
}

export interface SuiteRunResult {
  tests: CollectedTest[];
  runErrors: string[];
  /** Why the run stopped before its end (target down, interrupted), when it did. */
  cutShort?: string;
}

/**
 * Runs the chosen suite files with vitest's Node API: one worker with isolation off, so every
 * suite shares one client and one budget service; files in the order of SUITE_ORDER; findings
 * gathered by a reporter from each test's meta. No vitest config file is read: a vendor's working
 * folder must not change how the harness runs.
 */
export async function runSuites(context: RunContext, options: SuiteRunOptions): Promise<SuiteRunResult> {
  const collector = new FindingsCollector();
  const redactor = new Redactor([...Object.values(context.tokens), ...transportSecrets(context.transport)]);
  const control = new RunControl(context.transcriptFile, context.profile, options.notice ?? options.progress, (text) => redactor.redact(text), options.interrupts);
  const cancelNote = (): string | undefined => (control.cutShort === undefined ? undefined : `not run: ${control.cutShort}`);
  const progress = new ProgressReporter(options.progress, options.failOn, { waits: () => readWaits(context.transcriptFile) }, cancelNote);
  const exitCodeBefore = process.exitCode;
  // Handed the vitest instance as soon as it exists, so that a run can be cancelled while it goes;
  // tests a cancel leaves out say why (it runs before the collector).
  const attach = {
    onInit: (vitest: Vitest): void => control.attach(vitest),
    onTestModuleQueued: (): void => control.fileStarted(),
    onTestCaseResult: (): void => {
      collector.cancelNote = cancelNote();
    },
  };
  control.start();
  try {
    if (options.shared !== undefined) {
      await options.shared.run(context, options.files, [attach, collector, progress], (vitest) => control.attach(vitest));
    } else {
      const { node, options: vitestOptionsOf } = await loadVitest();
      const vitest = await node.startVitest('test', options.files, vitestOptionsOf([attach, collector, progress], context), VITE_OPTIONS);
      await vitest.close();
    }
  } finally {
    await control.stop();
    await control.restoreFaults();
    // vitest sets a failing exit code of its own; the harness decides its exit code from verdicts.
    process.exitCode = exitCodeBefore;
  }
  const result: SuiteRunResult = { tests: collector.tests, runErrors: collector.runErrors };
  if (control.cutShort !== undefined) result.cutShort = control.cutShort;
  return result;
}
