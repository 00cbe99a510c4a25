import type { Coverage } from '../coverage/coverage.ts';
import { plural } from '../model/words.ts';
import type { Report } from './report-model.ts';

/**
 * Puts the run's coverage in its report; with --fail-on coverage, a pair the profile allows that
 * the record did not reach keeps an otherwise green run from passing: incomplete (exit 3), the
 * pairs counted among the reasons. A run that failed or is incomplete already keeps its outcome.
 */
export function gateCoverage(report: Report, coverage: Coverage, gate: boolean): void {
  report.coverage = coverage;
  if (!gate) return;
  report.meta.failOnCoverage = true;
  const missing = coverage.uncovered.length;
  const triples = coverage.triples?.uncovered.length ?? 0;
  if (missing === 0 && triples === 0) return;
  const what = [...(missing === 0 ? [] : [plural(missing, 'pair')]), ...(triples === 0 ? [] : [plural(triples, 'driven triple')])].join(' and ');
  report.incomplete.push({ reason: `coverage: ${what} of the exchange matrix the profile allows not reached (--fail-on coverage); see Coverage` });
  if (report.exitCode !== 0) return;
  report.outcome = 'incomplete';
  report.exitCode = 3;
}
