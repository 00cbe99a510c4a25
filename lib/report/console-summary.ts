import { diffLines, gateOf } from './baseline-diff.ts';
import { consoleText } from './console-text.ts';
import { waiverText } from './expectations.ts';
import { commandPrefix } from '../invocation.ts';
import { formatFailure } from './format-failure.ts';
import type { Report, RequirementResult } from './report-model.ts';
import { evidenceOf, findingLine, reasonOf } from './writers/run-facts.ts';
import { shorten } from './writers/text.ts';

const MARK: Record<string, string> = { fail: '×', warn: '!', inconclusive: '?', 'not-run': '-', uncovered: '-', waived: '~', fixed: '+', expired: '×' };
const LINE_CHARS = 220;

const HEADLINE: Record<Report['outcome'], string> = {
  conformant: 'CONFORMANT',
  partial: 'PARTIAL RUN, NOT A CERTIFICATION',
  'not-conformant': 'NOT CONFORMANT',
  incomplete: 'INCOMPLETE',
  refused: 'REFUSED AT THE PREFLIGHT',
  unreachable: 'UNREACHABLE',
};

/** The exit code an outcome has by itself, before a baseline gate. */
const OUTCOME_EXIT: Record<Report['outcome'], number> = { conformant: 0, partial: 0, 'not-conformant': 1, incomplete: 3, refused: 2, unreachable: 3 };

/** A result's one-line reason: what was expected and came, why it was not judged, or the waiver. */
export function oneLineReason(result: RequirementResult): string {
  if (result.waiver !== undefined && result.waiver.state !== 'unmet') return waiverText(result.waiver);
  const first = evidenceOf(result)[0];
  const why = first === undefined ? reasonOf(result) : findingLine(first) || reasonOf(result);
  return why ?? result.verdict;
}

/** Whether a result belongs on the list of what did not pass (a partial run's unchosen ones are counted, not listed). */
export function notPassed(r: RequirementResult): boolean {
  if (r.waiver !== undefined && r.waiver.state !== 'unmet') return true;
  return r.verdict !== 'pass' && r.unchosen !== true;
}

/** "89 more not chosen for this partial run", or nothing in a run that chose them all. */
function unchosenText(report: Report): string {
  const unchosen = report.results.filter((r) => r.unchosen === true).length;
  return unchosen > 0 ? `${unchosen} more not chosen for this partial run` : '';
}

/** How many did not pass, and how many a partial run did not choose: "5; 89 more not chosen for this partial run". */
export function notPassedCount(report: Report): string {
  const more = unchosenText(report);
  return `${report.results.filter(notPassed).length}${more === '' ? '' : `; ${more}`}`;
}

/**
 * Every requirement that did not pass, a line each with its reason: fail, warn, inconclusive,
 * not-run, uncovered, and waivers that matched, came due or can go. The same list closes the
 * console (also with -q), summary.md and junit.xml.
 */
export function notPassedLines(report: Report): string[] {
  const rows = report.results.filter(notPassed);
  // Nothing ran: one line says so, instead of every requirement with the same reason.
  if (report.stopped?.at === 'preflight') return [`Not run (${rows.length}): the run ended at the preflight, before any suite`];
  const width = Math.max(...rows.map((r) => r.requirement.id.length), 0);
  const more = unchosenText(report);
  if (rows.length === 0) return [`Not passed: none${more === '' ? '' : ` (${more})`}`];
  const lines = [`Not passed (${notPassedCount(report)}):`];
  for (const r of rows) {
    const state = r.waiver !== undefined && r.waiver.state !== 'unmet' ? r.waiver.state : r.verdict;
    const label = `${MARK[state] ?? '-'} ${state.padEnd(12)} ${r.requirement.id.padEnd(width)} ${r.requirement.level.padEnd(6)}`;
    lines.push(`  ${label} ${consoleText(shorten(oneLineReason(r), LINE_CHARS))}`);
  }
  return lines;
}

/** The run's last lines on the console: failure blocks, what did not pass, the baseline, the verdict. */
export function consoleSummary(report: Report, reportsLine: string): string {
  const c = report.counts;
  const lines: string[] = [''];
  for (const r of report.results.filter((x) => x.verdict === 'fail' && x.waiver?.state !== 'waived')) {
    const first = r.findings.find((f) => f.verdict === 'fail');
    if (first !== undefined) lines.push(formatFailure(first, commandPrefix()), '');
  }
  const notPassed = notPassedLines(report);
  if (notPassed.length > 0) lines.push(...notPassed, '');
  if (report.baselineDiff !== undefined) lines.push(...diffLines(report.baselineDiff).map(consoleText), '');
  for (const e of report.runErrors) lines.push(`run error: ${consoleText(e)}`);
  // Each requirement counts once: a waived one as waived, not also as the verdict it had.
  const waived = c.waived > 0 ? `, ${c.waived} waived` : '';
  const tail = `${c.pass} pass, ${c.fail} fail, ${c.warn} warn${waived}, ${c.inconclusive} inconclusive, ${c['not-run']} not run, ${c.uncovered} uncovered of ${report.results.length} requirements in ${(report.meta.durationMs / 1000).toFixed(1)}s (seed ${report.meta.seed})`;
  const why = report.meta.certifying || report.outcome === 'partial' ? '' : ` (${(report.meta.notCertifyingBecause ?? []).join('; ') || 'not a certification'})`;
  // A baseline gate may pass a run that is not conformant, or fail one that is: the headline says so.
  const gate = gateOf(report);
  const gated = gate === undefined || gate.exitCode === OUTCOME_EXIT[report.outcome] ? '' : ` (baseline gate ${gate.exitCode === 0 ? 'passes' : 'fails'}: exit ${gate.exitCode})`;
  lines.push(`${HEADLINE[report.outcome]}${report.outcome === 'conformant' ? why : ''}${gated}: ${tail}`);
  if (report.outcome === 'incomplete') {
    const ids = report.incomplete.filter((i) => i.id !== undefined).map((i) => i.id);
    if (report.cutShort !== undefined) lines.push(`incomplete: ${consoleText(report.cutShort)}`);
    // Reasons of the run as a whole (run errors are printed above as such).
    for (const item of report.incomplete) {
      if (item.id === undefined && item.reason !== report.cutShort && !item.reason.startsWith('run error: ')) lines.push(`incomplete: ${consoleText(item.reason)}`);
    }
    if (ids.length > 0) lines.push(`incomplete: no verdict for ${ids.length} MUST requirement${ids.length === 1 ? '' : 's'} (listed above): a run is conformant only when every MUST has one`);
  }
  if (gate !== undefined) lines.push(`baseline gate: exit ${gate.exitCode}: ${consoleText(gate.why)}`);
  if (report.meta.target.embedded) lines.push(`demo: this run tested the embedded reference implementation (the harness's own), not an implementation under test; to test yours, give run --base-url URL or --config FILE`);
  lines.push(reportsLine);
  return lines.join('\n');
}
