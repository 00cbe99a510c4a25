import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The longest files first, so that they overlap the many short ones instead of running last: the
 * ones that wait most (for windows to heal, for deadlines) lead, and the work of the others fills
 * their waits. Run last, the hostile targets alone kept two cores half idle for 40 s.
 */
const LONGEST_FIRST = [
  'test/e2e/calibration.test.ts',
  'test/e2e/certify-reference.test.ts',
  'test/e2e/back-to-back.test.ts',
  'test/e2e/hostile-target.test.ts',
  'test/e2e/verdicts.test.ts',
  'test/action/action-steps.test.ts',
];

class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (f: TestSpecification): number => {
      const i = LONGEST_FIRST.findIndex((name) => f.moduleId.endsWith(name));
      return i === -1 ? LONGEST_FIRST.length : i;
    };
    return [...(await super.sort(files))].sort((a, b) => rank(a) - rank(b));
  }
}

// Self-tests of the harness (test/). The conformance suites in suites/ are run only by the CLI,
// against a target, with their own configuration (lib/runner/run-suites.ts). The first files spend
// most of their time waiting on servers (windows healing), so four workers run files side by side
// even on two cores (vitest would take one there): the fourth fills those waits (400 s against 408
// s with three, at the same CPU).
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/support/temp-root.ts'],
    // Safety nets, far above the worst case measured under load: a test that runs the CLI four
    // times took more than 30 s beside two CPU burners. A hung CLI is stopped sooner by runCli's
    // own limit (test/support/cli.ts).
    testTimeout: 180_000,
    hookTimeout: 180_000,
    maxWorkers: 4,
    // A worker process runs many files: no test mocks modules, stubs globals or fakes timers, and
    // a fresh process per file cost more CPU than most of the files themselves.
    isolate: false,
    sequence: { sequencer: LongestFirst },
  },
});
