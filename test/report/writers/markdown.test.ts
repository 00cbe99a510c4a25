import { describe, expect, test } from 'vitest';
import { curlOf } from '../../../lib/http/curl.ts';
import { stateCounts, type RequirementResult } from '../../../lib/report/report-model.ts';
import { diffReports } from '../../../lib/report/baseline-diff.ts';
import { summaryMarkdown } from '../../../lib/report/writers/markdown.ts';
import { outsideCode } from '../../support/markdown-outside-code.ts';
import { cutShortReport, failedExchange, HOSTILE_CODE, preflightExchanges, refusedReport, requirementsOf, runMetadata, sampleReport, streamExchange, waivedReport } from '../report-fixtures.ts';

describe('summary.md', () => {
  const md = summaryMarkdown(sampleReport());

  test('opens with the verdict and whether the run certifies', () => {
    const [headline, , line] = md.split('\n');
    expect(headline).toBe('## ❌ ASI v1: not conformant (the embedded reference: a demo)');
    expect(line).toMatch(/^\*\*1 requirement fails\*\* · /);
    expect(line).toContain("certifying run (the spec's limits: 600 reads and 60 writes per 60 s)");
    expect(line).toContain('exit code 1');
  });

  test('a run of a target of the user\'s says nothing of a demo; one of the embedded reference says it first', () => {
    const vendor = sampleReport();
    vendor.meta = runMetadata({ target: { baseUrl: 'https://api.acme.example/v1', embedded: false, profile: 'acme.yaml' }, implementation: { label: 'Acme Agents', version: '2.3.1' } });
    const text = summaryMarkdown(vendor);
    expect(text.split('\n')[0]).toBe('## ❌ ASI v1: not conformant');
    expect(text).not.toContain('demo');
    expect(md.split('\n')[2]).toContain('· a demo of the embedded reference implementation, not of an implementation under test; certifying run');
  });

  test('counts every verdict', () => {
    expect(md).toContain('| fail | inconclusive | warn | pass | not run | uncovered |\n|---|---|---|---|---|---|\n| 1 | 1 | 1 | 1 | 1 | 1 |');
  });

  test('lists every requirement that did not pass with its level, verdict and one-line reason inside a code span', () => {
    expect(md).toContain('### Not passed (5)\n\n| Requirement | Level | Verdict | Why |');
    const row = md.split('\n').find((l) => l.startsWith(`| \`${requirementsOf.fail.id}\``));
    expect(row).toBe(
      `| \`${requirementsOf.fail.id}\` | MUST | fail | \`\`expected exactly one terminal event (\`done\` or \`error\`) \\| then the stream closes; actual two \`done\` events <after> one another\`\` |`,
    );
  });

  test('reproduces the failure with its curl line in a fenced block, and the property seed', () => {
    expect(md).toContain(`\`\`\`sh\n${curlOf(streamExchange(3))}\n\`\`\``);
    expect(md).toContain('Property: fast-check seed `-1029384756`, path `3:1:0`; counterexample `{"message":"<script>x</script>"}`');
  });

  test('lists the inconclusive, not-run and uncovered requirements with their reasons, and the warning', () => {
    expect(md).toContain(`| \`${requirementsOf.inconclusive.id}\` | MUST | inconclusive | \`the test broke: Headers Timeout Error\` |`);
    expect(md).toContain(`| \`${requirementsOf.notRun.id}\` | ${requirementsOf.notRun.level} | not run | \`the profile names no secondary token\` |`);
    expect(md).toContain(`| \`${requirementsOf.uncovered.id}\` | ${requirementsOf.uncovered.level} | uncovered | \`no test in this run checks this requirement\` |`);
    expect(md).toContain(`| \`${requirementsOf.warn.id}\` | SHOULD | warn | \`expected rows newest first; actual row 2 is older than row 3\` |`);
  });

  test('shows waived results as such', () => {
    const report = sampleReport();
    report.results[1]!.waiver = { status: 'fail', reason: 'known gateway bug', issue: 'https://example.com/1', expires: '2030-01-01', state: 'waived' };
    expect(summaryMarkdown(report)).toContain('| waived (fail) | `waived: fail expected until 2030-01-01: known gateway bug (https://example.com/1)` |');
  });

  test('ends with counts per area and the run metadata', () => {
    expect(md).toContain('| Area | fail | inconclusive | warn | pass | not run | uncovered |');
    expect(md).toContain('| ledger | 0 | 1 | 1 | 0 | 0 | 0 |');
    for (const fact of [
      '- **Target:** http://127.0.0.1:4010/v1 (embedded reference server)',
      '- **Seed:** 424242 (replay with --seed 424242)',
      '- **Duration:** 1 min 7.5 s',
      '- **Requests per token and pool:** 937 (secondary/read 604, primary/read 312, primary/write 21)',
      '- **Harness:** asi-conformance 0.1.0, Node v20.20.2',
      '- **Contract digest:** sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
    ]) {
      expect(md).toContain(fact);
    }
  });

  test('a non-certifying conformant run says so', () => {
    const report = sampleReport();
    report.meta = runMetadata({ certifying: false, limits: { read: 100, write: 10, windowS: 60 } });
    report.outcome = 'conformant';
    report.exitCode = 0;
    report.results = report.results.filter((r) => r.verdict === 'pass');
    report.counts = stateCounts(report.results);
    const text = summaryMarkdown(report);
    expect(text.split('\n')[0]).toBe('## ✅ ASI v1: conformant (the embedded reference: a demo)');
    expect(text).toContain("not a certification: the profile's limits (100/10 per 60 s) differ from the spec's (600/60 per 60 s)");
    expect(text).not.toContain('### Failures');
  });

  test('stays far below a CI step summary limit (1 MiB) when everything fails', () => {
    const report = sampleReport();
    const failing = report.results[1]!;
    const bigBody = 'x'.repeat(20_000);
    const exchange = { ...streamExchange(3), request: { ...streamExchange(3).request, body: bigBody } };
    report.results = Array.from({ length: 1000 }, (_, i): RequirementResult => ({
      ...failing,
      requirement: { ...failing.requirement, id: `conversation/6/case-${i}` },
      findings: [{ ...failing.findings[0]!, actual: 'y'.repeat(5000), exchanges: [exchange] }],
    }));
    const text = summaryMarkdown(report);
    expect(Buffer.byteLength(text)).toBeLessThan(256 * 1024);
    expect(text).toContain('… and 900 more requirements (see report.html).');
    expect(text).toContain('… and 990 more reproductions (see report.html).');
    expect(text).toMatch(/_The line is cut \(\d+ more characters\); report\.html has it whole\._/);
  });

  test('a backtick run in a curl line gets a longer fence', () => {
    const report = sampleReport();
    const finding = report.results[1]!.findings[0]!;
    finding.exchanges = [{ ...streamExchange(3), request: { ...streamExchange(3).request, body: '{"message":"```"}' } }];
    expect(summaryMarkdown(report)).toContain('````sh\ncurl');
  });
});

