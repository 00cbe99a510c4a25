import { startVitest } from 'vitest/node';
import { PACKAGE_ROOT } from '../package-root.ts';
import type { RunContext } from '../suite/run-context.ts';
import { FindingsCollector, type CollectedTest } from './findings-collector.ts';
import { ProgressReporter } from './progress-reporter.ts';
import { SuiteSequencer } from './suite-order.ts';

export interface SuiteRunOptions {
  files: string[];
  /** Only tests whose title starts with one of these requirement ids. */
  only?: string[];
  failOn: 'must' | 'should';
  progress: (line: string) => void;
}

export interface SuiteRunResult {
  tests: CollectedTest[];
  runErrors: string[];
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Runs the chosen suite files with vitest's Node API: one worker with isolation off, so every
 * suite shares one client and one budget service; files in the order of SUITE_ORDER; findings
 * gathered by a reporter from each test's meta. No vitest config file is read: a vendor's working
 * folder must not change how the harness runs.
 */
export async function runSuites(context: RunContext, options: SuiteRunOptions): Promise<SuiteRunResult> {
  const collector = new FindingsCollector();
  const progress = new ProgressReporter(options.progress, options.failOn);
  const only = options.only ?? [];
  const exitCodeBefore = process.exitCode;
  const vitest = await startVitest(
    'test',
    options.files,
    {
      config: false,
      root: PACKAGE_ROOT,
      dir: PACKAGE_ROOT,
      include: ['suites/**/*.test.ts'],
      watch: false,
      reporters: [collector, progress],
      provide: { asi: context },
      fileParallelism: false,
      isolate: false,
      maxWorkers: 1,
      pool: 'threads',
      sequence: { sequencer: SuiteSequencer },
      passWithNoTests: true,
      ...(only.length === 0 ? {} : { testNamePattern: new RegExp(`^(${only.map(escapeRegExp).join('|')}) `) }),
    },
    { logLevel: 'silent', cacheDir: undefined },
  );
  await vitest.close();
  // vitest sets a failing exit code of its own; the harness decides its exit code from verdicts.
  process.exitCode = exitCodeBefore;
  return { tests: collector.tests, runErrors: collector.runErrors };
}
