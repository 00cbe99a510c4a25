import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { suiteName } from './suite-files.ts';

/**
 * The order suites run in, by name prefix. Rate-limit suites that exhaust a pool run first and
 * their recovery checks last, so that the minute a pool takes to heal overlaps every other suite.
 */
export const SUITE_ORDER = [
  'ratelimit-exhaust',
  'openapi',
  'unauthenticated',
  'auth',
  'errors',
  'ledger',
  'conversation',
  'ratelimit-',
  'ratelimit-recovery',
] as const;

export function suiteRank(name: string): number {
  let best = -1;
  let bestLength = -1;
  SUITE_ORDER.forEach((prefix, i) => {
    if (name.startsWith(prefix) && prefix.length > bestLength) {
      best = i;
      bestLength = prefix.length;
    }
  });
  return best === -1 ? SUITE_ORDER.length : best;
}

export class SuiteSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    return [...files].sort((a, b) => {
      const na = suiteName(a.moduleId);
      const nb = suiteName(b.moduleId);
      return suiteRank(na) - suiteRank(nb) || na.localeCompare(nb);
    });
  }
}
