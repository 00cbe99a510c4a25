import { waiverText } from '../report/expectations.ts';
import { STYLE, anchorOf, prose } from '../report/writers/html.ts';
import { escapeHtml as h } from '../report/writers/text.ts';
import { clientConsoleText, exitText, type ClientReport, type GradedVerdict } from './client-report.ts';
import { TIMELINE_STYLE, timelineSvg } from './timeline-svg.ts';

const OUTCOME = { conformant: 'Conformant', 'not-conformant': 'Not conformant', 'nothing-judged': 'Nothing judged' } as const;
/** The banner classes of the run's report: nothing judged reads as an incomplete run. */
const BANNER = { conformant: 'o-conformant', 'not-conformant': 'o-not-conformant', 'nothing-judged': 'o-incomplete' } as const;
const LABEL = { pass: 'pass', fail: 'fail', warn: 'warn', 'not-run': 'not run' } as const;

function verdictRow(v: GradedVerdict): string {
  const state = v.waiver?.state === 'waived' ? 'waived' : v.verdict;
  const badge = `<span class="badge v-${state}">${h(state === 'waived' ? 'waived' : LABEL[v.verdict])}</span>`;
  const failing = v.findings.filter((f) => f.verdict === 'fail');
  const evidence = failing
    .map((f) => `<div class="finding"><p><b>${h(f.scenario)}</b>: ${prose(f.reason)} <a href="#scenario-${h(f.scenario)}">timeline</a></p><pre>${h(f.timeline.join('\n'))}</pre></div>`)
    .join('');
  const quote = v.requirement.quote === undefined || failing.length === 0 ? '' : `<blockquote>§${h(v.requirement.section)}: ${prose(v.requirement.quote)}</blockquote>`;
  const waiver = v.waiver === undefined ? '' : `<p class="waiver">${h(waiverText(v.waiver))}</p>`;
  return [
    `<tbody class="v-${state}" id="${h(anchorOf(v.requirement.id))}"><tr>`,
    `<td class="id"><code>${h(v.requirement.id)}</code></td><td class="level">${h(v.requirement.level)}</td><td>§${h(v.requirement.section)}</td><td>${badge}</td>`,
    `<td>${prose(v.requirement.statement)}<p class="reason">${prose(v.reason)}</p>${waiver}${quote}${evidence}</td>`,
    '</tr></tbody>',
  ].join('');
}

function scenarioSection(report: ClientReport, index: number): string {
  const run = report.scenarios[index]!;
  const judged = report.verdicts.flatMap((v) =>
    v.findings.filter((f) => f.scenario === run.scenario && f.verdict === 'fail' && f.at !== undefined).map((f) => ({ at: f.at!, requirement: v.requirement.id, verdict: v.verdict })),
  );
  const caption = `Requests of scenario ${run.scenario} over time, seconds from its first request, in the lane of the rate pool each spends. Shaded: a pool the script refused, up to the end of its Retry-After. Marks: circle answered 2xx, triangle 429, square other 4xx, diamond 5xx; a ring marks the request a failing requirement judged.`;
  return [
    `<section id="scenario-${h(run.scenario)}"><h3>Scenario ${h(run.scenario)} <small>${run.trace.length} request(s), the client ${h(exitText(run.exit))}</small></h3>`,
    `<figure>${timelineSvg(run.scenario, run.trace, judged)}<figcaption class="legend">${h(caption)}</figcaption></figure>`,
    '</section>',
  ].join('\n');
}

/** report.html of a client grading: the run report's look, a timeline picture per scenario, one row per client requirement. */
export function clientHtml(report: ClientReport): string {
  const facts: Array<[string, string]> = [
    ['command', report.command.join(' ')],
    ['scenarios', report.scenarios.map((s) => s.scenario).join(', ')],
    ['seed', String(report.seed)],
    ['started', report.startedAt],
    ['harness', `${report.harness.name} ${report.harness.version}`],
    ...(report.expectations === undefined ? [] : [['expectations', report.expectations] as [string, string]]),
  ];
  const count = (verdict: string): number => report.verdicts.filter((v) => v.verdict === verdict).length;
  const title = `ASI v1 client grading: ${OUTCOME[report.outcome]} · ${report.command.join(' ')}`;
  return [
    '<!doctype html>',
    '<html lang="en"><head><meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${h(title)}</title>`,
    `<style>${STYLE}${TIMELINE_STYLE}</style></head>`,
    '<body>',
    `<header class="banner ${BANNER[report.outcome]}"><div>`,
    `<p class="kicker">Agents Service Interface v1 · client grading · exit ${report.exitCode}</p>`,
    `<h1>${h(OUTCOME[report.outcome])}</h1>`,
    `<ul class="counts">${(['pass', 'fail', 'warn', 'not-run'] as const).map((v) => `<li>${count(v)} ${LABEL[v]}</li>`).join('')}</ul>`,
    '</div></header>',
    '<main>',
    `<section id="run"><h2>Run</h2><dl class="facts">${facts.map(([k, v]) => `<dt>${h(k)}</dt><dd>${h(v)}</dd>`).join('')}</dl></section>`,
    `<section id="timelines"><h2>Scenarios</h2>${report.scenarios.map((_, i) => scenarioSection(report, i)).join('\n')}</section>`,
    '<section id="requirements"><h2>Client requirements</h2><table class="reqs"><thead><tr><th>Requirement</th><th>Level</th><th>§</th><th>Verdict</th><th>What it asks, and what was found</th></tr></thead>',
    report.verdicts.map(verdictRow).join('\n'),
    '</table></section>',
    `<section id="summary"><h2>Summary</h2><pre>${h(clientConsoleText(report))}</pre></section>`,
    '</main>',
    '</body></html>',
    '',
  ].join('\n');
}
