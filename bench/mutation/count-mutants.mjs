// Counts the mutants Stryker's instrumenter makes of some files, and which of them an ignorer
// leaves out, without building or running anything (seconds, not hours): for the report's
// "how many mutants the switch-only rule removes", and for its self-test.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
// Both come with @stryker-mutator/core (the same release), which calls them the same way.
import { createInstrumenter } from '@stryker-mutator/instrumenter';
import { createInjector } from 'typed-inject';

const quiet = { isDebugEnabled: () => false, isTraceEnabled: () => false, isInfoEnabled: () => false, debug() {}, trace() {}, info() {}, warn() {}, error() {}, fatal() {} };

/** Every mutant of the files (`{ name, content }`), each with its file, line and whether it is ignored. */
export async function instrumentedMutants(files, ignorers) {
  const injector = createInjector().provideValue('logger', quiet).provideValue('getLogger', () => quiet);
  const instrumenter = injector.injectFunction(createInstrumenter);
  const result = await instrumenter.instrument(
    files.map((f) => ({ ...f, mutate: true })),
    { plugins: null, excludedMutations: [], ignorers },
  );
  await injector.dispose();
  // The instrumenter's lines count from 0.
  return result.mutants.map((m) => ({ file: m.fileName, line: m.location.start.line + 1, ignored: m.status === 'Ignored', mutator: m.mutatorName }));
}

/** Mutants of the project's files in all, and how many the ignorers leave out. */
export async function countMutants(root, paths, ignorers) {
  const files = paths.map((name) => ({ name, content: readFileSync(join(root, name), 'utf8') }));
  const mutants = await instrumentedMutants(files, ignorers);
  return { total: mutants.length, ignored: mutants.filter((m) => m.ignored).length };
}