describe('why a run is not a certification', () => {
  test('the reasons the run gives are shown; without any, the limits are blamed when they differ', async () => {
    const { certificationText } = await import('../../../lib/report/writers/run-facts.ts');
    const spec = { read: 600, write: 60, windowS: 60 };
    const because = ['only chosen suites or requirements ran (--suite, --only or --skip): a certification runs them all'];
    expect(certificationText(runMetadata({ limits: spec, certifying: false, notCertifyingBecause: because }))).toContain('only chosen suites');
    expect(certificationText(runMetadata({ limits: { ...spec, read: 30 }, certifying: false }))).toContain('differ from the spec');
  });
});

describe('summary.md of a run with a waived result', () => {
  const md = summaryMarkdown(waivedReport());

  test('counts it as waived, in the run and per area, never as a failure', () => {
    expect(md).toContain('| fail | inconclusive | warn | waived | pass | not run | uncovered |\n|---|---|---|---|---|---|---|\n| 0 | 0 | 0 | 1 | 1 | 0 | 0 |');
    expect(md).toContain('| Area | fail | inconclusive | warn | waived | pass | not run | uncovered |');
    expect(md).toContain('| conversation | 0 | 0 | 0 | 1 | 0 | 0 | 0 |');
  });

  test('says it in the headline and lists it as waived; no reproduction is offered for it', () => {
    expect(md).toMatch(/^\*\*no requirement fails, 1 result waived\*\* · /m);
    expect(md).toContain(`| \`${requirementsOf.fail.id}\` | MUST | waived (fail) |`);
    expect(md).not.toContain('### Reproduce');
  });
});

test('a run with --baseline says what the gate decided and why, beside the exit code', () => {
  const report = sampleReport();
  report.exitCode = 0;
  report.baselineDiff = diffReports({ ...report, schemaVersion: 2 }, report);
  const md = summaryMarkdown(report);
  expect(md).toContain('· exit code 0 (baseline gate: no regression against baseline run 20250301-100000-7f3a: only known failures, 1 requirement failing as in the baseline)');
  expect(md).toContain('### Compared with the baseline');
  expect(md).toContain('  still failing: conversation/6/single-terminal-event');
});

describe('summary.md of a run that ended early', () => {
  test('the preflight: the outcome, its cause and its exchanges (request, status, headers, body, curl); no list of every requirement', () => {
    const report = refusedReport();
    const md = summaryMarkdown(report);
    const [headline, , line] = md.split('\n');
    expect(headline).toBe('## ⛔ ASI v1: refused at the preflight (the embedded reference: a demo)');
    expect(line).toMatch(/^\*\*the preflight refused the target: no suite ran\*\* · .* · exit code 2$/);
    expect(md).toContain(`### Stopped at the preflight\n\n\`\`\`\n${report.stopped!.reason}\n\`\`\``);
    expect(md).toContain("No suite ran: every requirement is not run. The preflight's exchanges follow; transcript.har has every exchange of the run.");
    const me = preflightExchanges()[1]!;
    expect(md).toContain(`\`\`\`\n#2 GET ${me.request.url} → 401 Unauthorized · 12 ms\n> GET ${me.request.url}\n`);
    expect(md).toContain(`< 401 Unauthorized\n< content-type: application/json\n\n${me.response!.body}\n\nReproduce: ${curlOf(me)}\n\`\`\``);
    expect(md).not.toContain('### Not passed');
    // The target's error code is quoted, but only inside code.
    expect(md).toContain(HOSTILE_CODE.split(' ')[0]!);
    const outside = outsideCode(md);
    for (const l of outside.lines) expect(l).not.toMatch(/evil\.example|<img/);
    expect(outside.unclosed).toBe(false);
  });

  test('a run cut short: the cause and the last exchanges, unanswered, beside the usual lists', () => {
    const md = summaryMarkdown(cutShortReport());
    expect(md.split('\n')[0]).toBe('## ⚠️ ASI v1: incomplete (the embedded reference: a demo)');
    expect(md).toContain('### Cut short\n\n```\nthe target stopped answering (4 requests in a row without a response: ASI_DEADLINE); the run was cut short\n```');
    expect(md).toContain('The last exchanges sent before it follow');
    for (const seq of [7, 8, 9, 10]) expect(md).toContain(`#${seq} GET ${failedExchange(seq).request.url} → no response (UND_ERR_HEADERS_TIMEOUT) · 15000 ms`);
    expect(md).toContain('### Not passed (5)');
  });
});
