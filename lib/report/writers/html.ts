import type { Coverage } from '../../coverage/coverage.ts';
import { coverageHeadline, dimensionLines, moreLine, unavailableLines, uncoveredGroups } from './coverage-text.ts';
import { curlOf } from '../../http/curl.ts';
import type { Exchange, SseEventRecord } from '../../model/exchange.ts';
import type { Finding } from '../../model/finding.ts';
import { resultState, type Report, type RequirementResult, type ResultState } from '../report-model.ts';
import {
  OUTCOME_LABEL,
  VERDICT_LABEL,
  VERDICT_ORDER,
  certificationText,
  durationText,
  evidenceOf,
  exchangeSummary,
  exitText,
  implementationText,
  outcomeReason,
  reasonOf,
  resultsByArea,
  runFacts,
  shownStates,
  statusLine,
  stopConsequence,
  stopTitle,
  type AreaResults,
} from './run-facts.ts';
import { CERTIFICATE_STYLE, certificateHtml, type CertificatePanel } from './certificate-panel.ts';
import { escapeHtml as h, excerpt, shorten } from './text.ts';
import { diffLines } from '../baseline-diff.ts';
import { notPassed, notPassedCount, notPassedLines, oneLineReason } from '../console-summary.ts';
import { waiverText } from '../expectations.ts';

/** Body characters shown per exchange; the HAR keeps what the transcript has. */
const BODY_CHARS = 4096;
const EVENT_DATA_CHARS = 300;
const EVENTS_SHOWN = 60;
const FINDINGS_SHOWN = 10;

