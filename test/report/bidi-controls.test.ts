import { describe, expect, test } from 'vitest';
import { consoleSummary } from '../../lib/report/console-summary.ts';
import { reportHtml } from '../../lib/report/writers/html.ts';
import { junitXml } from '../../lib/report/writers/junit.ts';
import { summaryMarkdown } from '../../lib/report/writers/markdown.ts';
import { getExchange, sampleReport } from './report-fixtures.ts';

/** Each bidirectional control: a mark, an embedding, an override, an isolate. */
const BIDI = ['\u061c', '\u200e', '\u200f', '\u202a', '\u202b', '\u202c', '\u202d', '\u202e', '\u2066', '\u2067', '\u2068', '\u2069'];
const ANY_BIDI = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

/** A failure, a not-run reason and a run error whose target text reorders what a reader sees. */
function reordering() {
  const report = sampleReport();
  const text = `invoice${BIDI.join('')}fdp.exe`;
  const failing = report.results[1]!.findings[0]!;
  const ex = getExchange(2);
  failing.actual = `code ${text}`;
  // A job id the target chose ends up in the URL of the poll, and so in the curl line.
  const request = { ...ex.request, url: `${ex.request.url.split('?')[0]}/message-jobs/job_${text}` };
  failing.exchanges = [{ ...ex, request, response: { ...ex.response!, status: 500, headers: { ...ex.response!.headers, 'x-request-id': text }, body: `{"message":"${text}"}` } }];
  report.results[3]!.reason = `the profile names no token ${text}`;
  report.runErrors = [`auth: ${text}`];
  return report;
}

describe('bidirectional controls from a target show escaped in every human-readable report', () => {
  test.each([
    ['the console', () => consoleSummary(reordering(), 'reports: r/')],
    ['summary.md', () => summaryMarkdown(reordering())],
    ['report.html', () => reportHtml(reordering())],
    ['junit.xml', () => junitXml(reordering())],
  ])('%s', (_name, render) => {
    const out = render();
    expect(out).not.toMatch(ANY_BIDI);
    expect(out).toContain('invoice\\u061C\\u200E\\u200F\\u202A\\u202B\\u202C\\u202D\\u202E\\u2066\\u2067\\u2068\\u2069fdp.exe');
  });
});

describe('the other invisible format characters show escaped too', () => {
  test.each([
    ['the console', (r: ReturnType<typeof sampleReport>) => consoleSummary(r, 'reports: r/')],
    ['summary.md', summaryMarkdown],
    ['report.html', reportHtml],
    ['junit.xml', junitXml],
  ])('%s', (_name, render) => {
    const report = sampleReport();
    report.runErrors = ['auth: zero\u200bwidth\u200d soft\u00adhyphen tag\u{e0041} mongolian\u180e'];
    const out = render(report);
    expect(out).not.toMatch(/\p{Cf}/u);
    expect(out).toContain('zero\\u200Bwidth\\u200D soft\\xadhyphen tag\\u{E0041} mongolian\\u180E');
  });
});
