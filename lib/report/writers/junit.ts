import type { Finding } from '../../model/finding.ts';
import type { Report, RequirementResult } from '../report-model.ts';
import { formatFailure } from '../format-failure.ts';
import { escapeXmlAttribute as attr, escapeXmlText as text, shorten } from './text.ts';
import { certificationText, evidenceOf, findingLine, reasonOf, resultsByArea } from './run-facts.ts';

/** Longest failure message attribute: CI tools show it on one line. */
const MESSAGE_CHARS = 300;

function element(name: string, attributes: Record<string, string | number>, body?: string): string {
  const attrs = Object.entries(attributes)
    .map(([k, v]) => ` ${k}="${attr(String(v))}"`)
    .join('');
  return body === undefined ? `<${name}${attrs}/>` : `<${name}${attrs}>${body}</${name}>`;
}

function failureText(findings: readonly Finding[]): string {
  return findings.map(formatFailure).join('\n\n');
}

/**
 * One test case per requirement. Fail → <failure> with the h2spec-style text and its curl line;
 * inconclusive → <error>; not-run and uncovered → <skipped>; warn passes with a note in
 * <system-out>, so that CI shows it without failing the build.
 */
function testCase(result: RequirementResult): string {
  const req = result.requirement;
  const attributes = { name: `${req.id} ${req.statement}`, classname: req.area };
  const evidence = evidenceOf(result);
  const first = evidence[0];
  switch (result.verdict) {
    case 'fail': {
      const message = shorten(first === undefined ? 'failed' : findingLine(first), MESSAGE_CHARS);
      return element('testcase', attributes, element('failure', { message, type: req.level }, text(failureText(evidence))));
    }
    case 'inconclusive': {
      const why = reasonOf(result) ?? 'the requirement could not be decided';
      const body = evidence.length > 0 ? failureText(evidence) : why;
      return element('testcase', attributes, element('error', { message: shorten(why, MESSAGE_CHARS), type: 'inconclusive' }, text(body)));
    }
    case 'not-run':
    case 'uncovered': {
      const why = reasonOf(result) ?? result.verdict;
      return element('testcase', attributes, element('skipped', { message: `${result.verdict}: ${shorten(why, MESSAGE_CHARS)}` }));
    }
    case 'warn': {
      const note = `WARN (${req.level}, does not fail the run)\n${failureText(evidence)}`;
      return element('testcase', attributes, element('system-out', {}, text(note)));
    }
    case 'pass': {
      const notes = result.findings.flatMap((f) => (f.note === undefined ? [] : [f.note]));
      return notes.length === 0 ? element('testcase', attributes) : element('testcase', attributes, element('system-out', {}, text(notes.join('\n'))));
    }
  }
}

/** junit.xml: one <testsuite> per area, in catalogue order. */
export function junitXml(report: Report): string {
  const meta = report.meta;
  const timestamp = meta.startedAt.replace(/\.\d+Z$|Z$/, '');
  const properties = [
    ['target', meta.target.baseUrl],
    ['profile', meta.target.profile],
    ['certifying', certificationText(meta)],
    ['seed', String(meta.seed)],
    ['harness', `${meta.tool.name} ${meta.tool.version}`],
    ['contract-digest', meta.contractDigest],
    ['outcome', report.outcome],
  ]
    .map(([name, value]) => element('property', { name: name!, value: value! }))
    .join('');
  const suites = resultsByArea(report.results).map((group) => {
    const c = group.counts;
    const cases = group.results.map((r) => `\n    ${testCase(r)}`).join('');
    const suiteAttributes = {
      name: group.area,
      tests: group.results.length,
      failures: c.fail,
      errors: c.inconclusive,
      skipped: c['not-run'] + c.uncovered,
      timestamp,
    };
    return `  ${element('testsuite', suiteAttributes, `\n    <properties>${properties}</properties>${cases}\n  `)}`;
  });
  // Errors outside any test get a suite of their own, so that CI counts them as errors.
  if (report.runErrors.length > 0) {
    const cases = report.runErrors.map((e, i) => {
      const error = element('error', { message: shorten(e, MESSAGE_CHARS), type: 'run-error' }, text(e));
      return `\n    ${element('testcase', { name: `run error ${i + 1}`, classname: 'run' }, error)}`;
    });
    const runAttributes = { name: 'run', tests: cases.length, failures: 0, errors: cases.length, skipped: 0, timestamp };
    suites.push(`  ${element('testsuite', runAttributes, `${cases.join('')}\n  `)}`);
  }
  const c = report.counts;
  const rootAttributes = {
    name: `${meta.tool.name} ${meta.runId}`,
    tests: report.results.length + report.runErrors.length,
    failures: c.fail,
    errors: c.inconclusive + report.runErrors.length,
    skipped: c['not-run'] + c.uncovered,
    time: (meta.durationMs / 1000).toFixed(3),
  };
  return `<?xml version="1.0" encoding="UTF-8"?>\n${element('testsuites', rootAttributes, `\n${suites.join('\n')}\n`)}\n`;
}
