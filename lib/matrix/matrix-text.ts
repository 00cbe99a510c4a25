import { consoleText } from '../report/console-text.ts';
import type { Outcome, ResultState } from '../report/report-model.ts';
import { VERDICT_LABEL } from '../report/writers/run-facts.ts';
import { EXIT_WORDS, STATE_LABEL, type Matrix, type MatrixColumn } from './matrix-model.ts';

export const OUTCOME_WORDS: Record<Outcome, string> = {
  conformant: 'conformant',
  partial: 'partial run',
  'not-conformant': 'not conformant',
  incomplete: 'incomplete',
  refused: 'refused at the preflight',
  unreachable: 'unreachable',
};

/** The order the run's closing line counts in; waived only when a waiver matched. */
const COUNT_ORDER: readonly ResultState[] = ['pass', 'fail', 'warn', 'waived', 'inconclusive', 'not-run', 'uncovered'];

export function countsText(counts: Record<ResultState, number>): string {
  return COUNT_ORDER.filter((v) => v !== 'waived' || counts.waived > 0)
    .map((v) => `${counts[v]} ${VERDICT_LABEL[v]}`)
    .join(', ');
}

/** How many disagreeing ids the console lists before it says how many more. */
const IDS_SHOWN = 8;

/**
 * The matrix's last lines on the console: a line per column (outcome, whether its bundle
 * verifies, its counts or why it has none), the requirements on which they disagree, where the
 * page is and the exit code. Text from bundles and targets is console-safe.
 */
export function matrixSummary(m: Matrix, dirShown: string): string {
  const width = Math.max(...m.columns.map((c) => c.name.length));
  const lines = [''];
  for (const c of m.columns) {
    const outcome = c.state === 'verified' && c.outcome !== undefined ? OUTCOME_WORDS[c.outcome] : STATE_LABEL[c.state];
    const detail = c.state === 'verified' ? `bundle verified: ${c.reason ?? (c.counts === undefined ? '' : countsText(c.counts))}` : (c.reason ?? '');
    const duplicate = c.duplicateOf === undefined ? '' : ` (duplicate of ${c.duplicateOf.join(', ')})`;
    lines.push(`  ${consoleText(c.name).padEnd(width)}  ${outcome.padEnd(15)} ${consoleText(detail)}${consoleText(duplicate)}`);
  }
  lines.push('');
  const ids = m.disagreements;
  const more = ids.length > IDS_SHOWN ? `, and ${ids.length - IDS_SHOWN} more` : '';
  lines.push(ids.length === 0 ? 'disagree: none' : `disagree: ${ids.length} requirement${ids.length === 1 ? '' : 's'}: ${ids.slice(0, IDS_SHOWN).join(', ')}${more}`);
  if (m.interrupted !== undefined) lines.push(`interrupted by ${m.interrupted}: the targets that ran wrote their reports; the others did not start`);
  lines.push(`matrix: ${dirShown}/matrix.html (and matrix.json), ${m.columns.length} column${m.columns.length === 1 ? '' : 's'}; exit ${m.exitCode}: ${EXIT_WORDS[m.exitCode]}`);
  return lines.join('\n');
}

/**
 * What `matrix merge` found once every bundle was verified: how many verify, and each that does
 * not by its column and the path it was given as (the columns say why).
 */
export function mergeVerifiedLine(found: ReadonlyArray<{ column: MatrixColumn; source: string }>): string {
  const failed = found.filter((f) => f.column.state !== 'verified');
  const total = found.length;
  const bundles = `bundle${total === 1 ? '' : 's'}`;
  if (failed.length === 0) return `matrix merge: ${total === 1 ? `the ${bundles} verifies` : `all ${total} ${bundles} verify`}`;
  const named = failed.map(({ column, source }) => (column.name === source ? source : `${column.name} (${source})`));
  return `matrix merge: ${total - failed.length} of ${total} ${bundles} verify; ${failed.length === 1 ? 'this one does' : `these ${failed.length} do`} not: ${consoleText(named.join(', '))}`;
}
