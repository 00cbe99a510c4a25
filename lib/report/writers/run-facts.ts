import { STATUS_CODES } from 'node:http';
import { curlOf } from '../../http/curl.ts';
import type { Exchange } from '../../model/exchange.ts';
import type { Finding } from '../../model/finding.ts';
import type { Area } from '../../model/requirement.ts';
import { READ_LIMIT, WINDOW_SECONDS, WRITE_LIMIT } from '../../spec-constants.ts';
import { REFERENCE_DEMO } from '../run-scope.ts';
import { gateOf } from '../baseline-diff.ts';
import { resultState, type Outcome, type Report, type RequestCount, type RequirementResult, type ResultState, type RunMetadata, type RunStop } from '../report-model.ts';
import { excerpt } from './text.ts';
import { plural } from '../../model/words.ts';

/**
 * The words every human-readable writer uses for a run, so that summary.md, report.html and
 * junit.xml say the same thing the same way.
 */

/** Worst first: the order summaries list verdicts in; a waived result counts apart from any verdict. */
export const VERDICT_ORDER: readonly ResultState[] = ['fail', 'inconclusive', 'warn', 'waived', 'pass', 'not-run', 'uncovered'];

export const VERDICT_LABEL: Record<ResultState, string> = {
  pass: 'pass',
  fail: 'fail',
  warn: 'warn',
  inconclusive: 'inconclusive',
  'not-run': 'not run',
  uncovered: 'uncovered',
  waived: 'waived',
};

/** The states a run's tables show: every verdict, and `waived` when a waiver matched a result. */
export function shownStates(counts: Record<ResultState, number>): ResultState[] {
  return VERDICT_ORDER.filter((v) => v !== 'waived' || counts.waived > 0);
}

export const OUTCOME_LABEL: Record<Outcome, string> = {
  conformant: 'Conformant',
  partial: 'Partial run',
  'not-conformant': 'Not conformant',
  incomplete: 'Incomplete',
  refused: 'Refused at the preflight',
  unreachable: 'Unreachable',
};

/** Why the outcome is what it is, in one clause. */
export function outcomeReason(report: Report): string {
  const c = report.counts;
  const expired = report.results.filter((r) => r.waiver?.state === 'expired').length;
  const failing = c.fail;
  switch (report.outcome) {
    case 'not-conformant':
      return [failing > 0 ? plural(failing, 'requirement fails', 'requirements fail') : '', expired > 0 ? plural(expired, 'waiver has', 'waivers have') + ' expired' : '']
        .filter((p) => p !== '')
        .join(', ');
    case 'incomplete': {
      const ids = report.incomplete.filter((i) => i.id !== undefined).length;
      const parts = [report.cutShort ?? '', ids > 0 ? `${plural(ids, 'requirement')} could not be judged` : ''];
      const errors = report.runErrors.length;
      if (errors > 0) parts.push(plural(errors, 'run error'));
      return parts.filter((p) => p !== '').join('; ');
    }
    // The cause quotes the target (a status, an error code, a content type): writers show it apart, as target text.
    case 'refused':
      return 'the preflight refused the target: no suite ran';
    case 'unreachable':
      return 'the target did not answer the preflight: no suite ran';
    case 'partial':
      return `partial run, not a certification: nothing it ran failed${c.warn > 0 ? `, ${plural(c.warn, 'warning')}` : ''}${c.waived > 0 ? `, ${plural(c.waived, 'result')} waived` : ''}`;
    case 'conformant':
      return `no requirement fails${c.warn > 0 ? `, ${plural(c.warn, 'warning')}` : ''}${c.waived > 0 ? `, ${plural(c.waived, 'result')} waived` : ''}`;
  }
}

/** The run's exit code, and the baseline gate's reason when a gate decided it. */
export function exitText(report: Report): string {
  const gate = gateOf(report);
  return `exit code ${report.exitCode}${gate === undefined ? '' : ` (baseline gate: ${gate.why})`}`;
}

/** Whether this run certifies, and why not when it does not; a run of the embedded reference says first that it is a demo. */
export function certificationText(meta: RunMetadata): string {
  return `${meta.target.embedded ? `${REFERENCE_DEMO}; ` : ''}${certifyingText(meta)}`;
}