export const STYLE = `
:root { --pass: #1a7f37; --fail: #cf222e; --warn: #9a6700; --inconclusive: #8250df; --not-run: #57606a; --uncovered: #8c959f; --waived: #0969da;
  --line: #d0d7de; --soft: #f6f8fa; --ink: #1f2328; --muted: #59636e; }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; color: var(--ink); background: #fff; }
main { max-width: 1200px; margin: 0 auto; padding: 0 24px 48px; }
code, pre, .mono { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace; font-size: 12px; }
pre { white-space: pre-wrap; overflow-wrap: anywhere; background: var(--soft); border: 1px solid var(--line); border-radius: 6px; padding: 8px 10px; margin: 4px 0 10px; max-height: 32em; overflow: auto; }
h2 { font-size: 20px; margin: 32px 0 8px; padding-bottom: 4px; border-bottom: 1px solid var(--line); }
h2 small { font-size: 13px; font-weight: normal; color: var(--muted); margin-left: 8px; }
h3, h4 { margin: 12px 0 4px; font-size: 14px; }
a { color: #0969da; }
td code, dd code, blockquote code, .reason code, .note code { background: var(--soft); border: 1px solid #eaeef2; border-radius: 4px; padding: 0 3px; }
td.id code { background: none; border: 0; padding: 0; }
.banner { color: #fff; padding: 24px; margin-bottom: 8px; }
.banner > div { max-width: 1200px; margin: 0 auto; }
.banner .kicker { margin: 0; opacity: .9; font-size: 13px; letter-spacing: .02em; }
.banner h1 { margin: 4px 0; font-size: 30px; }
.banner p { margin: 4px 0; }
.banner .ids a { color: #fff; }
.banner .ids code { font-size: 12px; }
.o-conformant { background: var(--pass); }
.o-not-conformant { background: var(--fail); }
.o-incomplete { background: var(--inconclusive); }
.o-partial { background: #0969da; }
.o-refused { background: var(--fail); }
.o-unreachable { background: var(--inconclusive); }
.waiver { font-size: 13px; margin: 2px 0 0; }
.waiver b { font-weight: 600; }
.counts { list-style: none; padding: 0; margin: 10px 0 0; display: flex; flex-wrap: wrap; gap: 6px; }
.counts li { background: rgba(255,255,255,.18); border: 1px solid rgba(255,255,255,.5); border-radius: 12px; padding: 1px 10px; font-size: 13px; }
.facts { display: grid; grid-template-columns: max-content 1fr; gap: 2px 16px; margin: 0; }
.facts dt { font-weight: 600; color: var(--muted); }
.facts dd { margin: 0; overflow-wrap: anywhere; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; vertical-align: top; padding: 6px 8px; border-bottom: 1px solid var(--line); }
th { background: var(--soft); font-size: 12px; text-transform: uppercase; letter-spacing: .03em; color: var(--muted); }
td.id { white-space: nowrap; }
.num { text-align: right; font-variant-numeric: tabular-nums; }
table.reqs td.id code { font-size: 12px; }
table.reqs col.c-id { width: 26%; } table.reqs col.c-level { width: 7%; } table.reqs col.c-section { width: 5%; } table.reqs col.c-verdict { width: 10%; }
tbody.v-fail > tr:first-child { background: #ffebe9; }
tbody.v-warn > tr:first-child { background: #fff8c5; }
tbody.v-inconclusive > tr:first-child { background: #fbefff; }
tr.evidence > td { padding-top: 0; background: #fff; }
.badge { display: inline-block; min-width: 5.5em; text-align: center; border-radius: 12px; padding: 0 8px; font-size: 12px; font-weight: 600; color: #fff; white-space: nowrap; }
.badge.v-pass { background: var(--pass); } .badge.v-fail { background: var(--fail); } .badge.v-warn { background: var(--warn); }
.badge.v-inconclusive { background: var(--inconclusive); } .badge.v-not-run { background: var(--not-run); }
.badge.v-uncovered { background: #fff; color: var(--not-run); border: 1px dashed var(--uncovered); }
.badge.v-waived { background: #fff; color: var(--waived); border: 1px solid var(--waived); }
.level { font-size: 12px; font-weight: 600; }
.reason, .note { color: var(--muted); font-size: 13px; margin: 2px 0 0; }
details { margin: 4px 0; }
details > summary { cursor: pointer; color: #0969da; }
details.evidence > summary { font-weight: 600; }
details.exchange { border-left: 3px solid var(--line); padding-left: 10px; margin: 8px 0; }
details.exchange > summary { color: var(--ink); }
blockquote { margin: 6px 0; padding: 2px 12px; border-left: 3px solid var(--line); color: var(--muted); }
.finding { border: 1px solid var(--line); border-radius: 6px; padding: 8px 12px; margin: 8px 0; }
.finding dl { display: grid; grid-template-columns: max-content 1fr; gap: 2px 12px; margin: 6px 0; }
.finding dt { font-weight: 600; }
.finding dd { margin: 0; overflow-wrap: anywhere; }
.two { display: grid; grid-template-columns: 1fr 1fr; gap: 12px; }
@media (max-width: 800px) { .two { grid-template-columns: 1fr; } }
table.events td, table.events th { padding: 2px 6px; font-size: 12px; }
table.events td.data { font-family: ui-monospace, Menlo, Consolas, monospace; overflow-wrap: anywhere; }
.filters { position: sticky; top: 0; background: #fff; border-bottom: 1px solid var(--line); padding: 8px 0; z-index: 1; }
.filters label { margin-right: 12px; white-space: nowrap; }
${VERDICT_ORDER.map((v) => `body.hide-${v} tbody.v-${v}`).join(', ')} { display: none; }
@media print {
  body { font-size: 10pt; }
  main { max-width: none; padding: 0; }
  .filters { display: none; }
  .banner, .badge, tbody > tr:first-child { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
  details::details-content { content-visibility: visible; display: block; }
  details > summary { color: var(--ink); }
  pre { max-height: none; overflow: visible; }
  tbody, .finding, pre { break-inside: avoid-page; }
  h2 { break-after: avoid-page; }
  a { color: inherit; text-decoration: none; }
}
`;

/** Filters only: the report reads the same without it. */
const SCRIPT = `
const bar = document.getElementById('filters');
bar.hidden = false;
for (const box of bar.querySelectorAll('input[type=checkbox]')) {
  box.addEventListener('change', () => document.body.classList.toggle('hide-' + box.value, !box.checked));
}
`;

/** Escaped text where `code spans` (as the catalogue and checkers write them) become <code>. */
export function prose(text: string): string {
  return h(text).replace(/`([^`]+)`/g, '<code>$1</code>');
}

function badge(verdict: ResultState): string {
  return `<span class="badge v-${verdict}">${h(VERDICT_LABEL[verdict])}</span>`;
}

/** The id of a requirement's row: other pages (the matrix) link to `report.html#r-<id>`. */
export function anchorOf(id: string): string {
  return `r-${id}`;
}

function headerLines(headers: Record<string, string>): string {
  return Object.entries(headers)
    .map(([k, v]) => `${k}: ${v}`)
    .join('\n');
}

