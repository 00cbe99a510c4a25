import type { ResultState } from '../report/report-model.ts';
import { prose } from '../report/writers/html.ts';
import { OUTCOME_LABEL, VERDICT_LABEL, VERDICT_ORDER } from '../report/writers/run-facts.ts';
import { escapeHtml as h } from '../report/writers/text.ts';
import { EXIT_WORDS, STATE_LABEL, type Matrix, type MatrixCell, type MatrixColumn, type MatrixRow } from './matrix-model.ts';
import { plural } from '../model/words.ts';

/**
 * matrix.html: one self-contained page (inline style, no script, no external asset) comparing
 * implementations requirement by requirement. First the requirements on which they disagree (the
 * spec's weak points, or an implementation's), then the implementations (one row each: label,
 * version, outcome, bundle, harness, run), then every requirement by area with a summary row per
 * area. Each cell links to the requirement's row
 * in that run's report.html. Everything that came from a target or a bundle is escaped.
 */

const STYLE = `
:root { --pass: #1a7f37; --fail: #cf222e; --warn: #9a6700; --inconclusive: #8250df; --not-run: #57606a; --uncovered: #8c959f;
  --line: #d0d7de; --soft: #f6f8fa; --ink: #1f2328; --muted: #59636e; }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; color: var(--ink); background: #fff; }
main { padding: 0 24px 48px; }
code, .mono { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace; font-size: 12px; }
h2 { font-size: 20px; margin: 32px 0 8px; padding-bottom: 4px; border-bottom: 1px solid var(--line); }
h2 small { font-size: 13px; font-weight: normal; color: var(--muted); margin-left: 8px; }
a { color: #0969da; }
.banner { background: #24292f; color: #fff; padding: 20px 24px; }
.banner .kicker { margin: 0; opacity: .85; font-size: 13px; }
.banner h1 { margin: 4px 0; font-size: 28px; }
.banner p { margin: 4px 0; }
.note { color: var(--muted); font-size: 13px; margin: 4px 0 10px; }
table { border-collapse: collapse; }
th, td { text-align: left; vertical-align: top; padding: 5px 8px; border-bottom: 1px solid var(--line); }
thead th { background: var(--soft); font-size: 12px; color: var(--muted); vertical-align: bottom; }
table.impls { width: 100%; }
table.impls td { font-size: 13px; overflow-wrap: break-word; }
.matrix-wrap { overflow-x: auto; }
table.matrix th.col { min-width: 9em; max-width: 14em; vertical-align: bottom; text-transform: none; letter-spacing: 0; }
table.matrix th.col a { color: var(--ink); font-size: 13px; }
table.matrix th.col small { display: block; font-weight: normal; overflow-wrap: anywhere; }
table.matrix td.req { min-width: 22em; max-width: 40em; }
table.matrix td.req .statement { color: var(--muted); font-size: 12px; }
table.matrix td.req .level { font-size: 11px; font-weight: 600; margin-left: 6px; }
table.matrix td.req .section { font-size: 11px; color: var(--muted); margin-left: 4px; }
tr.summary th, tr.summary td { background: var(--soft); border-top: 2px solid var(--line); font-size: 12px; }
tr.summary th { font-size: 14px; }
tr.disagree td.req { border-left: 4px solid var(--warn); }
td.cell { white-space: nowrap; font-size: 12px; font-weight: 600; }
td.cell a { text-decoration: none; color: inherit; }
td.cell a:hover { text-decoration: underline; }
td.cell.v-pass { color: var(--pass); } td.cell.v-fail { color: #fff; background: var(--fail); }
td.cell.v-warn { color: #fff; background: var(--warn); } td.cell.v-inconclusive { color: #fff; background: var(--inconclusive); }
td.cell.v-not-run { color: var(--not-run); } td.cell.v-uncovered { color: var(--uncovered); }
td.cell.unchosen { color: var(--uncovered); font-weight: normal; background: none; }
td.none { color: var(--uncovered); }
.outcome { display: inline-block; border-radius: 12px; padding: 0 8px; font-size: 12px; font-weight: 600; color: #fff; white-space: nowrap; }
.o-conformant { background: var(--pass); } .o-not-conformant { background: var(--fail); } .o-incomplete { background: var(--inconclusive); }
.o-partial { background: #0969da; } .o-refused, .o-unreachable { background: var(--inconclusive); }
.o-does-not-verify, .o-no-report, .o-not-started { background: var(--not-run); }
.state-bad { color: var(--fail); font-weight: 600; }
.dup { color: var(--warn); font-weight: 600; }
@media print {
  main { padding: 0; }
  .banner, .outcome, td.cell { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
  .matrix-wrap { overflow: visible; }
  a { color: inherit; text-decoration: none; }
}
`;

