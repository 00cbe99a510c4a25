import { describe, expect, test } from 'vitest';
import { curlOf } from '../../../lib/http/curl.ts';
import { diffReports } from '../../../lib/report/baseline-diff.ts';
import { reportHtml } from '../../../lib/report/writers/html.ts';
import { escapeHtml } from '../../../lib/report/writers/text.ts';
import { cutShortReport, failedExchange, HOSTILE_CODE, preflightExchanges, refusedReport, requirementsOf, sampleReport, streamExchange, waivedReport } from '../report-fixtures.ts';

describe('report.html', () => {
  const html = reportHtml(sampleReport());

  test('is one self-contained document: no external asset, one small script', () => {
    expect(html.startsWith('<!doctype html>')).toBe(true);
    expect(html).not.toMatch(/<link\b|\bsrc=|@import|url\(/i);
    expect(html.match(/<script\b/g)).toHaveLength(1);
    expect(html).toMatch(/<div class="filters" id="filters" hidden>/);
  });

  test('a verdict banner and the run metadata', () => {
    expect(html).toContain('<header class="banner o-not-conformant">');
    expect(html).toContain('<h1>Not conformant <small>(the embedded reference: a demo)</small></h1>');
    for (const fact of [
      '<dt>Harness</dt><dd>asi-conformance 0.1.0, Node v20.20.2</dd>',
      '<dt>Contract digest</dt><dd>sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08</dd>',
      '<dt>Target</dt><dd>http://127.0.0.1:4010/v1 (embedded reference server)</dd>',
      '<dt>Seed</dt><dd>424242 (replay with --seed 424242)</dd>',
      '<dt>Profile</dt><dd>embedded reference</dd>',
      '<dt>Duration</dt><dd>1 min 7.5 s</dd>',
      '<dt>Requests per token and pool</dt><dd>937 (secondary/read 604, primary/read 312, primary/write 21)</dd>',
      '<dt>Certifying</dt><dd>a demo of the embedded reference implementation, not of an implementation under test; certifying run (the spec&#39;s limits: 600 reads and 60 writes per 60 s)</dd>',
    ]) {
      expect(html).toContain(fact);
    }
  });

  test('every requirement appears in its area with level, section and verdict badge', () => {
    for (const [verdict, r] of [
      ['pass', requirementsOf.pass],
      ['fail', requirementsOf.fail],
      ['inconclusive', requirementsOf.inconclusive],
      ['not-run', requirementsOf.notRun],
      ['uncovered', requirementsOf.uncovered],
      ['warn', requirementsOf.warn],
    ] as const) {
      expect(html).toContain(`<tbody class="v-${verdict}"><tr id="r-${r.id}"><td class="id"><code>${r.id}</code></td><td class="level">${r.level}</td><td>§${r.section}</td>`);
      expect(html).toContain(`<section id="area-${r.area}">`);
    }
  });

  test('evidence folds open only for failing, warning and inconclusive requirements', () => {
    expect(html.match(/<details class="evidence">/g)).toHaveLength(3);
  });

  test('evidence shows expected, actual, the property, SSE events with arrival times and the curl line', () => {
    expect(html).toContain('<dt>Expected</dt><dd>exactly one terminal event (<code>done</code> or <code>error</code>) | then the stream closes</dd>');
    expect(html).toContain('<dt>Actual</dt><dd>two <code>done</code> events &lt;after&gt; one another</dd>');
    expect(html).toContain('seed <code>-1029384756</code>, path <code>3:1:0</code>, 20 runs, 27 requests');
    expect(html).toContain('<dt>Counterexample</dt><dd><pre>{&quot;message&quot;:&quot;&lt;script&gt;x&lt;/script&gt;&quot;}</pre></dd>');
    expect(html).toContain('<h4>Events (3)</h4>');
    expect(html).toContain('<tr><td class="num">40</td><td><code>done</code></td><td><code>2</code></td><td class="data">{}</td></tr>');
    expect(html).toContain(`<pre>${escapeHtml(curlOf(streamExchange(3)))}</pre>`);
    expect(html).toContain('3 chunks, first at 14 ms, last at 41 ms; the server closed the stream.');
    expect(html).toContain('<strong>Transport error</strong> <code>UND_ERR_HEADERS_TIMEOUT</code>: Headers Timeout Error');
    expect(html).toContain('<blockquote>§6: Every stream ends with exactly one terminal event: <code>done</code> or <code>error</code>.</blockquote>');
  });

  test('what did not pass is a table: a row each, its verdict, its id linking to its row, its level and why', () => {
    const section = /<section id="not-passed">.*?<\/section>/.exec(html)![0];
    expect(section).toContain('<h2>Not passed<small>5</small></h2>');
    expect(section.match(/<tr><td><span class="badge v-/g)).toHaveLength(5);
    for (const r of [requirementsOf.fail, requirementsOf.inconclusive, requirementsOf.notRun, requirementsOf.uncovered, requirementsOf.warn]) {
      expect(section).toContain(`<td class="id"><a href="#r-${r.id}"><code>${r.id}</code></a></td><td>${r.level}</td>`);
    }
    expect(section).toContain('<td>no test in this run checks this requirement</td>');
    expect(section).not.toContain(requirementsOf.pass.id);
    expect(reportHtml(waivedReport())).toMatch(/<span class="badge v-fail">fail<\/span> <b>waived<\/b><\/td>/);
  });

  test('reasons of not-run and uncovered requirements are shown', () => {
    expect(html).toContain('<p class="reason">the profile names no secondary token</p>');
    expect(html).toContain('<p class="reason">no test in this run checks this requirement</p>');
  });

  test('a <script> in a response body is escaped, control characters are made visible', () => {
    expect(html).not.toContain('<script>alert');
    expect(html).toContain('&lt;script&gt;alert(\\&quot;pwned\\&quot;)&lt;/script&gt; &amp; \\x01 \\uD800');
    expect(html).not.toMatch(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/);
  });

  test('a long body is cut, and says so', () => {
    const report = sampleReport();
    const ex = streamExchange(3);
    report.results[1]!.findings[0]!.exchanges = [{ ...ex, response: { ...ex.response!, body: 'z'.repeat(10_000), bodyBytes: 10_000 } }];
    const text = reportHtml(report);
    expect(text).toContain(`<pre>${'z'.repeat(4096)}</pre><p class="note">Body cut: 5904 more characters not shown; transcript.har keeps what was recorded.</p>`);
  });

  test('prints: folded evidence opens and the filters hide', () => {
    expect(html).toMatch(/@media print \{[^@]*details::details-content \{ content-visibility: visible; display: block; \}/);
    expect(html).toMatch(/@media print \{[^@]*\.filters \{ display: none; \}/);
  });
});

test('a failed SHOULD requirement shows as a warning', () => {
  const html = reportHtml(sampleReport());
  const warn = html.slice(html.indexOf(`<tr id="r-${requirementsOf.warn.id}">`));
  expect(warn).toContain('<h3>Finding <span class="badge v-warn">warn</span></h3><p class="note">A failed SHOULD requirement: a warning, it does not fail the run.</p>');
});

describe('report.html of a run with a waived result', () => {
  const html = reportHtml(waivedReport());
  const id = requirementsOf.fail.id;

  test('its row and badge say waived, never fail', () => {
    expect(html).toContain(`<tbody class="v-waived"><tr id="r-${id}">`);
    const row = html.slice(html.indexOf(`<tr id="r-${id}">`), html.indexOf('</tbody>', html.indexOf(`<tr id="r-${id}">`)));
    expect(row).toMatch(/^[^]*?<td><span class="badge v-waived">waived<\/span><\/td><\/tr>/);
    expect(row).toContain('<h3>Finding <span class="badge v-waived">waived</span></h3><p class="note">An expected result (waived): it does not fail the run.</p>');
    expect(row).not.toContain('v-fail');
  });

  test('the banner, the areas table and its area count it as waived', () => {
    expect(html).toContain('<ul class="counts"><li>0 fail</li><li>0 inconclusive</li><li>0 warn</li><li>1 waived</li><li>1 pass</li>');
    expect(html).toContain('<h2>conversation<small>1 waived</small></h2>');
    expect(html).toContain('<th class="num">waived</th>');
    expect(html).toContain('<input type="checkbox" value="waived" checked>');
    expect(html).toContain('<p>no requirement fails, 1 result waived · ');
  });
});

test('a run without waivers shows no waived column', () => {
  const html = reportHtml(sampleReport());
  expect(html.slice(html.indexOf('</style>'))).not.toContain('waived');
});

test('the banner of a run with --baseline says what the gate decided and why, beside the exit code', () => {
  const report = sampleReport();
  report.exitCode = 0;
  report.baselineDiff = diffReports({ ...report, schemaVersion: 2 }, report);
  expect(reportHtml(report)).toContain('exit code 0 (baseline gate: no regression against baseline run 20250301-100000-7f3a: only known failures, 1 requirement failing as in the baseline)</p>');
});

describe('report.html of a run that ended early', () => {
  test('the preflight: the outcome in the banner, the cause escaped, every exchange open with request, response and curl', () => {
    const report = refusedReport();
    const html = reportHtml(report);
    expect(html).toContain('<header class="banner o-refused">');
    expect(html).toContain('<h1>Refused at the preflight <small>(the embedded reference: a demo)</small></h1>');
    expect(html).toContain('exit code 2');
    expect(html).toContain(`<section id="stopped"><h2>Stopped at the preflight</h2><pre>${escapeHtml(report.stopped!.reason)}</pre>`);
    expect(html).not.toContain(HOSTILE_CODE);
    for (const e of preflightExchanges()) {
      expect(html).toContain(`<details class="exchange" open><summary class="mono">#${e.seq} GET ${e.request.url} → ${e.response!.status === 200 ? '200 OK' : '401 Unauthorized'} · 12 ms</summary>`);
      expect(html).toContain(escapeHtml(curlOf(e)));
    }
    expect(html).toContain(escapeHtml(preflightExchanges()[1]!.response!.body));
    expect(html).toContain('<section id="not-passed"><h2>Not passed</h2><p>Not run (6): the run ended at the preflight, before any suite</p></section>');
  });

  test('a run cut short: the cause and the unanswered exchanges before it', () => {
    const html = reportHtml(cutShortReport());
    expect(html).toContain('<section id="stopped"><h2>Cut short</h2><pre>the target stopped answering (4 requests in a row without a response: ASI_DEADLINE); the run was cut short</pre>');
    for (const seq of [7, 8, 9, 10]) expect(html).toContain(`#${seq} GET ${escapeHtml(failedExchange(seq).request.url)} → no response (UND_ERR_HEADERS_TIMEOUT) · 15000 ms`);
  });
});

describe('the certificate panel', () => {
  const panel = {
    copy: 'beside' as const,
    bundle: { path: "<tmp>/run's/bundle.tar.gz", form: 'tar.gz' as const, sha256: 'a'.repeat(64) },
    recordSha256: 'b'.repeat(64),
    keyid: 'c'.repeat(64),
    verifyCommand: "asi-conformance verify '<tmp>/run'\\''s/bundle.tar.gz' --public-key asi-signing-key.pub.pem",
  };

  test('beside the bundle: its digest, the signer and the verify command, escaped; no script of its own', () => {
    const html = reportHtml(sampleReport(), panel);
    const section = html.slice(html.indexOf('<section id="certificate"'), html.indexOf('</section>', html.indexOf('<section id="certificate"')));
    expect(section).toContain('<dt>Bundle</dt><dd><code>&lt;tmp&gt;/run&#39;s/bundle.tar.gz</code>');
    expect(section).toContain(`<dt>Bundle digest</dt><dd><code>${'a'.repeat(64)}</code> (SHA-256 of the archive)</dd>`);
    expect(section).toContain(`<dt>Signature</dt><dd>Ed25519, key id <code>${'c'.repeat(64)}</code>`);
    expect(section).toContain('<dt>Verify offline</dt><dd><code>asi-conformance verify &#39;&lt;tmp&gt;/run&#39;\\&#39;&#39;s/bundle.tar.gz&#39; --public-key asi-signing-key.pub.pem</code></dd>');
    expect(section).not.toMatch(/<script|<a |https?:/);
  });

  test('no public key beside the signing key: the command names PUBLIC_KEY, and the panel says which key it stands for', () => {
    const note = 'PUBLIC_KEY is the public key that pairs with keys/release.pem; none lies beside it (keygen writes it there as asi-signing-key.pub.pem)';
    const html = reportHtml(sampleReport(), { ...panel, verifyCommand: 'npx asi-conformance verify bundle.tar.gz --public-key PUBLIC_KEY', publicKeyNote: note });
    expect(html).toContain(`<dt>Verify offline</dt><dd><code>npx asi-conformance verify bundle.tar.gz --public-key PUBLIC_KEY</code> (${note})</dd>`);
  });

  test('inside the bundle: the record\'s digest, and why not the bundle\'s', () => {
    const html = reportHtml(sampleReport(), { ...panel, copy: 'inside', bundle: { path: 'bundle.tar.gz', form: 'tar.gz' } });
    expect(html).toContain(`<dt>Record digest</dt><dd><code>${'b'.repeat(64)}</code> (SHA-256 of <code>record/exchanges.jsonl</code>; this copy of the report is inside the bundle, which cannot hold its own digest`);
    expect(html).not.toContain('Bundle digest');
  });

  test('a report without a bundle has no panel', () => {
    expect(reportHtml(sampleReport())).not.toContain('id="certificate"');
  });
});
