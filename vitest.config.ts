import { defineConfig } from 'vitest/config';

// Self-tests of the harness (test/). The conformance suites in suites/ are run only by the CLI,
// against a target, with their own configuration (lib/runner/run-suites.ts).
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
