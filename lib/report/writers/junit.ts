import type { Finding } from '../../model/finding.ts';
import type { Report, RequirementResult } from '../report-model.ts';
import { formatFailure } from '../format-failure.ts';
import { escapeXmlAttribute as attr, escapeXmlText as text, shorten } from './text.ts';
import { certificationText, evidenceOf, exchangeText, findingLine, reasonOf, resultsByArea, stopConsequence } from './run-facts.ts';
import { notPassedLines } from '../console-summary.ts';
import { waiverText } from '../expectations.ts';

/** Longest failure message attribute: CI tools show it on one line. */
const MESSAGE_CHARS = 300;
/** Body characters shown per exchange of a run's stop. */
const STOP_BODY_CHARS = 2000;

export function element(name: string, attributes: Record<string, string | number>, body?: string): string {
  const attrs = Object.entries(attributes)
    .map(([k, v]) => ` ${k}="${attr(String(v))}"`)
    .join('');
  return body === undefined ? `<${name}${attrs}/>` : `<${name}${attrs}>${body}</${name}>`;
}

function failureText(findings: readonly Finding[]): string {
  return findings.map((f) => formatFailure(f)).join('\n\n');
}

/** The verdict as a property of the case: CI tools that read properties show warnings and waivers as such. */
function verdictProperties(result: RequirementResult): string {
  const props = [element('property', { name: 'asi.verdict', value: result.verdict }), element('property', { name: 'asi.level', value: result.requirement.level })];
  if (result.waiver !== undefined) props.push(element('property', { name: 'asi.waiver', value: waiverText(result.waiver) }));
  return `<properties>${props.join('')}</properties>`;
}

/**
 * One test case per requirement, with the time its tests took. Fail → <failure> with the
 * h2spec-style text and its curl line; inconclusive → <error>; not-run and uncovered → <skipped>;
 * warn passes with `WARN` leading its <system-out> and the verdict as a property, so that CI shows
 * it without failing the build. A waived result is skipped with the waiver's words; an expired
 * waiver is a failure.
 */
function testCase(result: RequirementResult): string {
  const req = result.requirement;
  const attributes = { name: `${req.id} ${req.statement}`, classname: req.area, time: ((result.durationMs ?? 0) / 1000).toFixed(3) };
  const body = (inner: string): string => element('testcase', attributes, `${verdictProperties(result)}${inner}`);
  const evidence = evidenceOf(result);
  const first = evidence[0];
  const waiver = result.waiver;
  if (waiver?.state === 'waived') return body(element('skipped', { message: shorten(waiverText(waiver), MESSAGE_CHARS) }));
  if (waiver?.state === 'expired') return body(element('failure', { message: shorten(waiverText(waiver), MESSAGE_CHARS), type: 'waiver-expired' }, text(failureText(evidence))));
  switch (result.verdict) {
    case 'fail': {
      const message = shorten(first === undefined ? 'failed' : findingLine(first), MESSAGE_CHARS);
      return body(element('failure', { message, type: req.level }, text(failureText(evidence))));
    }
    case 'inconclusive': {
      const why = reasonOf(result) ?? 'the requirement could not be decided';
      return body(element('error', { message: shorten(why, MESSAGE_CHARS), type: 'inconclusive' }, text(evidence.length > 0 ? failureText(evidence) : why)));
    }
    case 'not-run':
    case 'uncovered': {
      const why = reasonOf(result) ?? result.verdict;
      return body(element('skipped', { message: `${result.verdict}: ${shorten(why, MESSAGE_CHARS)}` }));
    }
    case 'warn': {
      const note = `WARN (${req.level}, does not fail the run)\n${failureText(evidence)}`;
      return body(element('system-out', {}, text(note)));
    }
    case 'pass': {
      const notes = [...(waiver?.state === 'fixed' ? [waiverText(waiver)] : []), ...result.findings.flatMap((f) => (f.note === undefined ? [] : [f.note]))];
      return body(notes.length === 0 ? '' : element('system-out', {}, text(notes.join('\n'))));
    }
  }
}