function bodyBlock(body: string, totalBytes: number | undefined, truncatedBefore: boolean): string {
  if (body === '') return '<p class="note">Empty body.</p>';
  const cut = excerpt(body, BODY_CHARS);
  const notes: string[] = [];
  if (cut.omitted > 0) notes.push(`${cut.omitted} more characters not shown`);
  if (truncatedBefore) notes.push(`recorded excerpt of ${totalBytes ?? '?'} bytes`);
  const note = notes.length === 0 ? '' : `<p class="note">Body cut: ${h(notes.join('; '))}; transcript.har keeps what was recorded.</p>`;
  return `<pre>${h(cut.text)}</pre>${note}`;
}

function eventsTable(events: readonly SseEventRecord[]): string {
  const rows = events.slice(0, EVENTS_SHOWN).map((e) => {
    const data = excerpt(e.data, EVENT_DATA_CHARS);
    const more = data.omitted > 0 ? ` … (${data.omitted} more)` : '';
    return `<tr><td class="num">${e.atMs}</td><td><code>${h(e.event)}</code></td><td>${e.id === undefined ? '' : `<code>${h(e.id)}</code>`}</td><td class="data">${h(data.text)}${h(more)}</td></tr>`;
  });
  const more = events.length > EVENTS_SHOWN ? `<p class="note">${events.length - EVENTS_SHOWN} more events not shown.</p>` : '';
  return `<h4>Events (${events.length})</h4><table class="events"><thead><tr><th>ms</th><th>event</th><th>id</th><th>data</th></tr></thead><tbody>${rows.join('')}</tbody></table>${more}`;
}

function streamFacts(exchange: Exchange): string {
  const res = exchange.response;
  if (res === undefined || (res.chunkTimes === undefined && res.streamClosed === undefined)) return '';
  const facts: string[] = [];
  const times = res.chunkTimes ?? [];
  if (times.length > 0) facts.push(`${times.length} chunks, first at ${times[0]} ms, last at ${times[times.length - 1]} ms`);
  if (res.streamClosed !== undefined) facts.push(res.streamClosed ? 'the server closed the stream' : 'the stream was still open when reading stopped');
  return `<p class="note">${h(facts.join('; '))}.</p>`;
}

function exchangeHtml(exchange: Exchange, open: boolean): string {
  const req = exchange.request;
  const res = exchange.response;
  const who = [
    `token ${req.tokenRole ?? 'none'}`,
    ...(exchange.pool === undefined ? [] : [`pool ${exchange.pool}`]),
    `started ${exchange.startedAt}`,
    ...(exchange.timings.headersMs === undefined ? [] : [`headers after ${Math.round(exchange.timings.headersMs)} ms`]),
  ].join(' · ');
  const request = [
    `<h4>Request</h4><pre>${h(`${req.method} ${req.url}\n${headerLines(req.headers)}`)}</pre>`,
    req.body === undefined ? '' : bodyBlock(req.body, undefined, false),
  ].join('');
  let response: string;
  if (res === undefined) response = '<h4>Response</h4><p class="note">None.</p>';
  else {
    response = [
      `<h4>Response</h4><pre>${h(`${statusLine(res.status)}\n${headerLines(res.headers)}`)}</pre>`,
      bodyBlock(res.body, res.bodyBytes, res.truncated),
      streamFacts(exchange),
    ].join('');
  }
  const error = exchange.error === undefined ? '' : `<p><strong>Transport error</strong> <code>${h(exchange.error.code)}</code>: ${h(exchange.error.message)}</p>`;
  const events = res?.events === undefined ? '' : eventsTable(res.events);
  return [
    `<details class="exchange"${open ? ' open' : ''}><summary class="mono">${h(exchangeSummary(exchange))}</summary>`,
    `<p class="note">${h(who)}</p>${error}`,
    `<div class="two"><div>${request}</div><div>${response}</div></div>`,
    events,
    `<h4>Reproduce</h4><pre>${h(curlOf(exchange))}</pre>`,
    '</details>',
  ].join('');
}

