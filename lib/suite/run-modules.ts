import { inject, vi } from 'vitest';

/** The run whose modules the worker holds, across the runs of a kept thread. */
const RUN_KEY = Symbol.for('asi-conformance.run-modules');
type Holder = { [RUN_KEY]?: string };

/**
 * Set up in the suites' worker before each file when one thread serves many runs
 * (lib/runner/kept-thread.ts). Within a run every suite shares the modules it imports (one
 * client, one budget service, the rate-limit campaign's state); a new run must start from none of
 * them, as in a thread of its own. The transcript file names the run: at the first file of
 * another run, vitest's module cache is cleared and everything the suites import is evaluated again.
 */
const run = inject('asi').transcriptFile;
const holder = globalThis as Holder;
if (holder[RUN_KEY] !== undefined && holder[RUN_KEY] !== run) vi.resetModules();
holder[RUN_KEY] = run;