/** How the cases count for a CI tool: a waived result is skipped, an expired waiver is a failure. */
function junitCounts(results: readonly RequirementResult[]): { failures: number; errors: number; skipped: number } {
  let failures = 0;
  let errors = 0;
  let skipped = 0;
  for (const r of results) {
    if (r.waiver?.state === 'waived') skipped += 1;
    else if (r.waiver?.state === 'expired' || r.verdict === 'fail') failures += 1;
    else if (r.verdict === 'inconclusive') errors += 1;
    else if (r.verdict === 'not-run' || r.verdict === 'uncovered') skipped += 1;
  }
  return { failures, errors, skipped };
}

/**
 * A run that ended early is one failing case of its own, named after where it stopped, with the
 * cause as its message and the exchanges that led there: a CI tool that shows only failures shows
 * why nothing (or not everything) ran.
 */
function stopCase(report: Report): string | undefined {
  const stop = report.stopped;
  if (stop === undefined) return undefined;
  const type = stop.at === 'preflight' ? (report.outcome === 'incomplete' ? 'interrupted' : report.outcome) : 'cut-short';
  const body = [stop.reason, stopConsequence(stop), ...stop.exchanges.map((e) => exchangeText(e, STOP_BODY_CHARS))].join('\n\n');
  const failure = element('failure', { message: shorten(stop.reason, MESSAGE_CHARS), type }, text(body));
  return element('testcase', { name: stop.at === 'preflight' ? 'preflight' : 'run cut short', classname: 'run' }, failure);
}

/** junit.xml: one <testsuite> per area, in catalogue order, and a `summary` suite with the closing list. */
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
    const c = junitCounts(group.results);
    const cases = group.results.map((r) => `\n    ${testCase(r)}`).join('');
    const time = group.results.reduce((n, r) => n + (r.durationMs ?? 0), 0) / 1000;
    const suiteAttributes = { name: group.area, tests: group.results.length, failures: c.failures, errors: c.errors, skipped: c.skipped, time: time.toFixed(3), timestamp };
    return `  ${element('testsuite', suiteAttributes, `\n    <properties>${properties}</properties>${cases}\n  `)}`;
  });
  // A stop and errors outside any test get a suite of their own, so that CI counts them.
  const stop = stopCase(report);
  const stops = stop === undefined ? 0 : 1;
  if (report.runErrors.length > 0 || stop !== undefined) {
    const cases = report.runErrors.map((e, i) => {
      const error = element('error', { message: shorten(e, MESSAGE_CHARS), type: 'run-error' }, text(e));
      return `\n    ${element('testcase', { name: `run error ${i + 1}`, classname: 'run' }, error)}`;
    });
    if (stop !== undefined) cases.unshift(`\n    ${stop}`);
    const runAttributes = { name: 'run', tests: cases.length, failures: stops, errors: report.runErrors.length, skipped: 0, timestamp };
    suites.push(`  ${element('testsuite', runAttributes, `${cases.join('')}\n  `)}`);
  }
  // The closing list of what did not pass, as the console and summary.md show it.
  const list = notPassedLines(report);
  if (list.length > 0 || report.cutShort !== undefined) {
    const out = [...(report.cutShort === undefined ? [] : [`cut short: ${report.cutShort}`]), ...list].join('\n');
    suites.push(`  ${element('testsuite', { name: 'summary', tests: 0, failures: 0, errors: 0, skipped: 0, timestamp }, `${element('system-out', {}, text(out))}`)}`);
  }
  const c = junitCounts(report.results);
  const rootAttributes = {
    name: `${meta.tool.name} ${meta.runId}`,
    tests: report.results.length + report.runErrors.length + stops,
    failures: c.failures + stops,
    errors: c.errors + report.runErrors.length,
    skipped: c.skipped,
    time: (meta.durationMs / 1000).toFixed(3),
  };
  return `<?xml version="1.0" encoding="UTF-8"?>\n${element('testsuites', rootAttributes, `\n${suites.join('\n')}\n`)}\n`;
}
