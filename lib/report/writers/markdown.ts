import type { Coverage } from '../../coverage/coverage.ts';
import { coverageHeadline, dimensionLines, moreLine, unavailableLines, uncoveredGroups } from './coverage-text.ts';
import { curlOf } from '../../http/curl.ts';
import type { Report, RequirementResult, RunStop } from '../report-model.ts';
import {
  OUTCOME_LABEL,
  VERDICT_LABEL,
  certificationText,
  durationText,
  evidenceOf,
  exchangeText,
  exitText,
  implementationText,
  outcomeReason,
  resultsByArea,
  runFacts,
  shownStates,
  stopConsequence,
  stopTitle,
} from './run-facts.ts';
import { codeCell, codeSpan, fencedBlock } from './markdown-text.ts';
import { excerpt, visibleControls } from './text.ts';
import { diffLines } from '../baseline-diff.ts';
import { notPassed, oneLineReason } from '../console-summary.ts';

/** Rows per table; the rest is counted and left to report.html. */
const TABLE_ROWS = 100;
/** Failures that get a curl reproduction. */
const REPRODUCTIONS = 10;
/** A curl line past this is cut: a step summary is no place for a 10 000-character body. */
const CURL_CHARS = 4096;
const CELL_CHARS = 140;
/** Body characters shown per exchange of a stop: report.html shows more, transcript.har what was recorded. */
const STOP_BODY_CHARS = 1000;

const OUTCOME_MARK = { conformant: '✅', partial: '☑️', 'not-conformant': '❌', incomplete: '⚠️', refused: '⛔', unreachable: '⚠️' } as const;

/**
 * The harness's own inline text (catalogue statements, run facts): its code spans stay as written;
 * outside them HTML is escaped, since GitHub and GitLab render raw tags. Pipes are escaped
 * everywhere (GFM needs it inside code spans too). Target text never goes here, but through
 * code, cell and fenced (markdown-text.ts).
 */
