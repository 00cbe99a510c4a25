import { describe, expect, test } from 'vitest';
import { curlOf } from '../../../lib/http/curl.ts';
import { junitXml } from '../../../lib/report/writers/junit.ts';
import { cutShortReport, failedExchange, HOSTILE_CODE, preflightExchanges, refusedReport, requirementsOf, sampleReport, streamExchange } from '../report-fixtures.ts';
import { childrenNamed, parseXml, type XmlElement } from '../xml-tree.ts';

function testCases(root: XmlElement): XmlElement[] {
  return childrenNamed(root, 'testsuite').flatMap((s) => childrenNamed(s, 'testcase'));
}

function caseOf(root: XmlElement, id: string): XmlElement {
  const found = testCases(root).find((c) => c.attributes['name']?.startsWith(`${id} `));
  if (found === undefined) throw new Error(`no testcase for ${id}`);
  return found;
}

describe('junit.xml', () => {
  const xml = junitXml(sampleReport());
  const root = parseXml(xml);

  test('is well-formed XML with a declaration', () => {
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n')).toBe(true);
    expect(root.name).toBe('testsuites');
  });

  test('one testsuite per area, in catalogue order, one testcase per requirement', () => {
    expect(childrenNamed(root, 'testsuite').map((s) => s.attributes['name'])).toEqual(['auth', 'conversation', 'ledger', 'ratelimit', 'errors', 'summary']);
    expect(testCases(root)).toHaveLength(6);
    const ledger = childrenNamed(root, 'testsuite').find((s) => s.attributes['name'] === 'ledger')!;
    expect(ledger.attributes).toMatchObject({ tests: '2', failures: '0', errors: '1', skipped: '0' });
  });

  test('totals count failures, errors (inconclusive) and skips (not-run, uncovered)', () => {
    expect(root.attributes).toMatchObject({ tests: '6', failures: '1', errors: '1', skipped: '2', time: '67.500' });
  });

  test('name is the id and the statement, classname the area', () => {
    const c = caseOf(root, requirementsOf.pass.id);
    expect(c.attributes['name']).toBe(`${requirementsOf.pass.id} ${requirementsOf.pass.statement}`);
    expect(c.attributes['classname']).toBe('auth');
  });

  test('a pass has no failure; its notes go to system-out; its verdict and level are properties', () => {
    const c = caseOf(root, requirementsOf.pass.id);
    expect(c.children.map((e) => e.name)).toEqual(['properties', 'system-out']);
    expect(childrenNamed(c, 'system-out')[0]!.text).toBe('INFO: the server also sent X-Request-Id');
    expect(childrenNamed(childrenNamed(c, 'properties')[0]!, 'property').map((p) => [p.attributes['name'], p.attributes['value']])).toEqual([
      ['asi.verdict', 'pass'],
      ['asi.level', requirementsOf.pass.level],
    ]);
  });

  test('every case has the time its tests took', () => {
    const report = sampleReport();
    report.results[0]!.durationMs = 1234;
    expect(caseOf(parseXml(junitXml(report)), requirementsOf.pass.id).attributes['time']).toBe('1.234');
  });

  test('a waived result is skipped with the waiver; an expired waiver is a failure', () => {
    const report = sampleReport();
    report.results[1]!.waiver = { status: 'fail', reason: 'known', state: 'waived' };
    report.results[0]!.waiver = { status: 'fail', reason: 'old', expires: '2020-01-01', state: 'expired' };
    const r = parseXml(junitXml(report));
    expect(childrenNamed(caseOf(r, requirementsOf.fail.id), 'skipped')[0]!.attributes['message']).toBe('waived: fail expected: known');
    expect(childrenNamed(caseOf(r, requirementsOf.pass.id), 'failure')[0]!.attributes['type']).toBe('waiver-expired');
  });

  test('a summary suite carries the closing list of what did not pass', () => {
    const summary = childrenNamed(root, 'testsuite').find((s) => s.attributes['name'] === 'summary')!;
    expect(summary.attributes['tests']).toBe('0');
    const out = childrenNamed(summary, 'system-out')[0]!.text;
    expect(out).toMatch(/^Not passed \(5\):/);
    expect(out).toContain(requirementsOf.warn.id);
  });

  test('a failure carries the h2spec-style text and the curl line', () => {
    const failure = childrenNamed(caseOf(root, requirementsOf.fail.id), 'failure');
    expect(failure).toHaveLength(1);
    const f = failure[0]!;
    expect(f.attributes['type']).toBe('MUST');
    expect(f.attributes['message']).toContain('expected exactly one terminal event');
    expect(f.attributes['message']).toContain('actual two `done` events <after> one another');
    expect(f.text).toContain(`× ${requirementsOf.fail.id}`);
    expect(f.text).toContain('Expected: exactly one terminal event');
    expect(f.text).toContain('Counterexample: {"message":"<script>x</script>"}');
    expect(f.text).toContain(`Reproduce: ${curlOf(streamExchange(3))}`);
  });

  test('inconclusive is an error, not-run and uncovered are skipped with the reason', () => {
    const error = childrenNamed(caseOf(root, requirementsOf.inconclusive.id), 'error')[0]!;
    expect(error.attributes['message']).toBe('the test broke: Headers Timeout Error');
    expect(error.text).toContain('UND_ERR_HEADERS_TIMEOUT');
    expect(childrenNamed(caseOf(root, requirementsOf.notRun.id), 'skipped')[0]!.attributes['message']).toBe('not-run: the profile names no secondary token');
    expect(childrenNamed(caseOf(root, requirementsOf.uncovered.id), 'skipped')[0]!.attributes['message']).toBe(
      'uncovered: no test in this run checks this requirement',
    );
  });

  test('a warning passes with a note in system-out that starts WARN, and the warn verdict as a property', () => {
    const c = caseOf(root, requirementsOf.warn.id);
    expect(c.children.map((e) => e.name)).toEqual(['properties', 'system-out']);
    expect(childrenNamed(childrenNamed(c, 'properties')[0]!, 'property')[0]!.attributes['value']).toBe('warn');
    expect(c.children[1]!.text).toMatch(/^WARN \(SHOULD, does not fail the run\)\n× ledger\/4\.1\/newest-first/);
  });

  test('characters XML 1.0 forbids come out as visible escapes; markup is escaped', () => {
    expect(xml).toContain('\\x01');
    expect(xml).toContain('\\uD800');
    expect(xml).not.toContain('<script>');
    expect(xml).toContain('&lt;script&gt;');
  });

  test('a newline in an attribute survives as a character reference', () => {
    const report = sampleReport();
    report.results[3]!.reason = 'line one\nline two';
    const c = caseOf(parseXml(junitXml(report)), requirementsOf.notRun.id);
    expect(xml).not.toContain('line one\nline two"');
    expect(childrenNamed(c, 'skipped')[0]!.attributes['message']).toBe('not-run: line one line two');
  });

  test('run errors become a suite of errors and count in the totals', () => {
    const report = sampleReport();
    report.runErrors = ['ledger-window: Cannot find module "x" & <y>'];
    const r = parseXml(junitXml(report));
    expect(r.attributes).toMatchObject({ tests: '7', errors: '2' });
    const run = childrenNamed(r, 'testsuite').find((s) => s.attributes['name'] === 'run')!;
    expect(childrenNamed(childrenNamed(run, 'testcase')[0]!, 'error')[0]!.attributes['message']).toBe('ledger-window: Cannot find module "x" & <y>');
  });
});

