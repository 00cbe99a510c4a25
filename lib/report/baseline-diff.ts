import { ReportFileError } from '../errors.ts';
import { readUserFile } from '../user-file.ts';
import type { BaselineDiff, Observed, Report, RequirementVerdict, ResultState, VerdictChange } from './report-model.ts';
import { plural } from '../model/words.ts';

/**
 * The part of a report.json a comparison needs. Reports of every schema version so far have it,
 * so a report written by an older harness can be the baseline of a newer one.
 */
export interface ComparableReport {
  schemaVersion: number;
  meta: { runId: string; tool: { name: string; version: string }; startedAt: string };
  results: Array<{ requirement: { id: string }; verdict: RequirementVerdict; waiver?: { state: string }; unchosen?: boolean }>;
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

/** A state that fails: `fail` (a waived failure reads `waived`; an expired waiver's, `fail`). */
function failing(v: ResultState | 'absent'): boolean {
  return v === 'fail';
}

/** A result as the comparison sees it: `waived` when its waiver matched, else its verdict (as every report shows it). */
function stateOf(r: ComparableReport['results'][number]): ResultState {
  return r.waiver?.state === 'waived' ? 'waived' : r.verdict;
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
  const old = new Map(before.results.map((r) => [r.requirement.id, stateOf(r)]));
  // What a partial run did not choose was not judged: it is counted apart, never compared.
  const notChosen = after.results.filter((r) => r.unchosen === true).map((r) => r.requirement.id);
  const now = new Map(after.results.filter((r) => r.unchosen !== true).map((r) => [r.requirement.id, stateOf(r)]));
  const diff: BaselineDiff = {
    baseline: { runId: before.meta.runId, tool: `${before.meta.tool.name} ${before.meta.tool.version}`, startedAt: before.meta.startedAt },
    newFailures: [],
    fixed: [],
    stillFailing: [],
    otherChanges: [],
    ...(notChosen.length === 0 ? {} : { notChosen }),
    added: after.results.map((r) => r.requirement.id).filter((id) => !old.has(id)),
    removed: [...old.keys()].filter((id) => !now.has(id) && !notChosen.includes(id)),
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

/** Ids listed on one line before a list is grouped. */
const INLINE_IDS = 3;
/** Ids per line of a grouped list. */
const IDS_PER_LINE = 4;
/** Ids shown of a group of changes that are not regressions; the rest is counted (report.json has them all). */
const IDS_SHOWN = 4;

/** The area of a requirement id (`area/section/slug`). */
function areaOf(id: string): string {
  return id.split('/')[0] ?? id;
}

/** Ids by area, areas in the order they first come (the catalogue's). */
function byArea(ids: readonly string[]): Map<string, string[]> {
  const areas = new Map<string, string[]>();
  for (const id of ids) areas.set(areaOf(id), [...(areas.get(areaOf(id)) ?? []), id]);
  return areas;
}

/** Lines of at most IDS_PER_LINE ids each. */
function wrapped(ids: readonly string[], indent: string): string[] {
  const lines: string[] = [];
  for (let i = 0; i < ids.length; i += IDS_PER_LINE) lines.push(`${indent}${ids.slice(i, i + IDS_PER_LINE).join(', ')}`);
  return lines;
}

/**
 * A list of changes: on one line when short; else grouped by change of verdict and by area, with
 * counts, a few ids a line. Regressions are listed whole; other changes show a few ids per area
 * and count the rest.
 */
function changeLines(label: string, changes: readonly VerdictChange[], whole: boolean, showChange = true): string[] {
  const one = (c: VerdictChange): string => (showChange ? `${c.id} (${c.before} -> ${c.after})` : c.id);
  if (changes.length === 0) return [`  ${label}: none`];
  if (changes.length <= INLINE_IDS) return [`  ${label}: ${changes.map(one).join(', ')}`];
  const lines = [`  ${label} (${changes.length}):`];
  const kinds = new Map<string, string[]>();
  for (const c of changes) {
    const kind = `${c.before} -> ${c.after}`;
    kinds.set(kind, [...(kinds.get(kind) ?? []), c.id]);
  }
  for (const [kind, ids] of kinds) {
    const indent = showChange ? '      ' : '    ';
    if (showChange) lines.push(`    ${kind} (${ids.length}):`);
    for (const [area, inArea] of byArea(ids)) {
      if (whole) {
        lines.push(`${indent}${area} (${inArea.length}):`, ...wrapped(inArea, `${indent}  `));
        continue;
      }
      const more = inArea.length > IDS_SHOWN ? `, … and ${inArea.length - IDS_SHOWN} more` : '';
      lines.push(`${indent}${area} (${inArea.length}): ${inArea.slice(0, IDS_SHOWN).join(', ')}${more}`);
    }
  }
  return lines;
}

/** Requirements counted per area, on one line: `auth 12, ledger 30`. */
function areaCounts(ids: readonly string[]): string {
  return [...byArea(ids)].map(([area, inArea]) => `${area} ${inArea.length}`).join(', ');
}

/** What regressed, in counts: the reason a baseline gate fails. */
function regressions(diff: BaselineDiff): string {
  return [
    diff.newFailures.length > 0 ? plural(diff.newFailures.length, 'new failure') : '',
    diff.codesGone.length > 0 ? `error codes gone in ${plural(diff.codesGone.length, 'situation')}` : '',
    diff.fieldsGone.length > 0 ? `fields gone from ${plural(diff.fieldsGone.length, 'kind')} of body` : '',
  ]
    .filter((p) => p !== '')
    .join(', ');
}

/** The diff as lines for the console and summary.md (plain text; writers escape it). */
export function diffLines(diff: BaselineDiff): string[] {
  const lines = [`compared with baseline run ${diff.baseline.runId} (${diff.baseline.tool}, ${diff.baseline.startedAt})`];
  lines.push(...changeLines('new failures', diff.newFailures, true));
  lines.push(...changeLines('fixed', diff.fixed, false));
  lines.push(...changeLines('still failing', diff.stillFailing, false, false));
  if (diff.otherChanges.length > 0) lines.push(...changeLines('other changes', diff.otherChanges, false));
  const notChosen = diff.notChosen ?? [];
  if (notChosen.length > 0) lines.push(`  not chosen in this partial run, not compared (${notChosen.length}): ${areaCounts(notChosen)}`);
  if (diff.added.length > 0) lines.push(`  requirements new in this harness (${diff.added.length}): ${diff.added.join(', ')}`);
  if (diff.removed.length > 0) lines.push(`  requirements the baseline had and this harness has not (${diff.removed.length}): ${diff.removed.join(', ')}`);
  for (const c of diff.codesGone) lines.push(`  error codes gone at ${c.situation}: ${c.before.join(', ')} before, ${c.after.join(', ')} now (§9.2: never renamed or removed within /v1)`);
  for (const f of diff.fieldsGone) lines.push(`  fields gone from ${f.kind}: ${f.fields.join(', ')}`);
  lines.push(`  ${diff.regressed ? `REGRESSED: ${regressions(diff)}` : 'no regression'}`);
  return lines;
}

/** What a baseline gate decided: the run's exit code, and why, in words. */
export interface GateDecision {
  exitCode: 0 | 1 | 3;
  why: string;
}

/**
 * The exit code of a run with --baseline, and why. A regression fails the run; a failure the
 * baseline had too does not (the gate holds a release to the last one); an expired waiver fails it
 * whatever the baseline says, since the waiver is what ran out; an incomplete run stays incomplete.
 */
export function baselineGate(report: Pick<Report, 'outcome' | 'results'> & { baselineDiff: BaselineDiff }): GateDecision {
  const diff = report.baselineDiff;
  const against = `against baseline run ${diff.baseline.runId}`;
  if (report.outcome === 'incomplete') {
    return { exitCode: 3, why: `the run is incomplete: whatever it found, a run that could not judge a MUST or was cut short is not gated ${against}${diff.regressed ? ` (it did regress: ${regressions(diff)})` : ''}` };
  }
  if (diff.regressed) return { exitCode: 1, why: `regressed ${against}: ${regressions(diff)}` };
  const expired = report.results.filter((r) => r.waiver?.state === 'expired').map((r) => r.requirement.id);
  if (expired.length > 0) {
    return { exitCode: 1, why: `no regression ${against}, but ${plural(expired.length, 'waiver')} expired: ${expired.join(', ')} (renew the waiver or fix the failure)` };
  }
  if (diff.stillFailing.length > 0) {
    return { exitCode: 0, why: `no regression ${against}: only known failures, ${plural(diff.stillFailing.length, 'requirement')} failing as in the baseline` };
  }
  return { exitCode: 0, why: `no regression ${against}` };
}

/** The gate of a run with --baseline, as its reports say it; undefined for a run without one. */
export function gateOf(report: Report): GateDecision | undefined {
  return report.baselineDiff === undefined ? undefined : baselineGate({ ...report, baselineDiff: report.baselineDiff });
}