function findingHtml(result: RequirementResult, finding: Finding, index: number, total: number): string {
  // A SHOULD or INFO failure is a warning, an expected one is waived: the badge says what it does to the run.
  const state = resultState(result);
  const verdict = state === 'waived' ? 'waived' : result.verdict === 'warn' && finding.verdict === 'fail' ? 'warn' : finding.verdict;
  const why = state === 'waived' ? 'An expected result (waived): it does not fail the run.' : `A failed ${result.requirement.level} requirement: a warning, it does not fail the run.`;
  const rows: string[] = [];
  if (finding.expected !== undefined) rows.push(`<dt>Expected</dt><dd>${prose(finding.expected)}</dd>`);
  if (finding.actual !== undefined) rows.push(`<dt>Actual</dt><dd>${prose(finding.actual)}</dd>`);
  if (finding.note !== undefined) rows.push(`<dt>Note</dt><dd>${prose(finding.note)}</dd>`);
  const p = finding.property;
  if (p !== undefined) {
    rows.push(`<dt>Property</dt><dd>seed <code>${p.seed}</code>${p.path === undefined ? '' : `, path <code>${h(p.path)}</code>`}, ${p.numRuns} runs, ${p.requests} requests</dd>`);
    if (p.counterexample !== undefined) rows.push(`<dt>Counterexample</dt><dd><pre>${h(p.counterexample)}</pre></dd>`);
    if (p.replay !== undefined) rows.push(`<dt>Replay</dt><dd><code>${h(`asi-conformance run ... ${p.replay}`)}</code></dd>`);
  }
  const title = total > 1 ? `Finding ${index + 1} of ${total} ` : 'Finding ';
  const exchanges = finding.exchanges.map((e, i) => exchangeHtml(e, i === finding.exchanges.length - 1)).join('');
  return [
    `<div class="finding"><h3>${h(title)}${badge(verdict)}</h3>`,
    verdict === finding.verdict ? '' : `<p class="note">${h(why)}</p>`,
    rows.length === 0 ? '' : `<dl>${rows.join('')}</dl>`,
    finding.exchanges.length === 0 ? '<p class="note">No request shows this finding.</p>' : exchanges,
    '</div>',
  ].join('');
}

function evidenceHtml(result: RequirementResult, findings: readonly Finding[]): string {
  const shown = findings.slice(0, FINDINGS_SHOWN);
  const exchangeCount = findings.reduce((n, f) => n + f.exchanges.length, 0);
  const summary = `Evidence: ${findings.length} finding${findings.length === 1 ? '' : 's'}, ${exchangeCount} exchange${exchangeCount === 1 ? '' : 's'}`;
  const quote = result.requirement.quote === undefined ? '' : `<blockquote>§${h(result.requirement.section)}: ${prose(result.requirement.quote)}</blockquote>`;
  const tests = result.tests.length === 0 ? '' : `<p class="note">Checked by: ${result.tests.map((t) => `<code>${h(t)}</code>`).join(', ')}</p>`;
  const more = findings.length > FINDINGS_SHOWN ? `<p class="note">${findings.length - FINDINGS_SHOWN} more findings in report.json.</p>` : '';
  return [
    `<details class="evidence"><summary>${h(summary)}</summary>`,
    quote,
    tests,
    shown.map((f, i) => findingHtml(result, f, i, findings.length)).join(''),
    more,
    '</details>',
  ].join('');
}

function resultHtml(result: RequirementResult): string {
  const req = result.requirement;
  const reason = reasonOf(result);
  const notes = result.verdict === 'pass' ? result.findings.flatMap((f) => (f.note === undefined ? [] : [f.note])) : [];
  const under = [
    ...(result.waiver === undefined ? [] : [`<p class="waiver"><b>${h(result.waiver.state)}</b> ${h(waiverText(result.waiver))}</p>`]),
    ...(reason === undefined ? [] : [`<p class="reason">${prose(reason)}</p>`]),
    ...notes.map((n) => `<p class="note">Note: ${prose(n)}</p>`),
  ].join('');
  const row = [
    `<tr id="${h(anchorOf(req.id))}">`,
    `<td class="id"><code>${h(req.id)}</code></td>`,
    `<td class="level">${h(req.level)}</td>`,
    `<td>§${h(req.section)}</td>`,
    `<td>${prose(req.statement)}${under}</td>`,
    `<td>${badge(resultState(result))}</td>`,
    '</tr>',
  ].join('');
  const findings = evidenceOf(result);
  const evidence = findings.length === 0 ? '' : `<tr class="evidence"><td colspan="5">${evidenceHtml(result, findings)}</td></tr>`;
  return `<tbody class="v-${resultState(result)}">${row}${evidence}</tbody>`;
}

