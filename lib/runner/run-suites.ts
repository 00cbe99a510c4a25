import { startVitest, type Vitest } from 'vitest/node';
import { PACKAGE_ROOT } from '../package-root.ts';
import type { RunContext } from '../suite/run-context.ts';
import { readWaits } from '../suite/worker-files.ts';
import { FindingsCollector, type CollectedTest } from './findings-collector.ts';
import type { Interrupts } from './interrupts.ts';
import { ProgressReporter } from './progress-reporter.ts';
import { RunControl } from './run-control.ts';
import { SuiteSequencer } from './suite-order.ts';

export interface SuiteRunOptions {
  files: string[];
  failOn: 'must' | 'should';
  progress: (line: string) => void;
  /** Lines that print even with -q: an interrupt, and which fault hooks it switched off. */
  notice?: (line: string) => void;
  /** Interrupts the run command listens for from its start; RunControl listens itself without. */
  interrupts?: Interrupts;
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
  const control = new RunControl(context.transcriptFile, context.profile, options.notice ?? options.progress, options.interrupts);
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
    const vitest = await startVitest(
      'test',
      options.files,
      {
        config: false,
        root: PACKAGE_ROOT,
        dir: PACKAGE_ROOT,
        include: ['suites/**/*.test.ts'],
        watch: false,
        reporters: [attach, collector, progress],
        provide: { asi: context },
        fileParallelism: false,
        isolate: false,
        maxWorkers: 1,
        pool: 'threads',
        sequence: { sequencer: SuiteSequencer },
        passWithNoTests: true,
        // Transformed suites kept on disk across runs when asked (the self-tests run hundreds).
        ...(process.env['ASI_VITEST_CACHE_DIR'] === undefined ? {} : { experimental: { fsModuleCache: true, fsModuleCachePath: process.env['ASI_VITEST_CACHE_DIR'] } }),
      },
      { logLevel: 'silent', cacheDir: undefined },
    );
    await vitest.close();
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