function inline(raw: string): string {
  const text = visibleControls(raw.replace(/\s+/g, ' ').trim());
  const parts = text.split(/(`[^`]*`)/);
  return parts
    .map((p) => (p.startsWith('`') && p.endsWith('`') && p.length > 1 ? p : p.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')))
    .join('')
    .replace(/\|/g, '\\|');
}

/** A code span that holds any text (markdown-text.ts), cut to a cell's size. */
function code(raw: string): string {
  return codeSpan(raw, CELL_CHARS);
}

/** A table cell of text that may come from the target: a code span, pipes escaped. */
function cell(raw: string): string {
  return codeCell(raw, CELL_CHARS);
}

function table(head: string[], rows: string[][]): string[] {
  return [`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`, ...rows.map((r) => `| ${r.join(' | ')} |`)];
}

/** A fenced block whose fence is longer than any backtick run inside it (markdown-text.ts). */
function fenced(info: string, content: string): string[] {
  return fencedBlock(info, content);
}

function more(shown: number, total: number, what: string): string[] {
  return total > shown ? ['', `… and ${total - shown} more ${what} (see report.html).`] : [];
}

/** What did not pass, as the console's closing list has it (a partial run's unchosen ones are counted apart). */
/** The Coverage section: the headline, a row per dimension, the pairs not reached grouped by why. */
function coverageMarkdown(c: Coverage): string[] {
  // Values are the harness's words and the profile's route templates: plain text, escaped, never cut.
  const rows = dimensionLines(c).map((d) => [code(d.name), inline(d.reached), inline(d.missing === '' ? '—' : d.missing)]);
  const out = ['### Coverage', '', inline(coverageHeadline(c)), '', ...table(['Dimension', 'Values reached (exchanges)', 'Not reached'], rows), ''];
  const missing = [
    ...uncoveredGroups(c).flatMap((g) => [`- ${inline(g.headline)}:`, ...[...g.named, ...(g.more > 0 ? [moreLine(g.more)] : [])].map((l) => `  - ${inline(l)}`)]),
    ...unavailableLines(c).map((l) => `- ${inline(l)}`),
  ];
  if (missing.length > 0) out.push(...missing, '');
  return out;
}

function notPassedResults(report: Report): RequirementResult[] {
  return report.results.filter(notPassed);
}

function stateOf(r: RequirementResult): string {
  return r.waiver !== undefined && r.waiver.state !== 'unmet' ? `${r.waiver.state} (${VERDICT_LABEL[r.verdict]})` : VERDICT_LABEL[r.verdict];
}

function reproduction(result: RequirementResult): string[] {
  const findings = evidenceOf(result);
  const finding = findings.find((f) => f.exchanges.length > 0) ?? findings[0];
  const lines = [`#### \`${result.requirement.id}\``, '', inline(result.requirement.statement)];
  if (finding?.property !== undefined) {
    const p = finding.property;
    const path = p.path === undefined ? '' : `, path ${code(p.path)}`;
    lines.push('', `Property: fast-check seed \`${p.seed}\`${path}; counterexample ${p.counterexample === undefined ? 'none' : code(p.counterexample)}`);
    if (p.replay !== undefined) lines.push('', `Replay: ${code(`asi-conformance run ... ${p.replay}`)}`);
  }
  const exchange = finding?.exchanges[finding.exchanges.length - 1];
  if (exchange === undefined) return [...lines, '', '_No request shows this failure._', ''];
  const curl = excerpt(visibleControls(curlOf(exchange)), CURL_CHARS);
  const note = curl.omitted > 0 ? ['', `_The line is cut (${curl.omitted} more characters); report.html has it whole._`] : [];
  return [...lines, '', ...fenced('sh', curl.text), ...note, ''];
}

/** Why the run ended early and the exchanges that led there; the cause quotes the target, so it stays in a block. */
function stopLines(stop: RunStop): string[] {
  const lines = [`### ${stopTitle(stop)}`, '', ...fenced('', stop.reason), '', inline(stopConsequence(stop)), ''];
  for (const e of stop.exchanges) lines.push(...fenced('', exchangeText(e, STOP_BODY_CHARS)), '');
  return lines;
}

/**
 * summary.md: fits a CI step summary (GitHub's limit is 1 MiB; this stays far below by capping
 * every table and block). Verdict first, then what failed and how to reproduce it, then counts
 * per area and the run's metadata.
 */
export function summaryMarkdown(report: Report): string {
  const meta = report.meta;
  const c = report.counts;
  const out: string[] = [];
  out.push(`## ${OUTCOME_MARK[report.outcome]} ASI v1: ${OUTCOME_LABEL[report.outcome].toLowerCase()}${meta.target.embedded ? ' (the embedded reference: a demo)' : ''}`, '');
  const impl = meta.implementation === undefined ? '' : ` · ${code(implementationText(meta.implementation))}`;
  out.push(`**${inline(outcomeReason(report))}** · ${inline(certificationText(meta))}${impl} · target ${code(meta.target.baseUrl)} · ${durationText(meta.durationMs)} · ${inline(exitText(report))}`, '');
  const states = shownStates(c);
  out.push(...table(states.map((v) => VERDICT_LABEL[v]), [states.map((v) => String(c[v]))]), '');

  if (report.stopped !== undefined) out.push(...stopLines(report.stopped));

  // A run that ended at the preflight ran nothing: the stop says why, a table of every requirement would not.
  const listed = report.stopped?.at === 'preflight' ? [] : notPassedResults(report);
  if (listed.length > 0) {
    out.push(`### Not passed (${listed.length})`, '');
    const rows = listed.slice(0, TABLE_ROWS).map((r) => [`\`${r.requirement.id}\``, r.requirement.level, stateOf(r), cell(oneLineReason(r))]);
    out.push(...table(['Requirement', 'Level', 'Verdict', 'Why'], rows), ...more(TABLE_ROWS, listed.length, 'requirements'), '');
  }
  const unchosen = report.results.filter((r) => r.unchosen === true).length;
  if (unchosen > 0) out.push(`_${unchosen} more requirements were not chosen for this partial run._`, '');

  const failures = report.results.filter((r) => r.verdict === 'fail' && r.waiver?.state !== 'waived');
  if (failures.length > 0) {
    out.push('### Reproduce', '');
    for (const r of failures.slice(0, REPRODUCTIONS)) out.push(...reproduction(r));
    out.push(...more(REPRODUCTIONS, failures.length, 'reproductions'));
    if (failures.length > REPRODUCTIONS) out.push('');
  }

  if (report.baselineDiff !== undefined) {
    out.push('### Compared with the baseline', '', ...fenced('', diffLines(report.baselineDiff).join('\n')), '');
  }

  if (report.runErrors.length > 0) {
    out.push(`### Run errors (${report.runErrors.length})`, '');
    for (const e of report.runErrors.slice(0, TABLE_ROWS)) out.push(`- ${cell(e)}`);
    out.push(...more(TABLE_ROWS, report.runErrors.length, 'run errors'), '');
  }

  out.push('### Per area', '');
  const areaRows = resultsByArea(report.results).map((g) => [g.area, ...states.map((v) => String(g.counts[v]))]);
  out.push(...table(['Area', ...states.map((v) => VERDICT_LABEL[v])], areaRows), '');

  if (report.coverage !== undefined) out.push(...coverageMarkdown(report.coverage));
  out.push('### Run', '');
  for (const f of runFacts(meta)) out.push(`- **${f.label}:** ${inline(f.value)}`);
  out.push('');
  return `${out.join('\n')}\n`;
}