function countsText(counts: Record<ResultState, number>): string {
  return VERDICT_ORDER.filter((v) => counts[v] > 0)
    .map((v) => `${counts[v]} ${VERDICT_LABEL[v]}`)
    .join(' · ');
}

function areaHtml(group: AreaResults): string {
  return [
    `<section id="area-${h(group.area)}"><h2>${h(group.area)}<small>${h(countsText(group.counts))}</small></h2>`,
    '<table class="reqs"><colgroup><col class="c-id"><col class="c-level"><col class="c-section"><col><col class="c-verdict"></colgroup>',
    '<thead><tr><th>Requirement</th><th>Level</th><th>§</th><th>Statement</th><th>Verdict</th></tr></thead>',
    group.results.map(resultHtml).join('\n'),
    '</table></section>',
  ].join('\n');
}

function bannerHtml(report: Report): string {
  const problems = report.results.filter((r) => (r.verdict === 'fail' && r.waiver?.state !== 'waived') || report.incomplete.some((i) => i.id === r.requirement.id));
  const links = problems
    .slice(0, 30)
    .map((r) => `<a href="#${h(anchorOf(r.requirement.id))}"><code>${h(r.requirement.id)}</code></a>`)
    .join(', ');
  const more = problems.length > 30 ? ` and ${problems.length - 30} more` : '';
  return [
    `<header class="banner o-${report.outcome}"><div>`,
    `<p class="kicker">Agents Service Interface v1 · conformance report · ${h(report.meta.target.baseUrl)}</p>`,
    `<h1>${h(OUTCOME_LABEL[report.outcome])}${report.meta.target.embedded ? ' <small>(the embedded reference: a demo)</small>' : ''}</h1>`,
    `<p>${h(outcomeReason(report))} · ${h(certificationText(report.meta))} · ${h(exitText(report))}</p>`,
    report.meta.implementation === undefined ? '' : `<p>Implementation under test: <b>${h(implementationText(report.meta.implementation))}</b></p>`,
    problems.length === 0 ? '' : `<p class="ids">${links}${h(more)}</p>`,
    `<ul class="counts">${shownStates(report.counts).map((v) => `<li>${report.counts[v]} ${h(VERDICT_LABEL[v])}</li>`).join('')}</ul>`,
    '</div></header>',
  ].join('\n');
}

/** Why the run ended early (target text: escaped), and the exchanges that led there, open. */
function stopHtml(report: Report): string {
  const stop = report.stopped;
  if (stop === undefined) return '';
  return [
    `<section id="stopped"><h2>${h(stopTitle(stop))}</h2>`,
    `<pre>${h(stop.reason)}</pre>`,
    `<p class="note">${h(stopConsequence(stop))}</p>`,
    stop.exchanges.map((e) => exchangeHtml(e, true)).join(''),
    '</section>',
  ].join('');
}

function areasOverview(groups: readonly AreaResults[], states: readonly ResultState[]): string {
  const rows = groups.map(
    (g) => `<tr><td><a href="#area-${h(g.area)}">${h(g.area)}</a></td>${states.map((v) => `<td class="num">${g.counts[v] || ''}</td>`).join('')}</tr>`,
  );
  return [
    '<section id="areas"><h2>Areas</h2><table>',
    `<thead><tr><th>Area</th>${states.map((v) => `<th class="num">${h(VERDICT_LABEL[v])}</th>`).join('')}</tr></thead>`,
    `<tbody>${rows.join('')}</tbody></table></section>`,
  ].join('');
}

/** Groups of pairs not reached with this many or fewer show their names open. */
const OPEN_GROUP = 10;

/** The Coverage section: the headline, a row per dimension, the pairs not reached grouped by why. */
function coverageHtml(c: Coverage): string {
  const rows = dimensionLines(c)
    .map((d) => `<tr><th>${h(d.name)}</th><td>${h(d.reached)}</td><td>${h(d.missing === '' ? '—' : d.missing)}</td></tr>`)
    .join('');
  // A group folds its names away once they are more than a glance takes in.
  const groups = uncoveredGroups(c)
    .map((g) => {
      const items = [...g.named, ...(g.more > 0 ? [moreLine(g.more)] : [])].map((l) => `<li>${h(l)}</li>`).join('');
      return `<details class="uncovered"${g.named.length + g.more <= OPEN_GROUP ? ' open' : ''}><summary>${h(g.headline)}</summary><ul>${items}</ul></details>`;
    })
    .join('');
  const unavailable = unavailableLines(c);
  const list = unavailable.length === 0 ? '' : `<ul>${unavailable.map((l) => `<li>${h(l)}</li>`).join('')}</ul>`;
  return `<section id="coverage"><h2>Coverage<small>${h(coverageHeadline(c))}</small></h2><table><tr><th>Dimension</th><th>Values reached (exchanges)</th><th>Not reached</th></tr>${rows}</table>${groups}${list}</section>`;
}