/** A link as the page writes it: percent-encoded where a path needs it, then escaped for the attribute. */
function link(href: string): string {
  return h(encodeURI(href));
}

function countsText(counts: Record<ResultState, number>): string {
  const parts = VERDICT_ORDER.filter((v) => counts[v] > 0).map((v) => `${counts[v]} ${VERDICT_LABEL[v]}`);
  return parts.length === 0 ? 'none chosen' : parts.join(', ');
}

/** The column's badge: its outcome when it has verdicts, else its state. */
function outcomeBadge(c: MatrixColumn): string {
  if (c.state === 'verified' && c.outcome !== undefined) return `<span class="outcome o-${c.outcome}">${h(OUTCOME_LABEL[c.outcome])}</span>`;
  return `<span class="outcome o-${c.state}">${h(STATE_LABEL[c.state])}</span>`;
}

function implementationText(c: MatrixColumn): string {
  return [c.label, c.version === undefined ? undefined : `version ${c.version}`].filter((x) => x !== undefined).join(', ');
}

function duplicateText(c: MatrixColumn, byId: ReadonlyMap<string, MatrixColumn>): string {
  if (c.duplicateOf === undefined) return '';
  const names = c.duplicateOf.map((id) => byId.get(id)?.name ?? id);
  return `<br><span class="dup">duplicate</span>: the same implementation or bundle as ${names.map((n) => `<b>${h(n)}</b>`).join(', ')}`;
}

function bundleCell(c: MatrixColumn): string {
  const b = c.bundle;
  const state = c.state === 'verified' ? 'verified: its digests match, its verdicts re-derive from its evidence' : c.state === 'does-not-verify' ? `<span class="state-bad">does not verify</span>${c.problems === undefined ? '' : ` (${plural(c.problems, 'problem')})`}: ${h(c.reason ?? '')}` : '';
  if (b === undefined) return state === '' ? '—' : state;
  const name = b.href === undefined ? `<code>${h(b.source)}</code>` : `<a href="${link(b.href)}"><code>${h(b.href)}</code></a>`;
  const signature =
    b.signature === 'verified'
      ? `signed, key <code>${h((b.keyid ?? '').slice(0, 16))}…</code> verified`
      : b.signature === 'not-checked'
        ? `signed, key <code>${h((b.keyid ?? '').slice(0, 16))}…</code> not checked (no public key given)`
        : b.signature === 'failed'
          ? '<span class="state-bad">signature does not verify</span>'
          : 'unsigned';
  return `${name}<br>sha256 <code title="${h(b.sha256)}">${h(b.sha256.slice(0, 16))}…</code> · ${signature}<br>${state}`;
}

function runCell(c: MatrixColumn): string {
  // A bundle that does not verify says why under Bundle; a run without a report, here.
  if (c.run === undefined) return c.state === 'no-report' || c.state === 'not-started' ? h(c.reason ?? '') : '—';
  const r = c.run;
  const report = c.report === undefined ? '' : ` · <a href="${link(c.report)}">report.html</a>`;
  return [
    `<code>${h(r.id)}</code>${report}`,
    `${h(r.baseUrl)}${r.embedded ? ' (embedded reference)' : ''}`,
    `started ${h(r.startedAt)} · seed ${r.seed}${r.partial ? ` · partial: ${h(r.suites.join(', '))}` : ''}`,
  ].join('<br>');
}

