import { describe, expect, test } from 'vitest';
import type { Coverage } from '../../lib/coverage/coverage.ts';
import { parseFailOn } from '../../lib/cli/run-command.ts';
import { gateCoverage } from '../../lib/report/coverage-gate.ts';
import { reportHtml } from '../../lib/report/writers/html.ts';
import { summaryMarkdown } from '../../lib/report/writers/markdown.ts';
import { sampleReport } from './report-fixtures.ts';

const COVERAGE: Coverage = {
  exchanges: 12,
  cells: 9,
  dimensions: [
    { name: 'method', values: [{ value: 'GET', exchanges: 10 }, { value: 'OPTIONS', exchanges: 0 }] },
    { name: 'token', values: [{ value: 'valid', exchanges: 12 }] },
  ],
  pairs: { total: 3, covered: 2 },
  uncovered: [{ pair: 'method OPTIONS × token valid', reason: 'not reached: no exchange of the run held both values' }],
  triples: { over: 'route × method × token', total: 4, covered: 3, uncovered: ['route /me × method PUT × token none'] },
  unavailable: [{ dimension: 'token', value: 'revoked', reason: 'the profile names no revoked token (tokens.revoked)' }],
};

function passingReport(): ReturnType<typeof sampleReport> {
  const report = sampleReport();
  report.outcome = 'conformant';
  report.exitCode = 0;
  report.incomplete = [];
  return report;
}

describe('the Coverage section', () => {
  test('summary.md: the headline, a row per dimension, each pair not reached with why, the values the profile lacks', () => {
    const report = passingReport();
    gateCoverage(report, COVERAGE, false);
    const md = summaryMarkdown(report);
    expect(md).toContain('### Coverage\n\n2 of 3 pairs the profile allows reached (66.6%), 9 cells, 12 exchanges in the matrix');
    expect(md).toContain('| `method` | GET (10) | OPTIONS |');
    expect(md).toContain('- 1 pair not reached: no exchange of the run held both values:\n  - method OPTIONS × token valid\n');
    expect(md).toContain('- 1 driven triple of route × method × token not reached:\n  - route /me × method PUT × token none\n');
    expect(md).toContain('- token revoked: unavailable, the profile names no revoked token (tokens.revoked)');
  });

  test('report.html: a section of its own, escaped', () => {
    const report = passingReport();
    gateCoverage(report, { ...COVERAGE, uncovered: [{ pair: 'accept <a list> × method GET', reason: 'x' }] }, false);
    const html = reportHtml(report);
    expect(html).toContain('<section id="coverage"><h2>Coverage<small>2 of 3 pairs');
    expect(html).toContain('<details class="uncovered" open><summary>1 pair x</summary><ul><li>accept &lt;a list&gt; × method GET</li></ul></details>');
  });

  test('pairs not reached for one reason give it once: a partial run leaves hundreds, the first named, the rest counted and folded in report.html', () => {
    const why = 'not reached: the suite exchange-matrix did not run';
    const uncovered = [
      ...Array.from({ length: 100 }, (_, i) => ({ pair: `route /r${i} × method GET`, reason: why })),
      { pair: 'pool low × token valid', reason: 'not reached: no exchange of the run found that token\'s pool low' },
    ];
    const report = passingReport();
    gateCoverage(report, { ...COVERAGE, uncovered }, false);
    const md = summaryMarkdown(report);
    expect(md.split(why)).toHaveLength(2);
    expect(md).toContain(`- 100 pairs ${why}:\n  - route /r0 × method GET\n`);
    expect(md).toContain('  - route /r39 × method GET\n  - … and 60 more (report.json lists them all)\n- 1 pair not reached: no exchange');
    expect(md).not.toContain('route /r40 ');
    const html = reportHtml(report);
    expect(html.split(why)).toHaveLength(2);
    expect(html).toContain(`<details class="uncovered"><summary>100 pairs ${why}</summary><ul><li>route /r0 × method GET</li>`);
    expect(html).toContain('<li>… and 60 more (report.json lists them all)</li></ul></details><details class="uncovered" open><summary>1 pair not reached');
  });

  test('--fail-on coverage makes a green run with a pair not reached incomplete (exit 3); a run that failed keeps its outcome', () => {
    const green = passingReport();
    gateCoverage(green, COVERAGE, true);
    expect([green.outcome, green.exitCode, green.meta.failOnCoverage]).toEqual(['incomplete', 3, true]);
    expect(green.incomplete.map((i) => i.reason)).toEqual(['coverage: 1 pair and 1 driven triple of the exchange matrix the profile allows not reached (--fail-on coverage); see Coverage']);
    const failed = sampleReport();
    gateCoverage(failed, COVERAGE, true);
    expect([failed.outcome, failed.exitCode]).toEqual(['not-conformant', 1]);
    const whole = passingReport();
    gateCoverage(whole, { ...COVERAGE, uncovered: [], triples: { ...COVERAGE.triples!, covered: 4, uncovered: [] } }, true);
    expect([whole.outcome, whole.exitCode]).toEqual(['conformant', 0]);
    const tripleShort = passingReport();
    gateCoverage(tripleShort, { ...COVERAGE, uncovered: [] }, true);
    expect(tripleShort.incomplete.map((i) => i.reason)).toEqual(['coverage: 1 driven triple of the exchange matrix the profile allows not reached (--fail-on coverage); see Coverage']);
  });

  test.each([
    [undefined, { failOn: 'must', failOnCoverage: false }],
    ['should', { failOn: 'should', failOnCoverage: false }],
    ['coverage', { failOn: 'must', failOnCoverage: true }],
    ['should,coverage', { failOn: 'should', failOnCoverage: true }],
  ])('--fail-on %s', (value, parsed) => {
    expect(parseFailOn(value)).toEqual(parsed);
  });

  test.each(['must,should', 'all', 'coverage,coverage,must'])('--fail-on %s is a usage error', (value) => {
    expect(() => parseFailOn(value)).toThrow(/--fail-on expects must or should, optionally with coverage/);
  });
});