function certifyingText(meta: RunMetadata): string {
  const l = meta.limits;
  if (meta.certifying) return `certifying run (the spec's limits: ${l.read} reads and ${l.write} writes per ${l.windowS} s)`;
  const because = meta.notCertifyingBecause ?? [];
  if (because.length > 0) return `not a certification: ${because.join('; ')}`;
  if (l.read !== READ_LIMIT || l.write !== WRITE_LIMIT || l.windowS !== WINDOW_SECONDS) {
    return `not a certification: the profile's limits (${l.read}/${l.write} per ${l.windowS} s) differ from the spec's (${READ_LIMIT}/${WRITE_LIMIT} per ${WINDOW_SECONDS} s)`;
  }
  return 'not a certification';
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

/** The implementation's name and version as the user gave them. */
export function implementationText(impl: NonNullable<RunMetadata['implementation']>): string {
  return [impl.label ?? 'unnamed implementation', impl.version === undefined ? '' : `version ${impl.version}`].filter((x) => x !== '').join(', ');
}

/** The run's metadata as labelled lines, in the order a reader looks for them. */
export function runFacts(meta: RunMetadata): RunFact[] {
  const facts: RunFact[] = [
    ...(meta.implementation === undefined ? [] : [{ label: 'Implementation', value: implementationText(meta.implementation) }]),
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
    ...selectionFacts(meta),
    { label: 'Fails on', value: meta.failOn === 'should' ? 'MUST and SHOULD' : 'MUST (SHOULD failures are warnings)' },
    { label: 'Harness', value: `${meta.tool.name} ${meta.tool.version}, Node ${meta.node}` },
    { label: 'Contract digest', value: meta.contractDigest },
    { label: 'Run id', value: meta.runId },
  );
  if (meta.expectations !== undefined) facts.push({ label: 'Expectations', value: meta.expectations });
  if (meta.baseline !== undefined) facts.push({ label: 'Baseline', value: `${meta.baseline.file} (run ${meta.baseline.runId})` });
  if (meta.argv.length > 0) facts.push({ label: 'Command', value: `${meta.tool.name} ${meta.argv.join(' ')}` });
  return facts;
}

function selectionFacts(meta: RunMetadata): RunFact[] {
  const sel = meta.selection;
  if (sel === undefined) return [];
  const facts: RunFact[] = [];
  if (sel.only.length > 0) facts.push({ label: 'Only', value: sel.only.join(', ') });
  if (sel.skip.length > 0) facts.push({ label: 'Skipped', value: sel.skip.join(', ') });
  return facts;
}

export interface AreaResults {
  area: Area;
  results: RequirementResult[];
  counts: Record<ResultState, number>;
}

export function emptyCounts(): Record<ResultState, number> {
  return { pass: 0, fail: 0, warn: 0, inconclusive: 0, 'not-run': 0, uncovered: 0, waived: 0 };
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
    group.counts[resultState(r)] += 1;
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

/** A status code with its reason phrase (`401 Unauthorized`). */
export function statusLine(status: number): string {
  return `${status} ${STATUS_CODES[status] ?? ''}`.trim();
}

/** One exchange in one line: `#3 GET https://…/v1/me → 401 Unauthorized · 12 ms`. */
export function exchangeSummary(exchange: Exchange): string {
  const req = exchange.request;
  const outcome = exchange.response !== undefined ? statusLine(exchange.response.status) : `no response (${exchange.error?.code ?? 'error'})`;
  return `#${exchange.seq} ${req.method} ${req.url} → ${outcome} · ${Math.round(exchange.timings.totalMs)} ms`;
}

/**
 * One exchange as text, the way `curl -v` shows one: the request (`>`), the response's status and
 * headers (`<`), an excerpt of its body, or the transport error; then the curl line that sends it
 * again. For the plain-text reports (summary.md, junit.xml); report.html shows the same in parts.
 */
export function exchangeText(exchange: Exchange, bodyChars: number): string {
  const req = exchange.request;
  const res = exchange.response;
  const lines = [exchangeSummary(exchange), `> ${req.method} ${req.url}`, ...Object.entries(req.headers).map(([k, v]) => `> ${k}: ${v}`)];
  if (res === undefined) lines.push(`< no response: ${exchange.error?.code ?? 'error'}: ${exchange.error?.message ?? ''}`);
  else {
    lines.push(`< ${statusLine(res.status)}`, ...Object.entries(res.headers).map(([k, v]) => `< ${k}: ${v}`));
    const body = excerpt(res.body, bodyChars);
    if (body.text !== '') lines.push('', body.text);
    if (body.omitted > 0 || res.truncated) lines.push(`(body cut: ${res.bodyBytes} bytes in all; transcript.har keeps what was recorded)`);
    if (exchange.error !== undefined) lines.push(`(${exchange.error.code}: ${exchange.error.message})`);
  }
  lines.push('', `Reproduce: ${curlOf(exchange)}`);
  return lines.join('\n');
}

/** The heading of a run's stop: where it happened. */
export function stopTitle(stop: RunStop): string {
  return stop.at === 'preflight' ? 'Stopped at the preflight' : 'Cut short';
}

/** What a stop means for the verdicts, and where its exchanges are, after its cause. */
export function stopConsequence(stop: RunStop): string {
  const what = stop.at === 'preflight' ? 'No suite ran: every requirement is not run.' : 'Tests it did not get to are not run or inconclusive.';
  if (stop.exchanges.length === 0) return `${what} No exchange was completed before it.`;
  const which = stop.at === 'preflight' ? "The preflight's exchanges follow" : 'The last exchanges sent before it follow';
  return `${what} ${which}; transcript.har has every exchange of the run.`;
}