function implementationsHtml(m: Matrix): string {
  const byId = new Map(m.columns.map((c) => [c.id, c]));
  const rows = m.columns.map((c) => {
    // A run the preflight ended: why, before whether it certifies.
    const stopped = c.state === 'verified' && c.reason !== undefined ? h(c.reason) : undefined;
    const why = stopped ?? (c.certifying === true ? 'a certification' : c.notCertifyingBecause?.[0] === undefined ? '' : `not a certification: ${h(c.notCertifyingBecause[0])}`);
    const harness = c.harness === undefined ? '—' : `${h(c.harness.name)} ${h(c.harness.version)}${c.harness.sameBuild ? ' (this build)' : ' (another build)'}`;
    return [
      `<tr id="c-${h(c.id)}">`,
      `<td><b>${h(c.name)}</b>${duplicateText(c, byId)}</td>`,
      `<td>${h(implementationText(c)) || '—'}</td>`,
      `<td>${outcomeBadge(c)}${c.exitCode === undefined ? '' : ` exit ${c.exitCode}`}${why === '' ? '' : `<br><small>${why}</small>`}</td>`,
      `<td>${c.counts === undefined ? '—' : h(countsText(c.counts))}</td>`,
      `<td>${bundleCell(c)}</td>`,
      `<td>${harness}</td>`,
      `<td>${runCell(c)}</td>`,
      '</tr>',
    ].join('');
  });
  return [
    '<section id="implementations"><h2>Implementations</h2>',
    '<table class="impls"><thead><tr><th>Column</th><th>Implementation</th><th>Outcome</th><th>Verdicts</th><th>Bundle</th><th>Harness</th><th>Run</th></tr></thead>',
    `<tbody>${rows.join('\n')}</tbody></table></section>`,
  ].join('\n');
}

function columnHeads(m: Matrix): string {
  return m.columns
    .map((c) => {
      // A merged column is named after its label and version already.
      const impl = c.name === [c.label, c.version].filter((x) => x !== undefined).join(' ') ? '' : implementationText(c);
      return `<th class="col" scope="col"><a href="#c-${h(c.id)}">${h(c.name)}</a><small>${h(impl)}</small>${outcomeBadge(c)}</th>`;
    })
    .join('');
}

function cellHtml(cell: MatrixCell | undefined, column: MatrixColumn): string {
  if (cell === undefined) return `<td class="none" title="${h(column.reason ?? STATE_LABEL[column.state])}">—</td>`;
  const waived = cell.waiver === undefined ? '' : ` · ${cell.waiver}`;
  const text = cell.unchosen === true ? 'not chosen' : `${VERDICT_LABEL[cell.verdict]}${waived}`;
  const inner = cell.href === undefined ? h(text) : `<a href="${link(cell.href)}">${h(text)}</a>`;
  return `<td class="cell v-${cell.verdict}${cell.unchosen === true ? ' unchosen' : ''}">${inner}</td>`;
}

function rowHtml(row: MatrixRow, m: Matrix, anchor: string): string {
  const req = [
    `<td class="req"><code>${h(row.id)}</code><span class="level">${h(row.level)}</span><span class="section">§${h(row.section)}</span>`,
    `<div class="statement">${prose(row.statement)}</div></td>`,
  ].join('');
  const cells = m.columns.map((c) => cellHtml(row.cells[c.id], c)).join('');
  return `<tr id="${h(anchor)}"${row.disagree ? ' class="disagree"' : ''}>${req}${cells}</tr>`;
}

