import type { Finding } from '../../model/finding.ts';
import type { Area } from '../../model/requirement.ts';
import { READ_LIMIT, WINDOW_SECONDS, WRITE_LIMIT } from '../../spec-constants.ts';
import type { Outcome, Report, RequestCount, RequirementResult, RequirementVerdict, RunMetadata } from '../report-model.ts';

/**
 * The words every human-readable writer uses for a run, so that summary.md, report.html and
 * junit.xml say the same thing the same way.
 */

/** Worst first: the order summaries list verdicts in. */
export const VERDICT_ORDER: readonly RequirementVerdict[] = ['fail', 'inconclusive', 'warn', 'pass', 'not-run', 'uncovered'];

export const VERDICT_LABEL: Record<RequirementVerdict, string> = {
  pass: 'pass',
  fail: 'fail',
  warn: 'warn',
  inconclusive: 'inconclusive',
  'not-run': 'not run',
  uncovered: 'uncovered',
};

export const OUTCOME_LABEL: Record<Outcome, string> = {
  conformant: 'Conformant',
  'not-conformant': 'Not conformant',
  inconclusive: 'Inconclusive',
};

function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** Why the outcome is what it is, in one clause. */
export function outcomeReason(report: Report): string {
  const c = report.counts;
  if (report.outcome === 'not-conformant') return `${plural(c.fail, 'requirement fails', 'requirements fail')}`;
  if (report.outcome === 'inconclusive') {
    const parts: string[] = [];
    if (c.inconclusive > 0) parts.push(`${plural(c.inconclusive, 'requirement')} could not be decided`);
    if (report.runErrors.length > 0) parts.push(`${plural(report.runErrors.length, 'run error')}`);
    return parts.join(', ');
  }
  return `no requirement fails${c.warn > 0 ? `, ${plural(c.warn, 'warning')}` : ''}`;
}

/** Whether this run certifies, and why not when it does not. */
export function certificationText(meta: RunMetadata): string {
  const l = meta.limits;
  const limits = `${l.read} reads and ${l.write} writes per ${l.windowS} s`;
  if (meta.certifying) return `certifying run (the spec's limits: ${limits})`;
  const spec = `${READ_LIMIT} reads and ${WRITE_LIMIT} writes per ${WINDOW_SECONDS} s`;
  if (l.read !== READ_LIMIT || l.write !== WRITE_LIMIT || l.windowS !== WINDOW_SECONDS) {
    return `not a certification (the profile's limits, ${limits}, differ from the spec's ${spec})`;
  }
  return 'not a certification (only some suites or requirements ran: a certification runs them all)';
}

export function durationText(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const s = ms / 1000;
  if (s < 60) return `${s.toFixed(1)} s`;
  const min = Math.floor(s / 60);
  return `${min} min ${(s - min * 60).toFixed(1)} s`;
}

/** Requests per token role and pool, busiest first, with the total. */
export function requestsText(requests: readonly RequestCount[]): string {
  if (requests.length === 0) return 'none';
  const total = requests.reduce((n, r) => n + r.requests, 0);
  const parts = [...requests].sort((a, b) => b.requests - a.requests).map((r) => `${r.role}/${r.pool} ${r.requests}`);
  return `${total} (${parts.join(', ')})`;
}

export interface RunFact {
  label: string;
  value: string;
}

/** The run's metadata as labelled lines, in the order a reader looks for them. */
export function runFacts(meta: RunMetadata): RunFact[] {
  const facts: RunFact[] = [
    { label: 'Target', value: `${meta.target.baseUrl}${meta.target.embedded ? ' (embedded reference server)' : ''}` },
    { label: 'Profile', value: meta.target.profile },
    { label: 'Certifying', value: certificationText(meta) },
    { label: 'Seed', value: `${meta.seed} (replay with --seed ${meta.seed})` },
    { label: 'Started', value: meta.startedAt },
    { label: 'Duration', value: durationText(meta.durationMs) },
    { label: 'Requests per token and pool', value: requestsText(meta.requests) },
  ];
  if (meta.pacingWaitMs !== undefined) facts.push({ label: 'Pacing wait', value: durationText(meta.pacingWaitMs) });
  facts.push(
    { label: 'Suites', value: meta.suites.length === 0 ? 'none' : meta.suites.join(', ') },
    { label: 'Fails on', value: meta.failOn === 'should' ? 'MUST and SHOULD' : 'MUST (SHOULD failures are warnings)' },
    { label: 'Harness', value: `${meta.tool.name} ${meta.tool.version}, Node ${meta.node}` },
    { label: 'Contract digest', value: meta.contractDigest },
    { label: 'Run id', value: meta.runId },
  );
  if (meta.argv.length > 0) facts.push({ label: 'Command', value: `${meta.tool.name} ${meta.argv.join(' ')}` });
  return facts;
}

export interface AreaResults {
  area: Area;
  results: RequirementResult[];
  counts: Record<RequirementVerdict, number>;
}

export function emptyCounts(): Record<RequirementVerdict, number> {
  return { pass: 0, fail: 0, warn: 0, inconclusive: 0, 'not-run': 0, uncovered: 0 };
}

/** Results grouped by area, areas in the order they first appear (the catalogue's). */
export function resultsByArea(results: readonly RequirementResult[]): AreaResults[] {
  const areas = new Map<Area, AreaResults>();
  for (const r of results) {
    const area = r.requirement.area;
    let group = areas.get(area);
    if (group === undefined) {
      group = { area, results: [], counts: emptyCounts() };
      areas.set(area, group);
    }
    group.results.push(r);
    group.counts[r.verdict] += 1;
  }
  return [...areas.values()];
}

/**
 * The findings behind a verdict. A SHOULD or INFO failure reads as `warn` while its finding still
 * says `fail`, so a warning shows the failing findings as well.
 */
export function evidenceOf(result: RequirementResult): Finding[] {
  switch (result.verdict) {
    case 'fail':
      return result.findings.filter((f) => f.verdict === 'fail');
    case 'warn':
      return result.findings.filter((f) => f.verdict === 'fail' || f.verdict === 'warn');
    case 'inconclusive':
      return result.findings.filter((f) => f.verdict === 'inconclusive');
    default:
      return [];
  }
}

/** Why a requirement was not decided, in words. */
export function reasonOf(result: RequirementResult): string | undefined {
  if (result.reason !== undefined) return result.reason;
  if (result.verdict === 'uncovered') return 'no test in this run checks this requirement';
  if (result.verdict === 'not-run' || result.verdict === 'inconclusive') {
    return result.findings.find((f) => f.verdict === result.verdict && f.note !== undefined)?.note;
  }
  return undefined;
}

/** The expected/actual pair of a finding in one line, for tables and failure messages. */
export function findingLine(finding: Finding): string {
  const parts: string[] = [];
  if (finding.expected !== undefined) parts.push(`expected ${finding.expected}`);
  if (finding.actual !== undefined) parts.push(`actual ${finding.actual}`);
  if (parts.length === 0 && finding.note !== undefined) parts.push(finding.note);
  return parts.join('; ');
}