/** A reason in the Not passed table is cut here; the requirement's row below holds the evidence. */
const REASON_CHARS = 400;

/**
 * What did not pass, as the console's closing list has it, for a reader: a row each with its
 * verdict, its id linking to its row below, its level and its first reason. A run that ran nothing
 * or that nothing failed says so in the console's one line.
 */
function notPassedHtml(report: Report): string {
  const [headline, ...lines] = notPassedLines(report);
  if (headline === undefined) return '';
  if (lines.length === 0) return `<section id="not-passed"><h2>Not passed</h2><p>${h(headline)}</p></section>`;
  const body = report.results
    .filter(notPassed)
    .map((r) => {
      const waiver = r.waiver !== undefined && r.waiver.state !== 'unmet' ? ` <b>${h(r.waiver.state)}</b>` : '';
      const id = r.requirement.id;
      return `<tr><td>${badge(r.verdict)}${waiver}</td><td class="id"><a href="#${h(anchorOf(id))}"><code>${h(id)}</code></a></td><td>${h(r.requirement.level)}</td><td>${h(shorten(oneLineReason(r), REASON_CHARS))}</td></tr>`;
    })
    .join('');
  return `<section id="not-passed"><h2>Not passed<small>${h(notPassedCount(report))}</small></h2><table class="not-passed"><thead><tr><th>Verdict</th><th>Requirement</th><th>Level</th><th>Why</th></tr></thead><tbody>${body}</tbody></table></section>`;
}

function filtersHtml(states: readonly ResultState[]): string {
  const boxes = states.map((v) => `<label><input type="checkbox" value="${v}" checked> ${badge(v)}</label>`).join('');
  return `<div class="filters" id="filters" hidden>Show: ${boxes}</div>`;
}

/**
 * report.html: one self-contained file (inline style, no external asset; the small script only
 * filters rows). Every requirement of the catalogue with its verdict; evidence of each failure,
 * warning and inconclusive folds open. Everything from the target is escaped. With a certificate,
 * a panel under the run's facts names the certification bundle and how to verify it.
 */
export function reportHtml(report: Report, certificate?: CertificatePanel): string {
  const meta = report.meta;
  const groups = resultsByArea(report.results);
  const facts = runFacts(meta)
    .map((f) => `<dt>${h(f.label)}</dt><dd>${h(f.value)}</dd>`)
    .join('');
  const runErrors =
    report.runErrors.length === 0
      ? ''
      : `<section id="run-errors"><h2>Run errors</h2><ul>${report.runErrors.map((e) => `<li><code>${h(e)}</code></li>`).join('')}</ul></section>`;
  const title = `ASI v1 conformance: ${OUTCOME_LABEL[report.outcome]} · ${meta.implementation === undefined ? meta.target.baseUrl : implementationText(meta.implementation)}`;
  const listSection = notPassedHtml(report);
  const baseline =
    report.baselineDiff === undefined ? '' : `<section id="baseline"><h2>Compared with the baseline</h2><pre>${h(diffLines(report.baselineDiff).join('\n'))}</pre></section>`;
  return [
    '<!doctype html>',
    '<html lang="en"><head><meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${h(title)}</title>`,
    `<style>${STYLE}${certificate === undefined ? '' : CERTIFICATE_STYLE}</style></head>`,
    '<body>',
    bannerHtml(report),
    '<main>',
    stopHtml(report),
    `<section id="run"><h2>Run<small>${h(durationText(meta.durationMs))}</small></h2><dl class="facts">${facts}</dl></section>`,
    certificate === undefined ? '' : certificateHtml(certificate, report),
    runErrors,
    listSection,
    baseline,
    report.coverage === undefined ? '' : coverageHtml(report.coverage),
    areasOverview(groups, shownStates(report.counts)),
    filtersHtml(shownStates(report.counts)),
    groups.map(areaHtml).join('\n'),
    '</main>',
    `<script>${SCRIPT}</script>`,
    '</body></html>',
    '',
  ].join('\n');
}
