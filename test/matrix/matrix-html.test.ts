import { describe, expect, test } from 'vitest';
import { catalogue } from '../../lib/catalogue/index.ts';
import { matrixHtml } from '../../lib/matrix/matrix-html.ts';
import { buildMatrix, type MatrixColumn } from '../../lib/matrix/matrix-model.ts';
import type { Report, RequirementResult } from '../../lib/report/report-model.ts';

const HOSTILE = '<img src=x onerror=alert(1)>"\'&';

function report(failing: string[]): Report {
  const results = catalogue.map((requirement): RequirementResult => ({ requirement, verdict: failing.includes(requirement.id) ? 'fail' : 'pass', findings: [], tests: [] }));
  return { results } as unknown as Report;
}

const columns: MatrixColumn[] = [
  {
    id: 'acme',
    name: `Acme ${HOSTILE}`,
    label: HOSTILE,
    version: HOSTILE,
    state: 'verified',
    outcome: 'not-conformant',
    exitCode: 1,
    certifying: false,
    notCertifyingBecause: [`the outcome is ${HOSTILE}`],
    counts: { pass: 102, fail: 1, warn: 0, inconclusive: 0, 'not-run': 0, uncovered: 0, waived: 0 },
    harness: { name: 'asi-conformance', version: '0.2.0', sameBuild: true },
    bundle: { source: 'acme/run 1/bundle.tar.gz', href: 'acme/run 1/bundle.tar.gz', form: 'tar.gz', sha256: 'a'.repeat(64), signature: 'unsigned' },
    run: { id: 'run-1', baseUrl: `https://api.acme.example/v1?${HOSTILE}`, embedded: false, startedAt: '2026-11-25T00:00:00.000Z', seed: 1, suites: ['auth'], partial: false },
    report: 'acme/run 1/report.html',
  },
  { id: 'globex', name: 'Globex', state: 'verified', outcome: 'conformant', report: 'globex/r/report.html' },
  { id: 'forged', name: 'forged', state: 'does-not-verify', reason: `report.json auth/5.3/missing-header: says verdict "pass"; its findings give "fail" ${HOSTILE}`, problems: 2 },
];
const m = buildMatrix(
  [
    { column: columns[0]!, report: report(['auth/5.3/missing-header']) },
    { column: columns[1]!, report: report([]) },
    { column: columns[2]! },
  ],
  { source: 'bundles', tool: { name: 'asi-conformance', version: '0.2.0' }, generatedAt: new Date('2026-11-25T00:00:00Z') },
);
const html = matrixHtml(m);

describe('matrix.html', () => {
  test('is one self-contained page: inline style, no script, no resource from anywhere', () => {
    expect(html).toMatch(/^<!doctype html>/);
    expect(html).toContain('<style>');
    // Tags and attribute names only: the escaped hostile text (`&lt;img src=x`), in content or in a
    // quoted attribute value, is text.
    const markup = html.replace(/"[^"]*"/g, '""');
    expect(markup.match(/<(script|link|img|iframe|object|embed)\b|<[^>]*\ssrc=|url\(|@import/gi)).toBeNull();
    for (const [, href] of html.matchAll(/href="([^"]*)"/g)) expect(href).not.toMatch(/^[a-z][a-z0-9+.-]*:/i);
  });

  test('escapes every text from a target or a bundle', () => {
    expect(html).not.toContain(HOSTILE);
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;&quot;&#39;&amp;');
  });

  test('lists the disagreements first, each cell linking to the requirement in that run\'s report', () => {
    const disagree = html.slice(html.indexOf('id="disagreements"'), html.indexOf('id="implementations"'));
    expect(disagree).toContain('<code>auth/5.3/missing-header</code>');
    expect(disagree.match(/<tr id="d-/g)).toHaveLength(1);
    expect(disagree).toContain('<a href="acme/run%201/report.html#r-auth/5.3/missing-header">fail</a>');
    expect(disagree).toContain('<a href="globex/r/report.html#r-auth/5.3/missing-header">pass</a>');
    expect(html.indexOf('<main>\n<section id="disagreements">')).toBeGreaterThan(0);
    expect(html.indexOf('id="implementations"')).toBeLessThan(html.indexOf('id="requirements"'));
  });

  test('shows every requirement by area with a summary row per area, and a column that does not verify with why', () => {
    const all = html.slice(html.indexOf('id="requirements"'));
    expect(all.match(/<tr id="m-/g)).toHaveLength(catalogue.length);
    expect(all.match(/<tr class="summary">/g)).toHaveLength(new Set(catalogue.map((r) => r.area)).size);
    expect(all).toContain('<tbody id="area-auth"><tr class="summary"><th scope="rowgroup">auth');
    expect(html).toContain('<span class="state-bad">does not verify</span> (2 problems): report.json auth/5.3/missing-header: says verdict &quot;pass&quot;');
    expect(all).toMatch(/<td class="none" title="report\.json auth\/5\.3\/missing-header[^"]*">—<\/td>/);
  });
});