function disagreementsHtml(m: Matrix): string {
  const rows = m.requirements.filter((r) => r.disagree);
  const judged = m.columns.filter((c) => c.state === 'verified').length;
  const intro =
    judged < 2
      ? `<p class="note">Fewer than two columns have verdicts (${judged}): nothing to compare.</p>`
      : rows.length === 0
        ? `<p class="note">The ${judged} columns with verdicts judge every requirement alike where two of them judged it.</p>`
        : `<p class="note">Requirements that columns judged differently (pass, warn or fail); what a run did not choose or could not judge (not run, inconclusive) is no side of a disagreement. Each is a place where the spec may be read two ways, or where one implementation is wrong: every cell links to that run's evidence.</p>`;
  const table =
    rows.length === 0
      ? ''
      : [
          '<div class="matrix-wrap"><table class="matrix">',
          `<thead><tr><th scope="col">Requirement</th>${columnHeads(m)}</tr></thead>`,
          `<tbody>${rows.map((r) => rowHtml(r, m, `d-${r.id}`)).join('\n')}</tbody>`,
          '</table></div>',
        ].join('\n');
  return `<section id="disagreements"><h2>Where implementations disagree<small>${h(plural(rows.length, 'requirement'))}</small></h2>\n${intro}\n${table}</section>`;
}

function requirementsHtml(m: Matrix): string {
  const bodies = m.areas.map((a) => {
    const counts = m.columns.map((c) => {
      const n = a.counts[c.id];
      return `<td>${n === undefined ? '—' : h(countsText(n))}</td>`;
    });
    const head = `<tr class="summary"><th scope="rowgroup">${h(a.area)} <small>${h(plural(a.requirements, 'requirement'))}${a.disagreements === 0 ? '' : `, ${h(plural(a.disagreements, 'disagreement'))}`}</small></th>${counts.join('')}</tr>`;
    const rows = m.requirements.filter((r) => r.area === a.area).map((r) => rowHtml(r, m, `m-${r.id}`));
    return `<tbody id="area-${h(a.area)}">${head}\n${rows.join('\n')}</tbody>`;
  });
  return [
    `<section id="requirements"><h2>All requirements<small>${h(plural(m.requirements.length, 'requirement'))} by area, in catalogue order</small></h2>`,
    '<div class="matrix-wrap"><table class="matrix">',
    `<thead><tr><th scope="col">Requirement</th>${columnHeads(m)}</tr></thead>`,
    bodies.join('\n'),
    '</table></div></section>',
  ].join('\n');
}

export function matrixHtml(m: Matrix): string {
  const judged = m.columns.filter((c) => c.state === 'verified').length;
  const source = m.source === 'runs' ? 'certified side by side by asi-conformance matrix' : 'merged from certification bundles by asi-conformance matrix merge';
  const title = `ASI v1 conformance matrix · ${plural(m.columns.length, 'implementation')}`;
  return [
    '<!doctype html>',
    '<html lang="en"><head><meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${h(title)}</title>`,
    `<style>${STYLE}</style></head>`,
    '<body>',
    '<header class="banner">',
    `<p class="kicker">Agents Service Interface v1 · conformance matrix · ${h(source)} · ${h(m.tool.name)} ${h(m.tool.version)} · ${h(m.generatedAt)}</p>`,
    `<h1>${h(plural(m.columns.length, 'implementation'))}, ${h(plural(m.disagreements.length, 'requirement'))} where they disagree</h1>`,
    `<p>${h(plural(judged, 'column'))} with verdicts of ${h(plural(m.requirements.length, 'requirement'))} · exit code ${m.exitCode}: ${h(EXIT_WORDS[m.exitCode])}${m.interrupted === undefined ? '' : ` · interrupted by ${h(m.interrupted)}`}</p>`,
    '</header>',
    '<main>',
    disagreementsHtml(m),
    implementationsHtml(m),
    requirementsHtml(m),
    '</main>',
    '</body></html>',
    '',
  ].join('\n');
}
