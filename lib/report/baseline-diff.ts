import { ReportFileError } from '../errors.ts';
import { readUserFile } from '../user-file.ts';
import type { BaselineDiff, Observed, Report, RequirementVerdict, VerdictChange } from './report-model.ts';

/**
 * The part of a report.json a comparison needs. Reports of every schema version so far have it,
 * so a report written by an older harness can be the baseline of a newer one.
 */
export interface ComparableReport {
  schemaVersion: number;
  meta: { runId: string; tool: { name: string; version: string }; startedAt: string };
  results: Array<{ requirement: { id: string }; verdict: RequirementVerdict; waiver?: { state: string } }>;
  observed?: Observed;
}

function isComparable(value: unknown): value is ComparableReport {
  const r = value as ComparableReport | null;
  return (
    typeof r === 'object' &&
    r !== null &&
    typeof r.schemaVersion === 'number' &&
    typeof r.meta?.runId === 'string' &&
    Array.isArray(r.results) &&
    r.results.every((x) => typeof x?.requirement?.id === 'string' && typeof x.verdict === 'string')
  );
}

/** Reads a report.json to compare with; anything else is one line naming the file (exit 2). */
export function loadReportFile(file: string): ComparableReport {
  const text = readUserFile(file, (message) => new ReportFileError(file, message));
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ReportFileError(file, 'is not JSON; expected a report.json written by asi-conformance');
  }
  if (!isComparable(value)) throw new ReportFileError(file, 'is not an asi-conformance report.json (no schemaVersion, meta.runId or results)');
  return value;
}

/** A verdict that fails: `fail` itself, and an expected failure that no waiver covers any more. */
function failing(v: RequirementVerdict | 'absent'): boolean {
  return v === 'fail';
}

/** Codes the baseline saw in a situation where the new run saw only other codes: renamed or removed. */
function codesGone(before: Observed | undefined, after: Observed | undefined): BaselineDiff['codesGone'] {
  if (before === undefined || after === undefined) return [];
  const gone: BaselineDiff['codesGone'] = [];
  for (const [situation, oldCodes] of Object.entries(before.errorCodes)) {
    const newCodes = after.errorCodes[situation];
    if (newCodes === undefined) continue;
    const missing = oldCodes.filter((c) => !newCodes.includes(c));
    const novel = newCodes.filter((c) => !oldCodes.includes(c));
    // The same situation answered with other codes only: a rename. Fewer codes alone may be fewer provocations.
    if (missing.length > 0 && novel.length > 0) gone.push({ situation, before: oldCodes, after: newCodes });
  }
  return gone;
}

/** Fields every body of a kind carried in the baseline that some body of that kind lacks now. */
function fieldsGone(before: Observed | undefined, after: Observed | undefined): BaselineDiff['fieldsGone'] {
  if (before === undefined || after === undefined) return [];
  const gone: BaselineDiff['fieldsGone'] = [];
  for (const [kind, old] of Object.entries(before.fields)) {
    const now = after.fields[kind];
    if (now === undefined) continue;
    const always = Object.keys(old.counts).filter((f) => old.counts[f] === old.bodies);
    const lost = always.filter((f) => (now.counts[f] ?? 0) < now.bodies);
    if (lost.length > 0) gone.push({ kind, fields: lost });
  }
  return gone;
}

/**
 * Requirement by requirement, what changed between a baseline report and a new one. Only new
 * failures and vanished error codes or fields are regressions: a requirement that failed before
 * and still fails is known, one that went from pass to inconclusive is reported but not judged.
 */
export function diffReports(before: ComparableReport, after: ComparableReport): BaselineDiff {
  const old = new Map(before.results.map((r) => [r.requirement.id, r.verdict]));
  const now = new Map(after.results.map((r) => [r.requirement.id, r.verdict]));
  const diff: BaselineDiff = {
    baseline: { runId: before.meta.runId, tool: `${before.meta.tool.name} ${before.meta.tool.version}`, startedAt: before.meta.startedAt },
    newFailures: [],
    fixed: [],
    stillFailing: [],
    otherChanges: [],
    added: [...now.keys()].filter((id) => !old.has(id)),
    removed: [...old.keys()].filter((id) => !now.has(id)),
    codesGone: codesGone(before.observed, after.observed),
    fieldsGone: fieldsGone(before.observed, after.observed),
    regressed: false,
  };
  for (const [id, afterVerdict] of now) {
    const beforeVerdict = old.get(id) ?? 'absent';
    const change: VerdictChange = { id, before: beforeVerdict, after: afterVerdict };
    if (failing(afterVerdict) && failing(beforeVerdict)) diff.stillFailing.push(change);
    else if (failing(afterVerdict)) diff.newFailures.push(change);
    else if (failing(beforeVerdict) && afterVerdict === 'pass') diff.fixed.push(change);
    else if (beforeVerdict !== afterVerdict && beforeVerdict !== 'absent') diff.otherChanges.push(change);
  }
  diff.regressed = diff.newFailures.length > 0 || diff.codesGone.length > 0 || diff.fieldsGone.length > 0;
  return diff;
}

/** The diff as lines for the console and summary.md (plain text; writers escape it). */
export function diffLines(diff: BaselineDiff): string[] {
  const ids = (changes: VerdictChange[]): string => changes.map((c) => `${c.id} (${c.before} -> ${c.after})`).join(', ');
  const lines = [`compared with baseline run ${diff.baseline.runId} (${diff.baseline.tool}, ${diff.baseline.startedAt})`];
  lines.push(`  new failures: ${diff.newFailures.length === 0 ? 'none' : ids(diff.newFailures)}`);
  lines.push(`  fixed: ${diff.fixed.length === 0 ? 'none' : ids(diff.fixed)}`);
  lines.push(`  still failing: ${diff.stillFailing.length === 0 ? 'none' : diff.stillFailing.map((c) => c.id).join(', ')}`);
  if (diff.otherChanges.length > 0) lines.push(`  other changes: ${ids(diff.otherChanges)}`);
  if (diff.added.length > 0) lines.push(`  requirements new in this harness: ${diff.added.join(', ')}`);
  if (diff.removed.length > 0) lines.push(`  requirements the baseline had and this harness has not: ${diff.removed.join(', ')}`);
  for (const c of diff.codesGone) lines.push(`  error codes gone at ${c.situation}: ${c.before.join(', ')} before, ${c.after.join(', ')} now (§9.2: never renamed or removed within /v1)`);
  for (const f of diff.fieldsGone) lines.push(`  fields gone from ${f.kind}: ${f.fields.join(', ')}`);
  lines.push(`  ${diff.regressed ? 'REGRESSED' : 'no regression'}`);
  return lines;
}

/**
 * The exit code of a run with --baseline. A baseline gate fails on regressions only: what failed
 * before and still fails is known. An expired waiver fails the run whatever the baseline says: the
 * waiver is what ran out.
 */
export function baselineExitCode(report: Pick<Report, 'exitCode' | 'results'>, diff: BaselineDiff): Report['exitCode'] {
  const expired = report.results.some((r) => r.waiver?.state === 'expired');
  if (report.exitCode === 1 && !diff.regressed && !expired) return 0;
  if (report.exitCode !== 3 && diff.regressed) return 1;
  return report.exitCode;
}
