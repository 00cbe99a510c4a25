import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { suiteName } from './suite-files.ts';
import { compareSuites } from './suite-order.ts';

/** Vitest's sequencer for the suites: the order of SUITE_ORDER, then by name. */
export class SuiteSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    return [...files].sort((a, b) => compareSuites(suiteName(a.moduleId), suiteName(b.moduleId)));
  }
}