describe('junit.xml of a run that ended early', () => {
  function runSuite(root: XmlElement): XmlElement {
    return childrenNamed(root, 'testsuite').find((s) => s.attributes['name'] === 'run')!;
  }

  test('the preflight is one failing case naming the cause, with its exchanges; every requirement is skipped as not run', () => {
    const root = parseXml(junitXml(refusedReport()));
    expect(root.attributes).toMatchObject({ tests: '7', failures: '1', errors: '0', skipped: '6' });
    const cases = childrenNamed(runSuite(root), 'testcase');
    expect(cases.map((c) => c.attributes['name'])).toEqual(['preflight']);
    const failure = childrenNamed(cases[0]!, 'failure')[0]!;
    expect(failure.attributes['type']).toBe('refused');
    expect(failure.attributes['message']).toBe(`token rejected: 401 ${HOSTILE_CODE} at GET /me; check tokens.primary ($ASI_TOKEN): it must be a live token of this server's workspace`);
    const [health, me] = preflightExchanges();
    expect(failure.text).toContain(`#1 GET ${health!.request.url} → 200 OK · 12 ms`);
    expect(failure.text).toContain(`#2 GET ${me!.request.url} → 401 Unauthorized · 12 ms\n> GET ${me!.request.url}\n> user-agent: asi-conformance\n> authorization: Bearer $ASI_TOKEN\n< 401 Unauthorized\n< content-type: application/json\n\n${me!.response!.body}`);
    expect(failure.text).toContain(`Reproduce: ${curlOf(me!)}`);
    expect(childrenNamed(caseOf(root, requirementsOf.fail.id), 'skipped')[0]!.attributes['message']).toBe('not-run: the run ended at the preflight, before any suite');
    const summary = childrenNamed(root, 'testsuite').find((s) => s.attributes['name'] === 'summary')!;
    expect(childrenNamed(summary, 'system-out')[0]!.text).toBe('Not run (6): the run ended at the preflight, before any suite');
  });

  test('an unreachable target and an interrupt at the preflight are named so', () => {
    const unreachable = { ...refusedReport(), outcome: 'unreachable', exitCode: 3 } as const;
    const interrupted = { ...refusedReport(), outcome: 'incomplete', exitCode: 3 } as const;
    for (const [report, type] of [[unreachable, 'unreachable'], [interrupted, 'interrupted']] as const) {
      const failure = childrenNamed(childrenNamed(runSuite(parseXml(junitXml(report))), 'testcase')[0]!, 'failure')[0]!;
      expect(failure.attributes['type']).toBe(type);
    }
  });

  test('a run cut short is a failing case of its own, with the exchanges that went unanswered; run errors stay errors', () => {
    const report = cutShortReport();
    report.runErrors = ['ledger-window: boom'];
    const root = parseXml(junitXml(report));
    expect(root.attributes).toMatchObject({ tests: '8', failures: '2', errors: '2' });
    const run = runSuite(root);
    expect(run.attributes).toMatchObject({ tests: '2', failures: '1', errors: '1' });
    const [cut, error] = childrenNamed(run, 'testcase');
    expect(cut!.attributes['name']).toBe('run cut short');
    const failure = childrenNamed(cut!, 'failure')[0]!;
    expect(failure.attributes).toMatchObject({ type: 'cut-short', message: report.cutShort });
    for (const seq of [7, 8, 9, 10]) expect(failure.text).toContain(`#${seq} GET ${failedExchange(seq).request.url} → no response (UND_ERR_HEADERS_TIMEOUT) · 15000 ms`);
    expect(failure.text).toContain('< no response: UND_ERR_HEADERS_TIMEOUT: Headers Timeout Error');
    expect(childrenNamed(error!, 'error')).toHaveLength(1);
  });
});
