import { waiverText } from '../report/expectations.ts';
import { element } from '../report/writers/junit.ts';
import { escapeXmlText as text, shorten } from '../report/writers/text.ts';
import type { ClientReport, GradedVerdict } from './client-report.ts';

const MESSAGE_CHARS = 300;

/** The failing findings of a verdict: the scenario, the reason and the trace around the request judged. */
function findingsText(v: GradedVerdict): string {
  const quote = v.requirement.quote === undefined ? [] : [`§${v.requirement.section}: ${v.requirement.quote}`];
  const findings = v.findings.filter((f) => f.verdict === 'fail').map((f) => [`${f.scenario}: ${f.reason}`, ...f.timeline].join('\n'));
  return [...findings, ...quote].join('\n\n');
}

/** One test case per client requirement, as a run's: fail → <failure>, a waived failure or not run → <skipped>, warn passes with WARN in <system-out>. */
function testCase(v: GradedVerdict): string {
  const req = v.requirement;
  const props = [element('property', { name: 'asi.verdict', value: v.verdict }), element('property', { name: 'asi.level', value: req.level })];
  if (v.waiver !== undefined) props.push(element('property', { name: 'asi.waiver', value: waiverText(v.waiver) }));
  const body = (inner: string): string => element('testcase', { name: `${req.id} ${req.statement}`, classname: 'client', time: '0.000' }, `<properties>${props.join('')}</properties>${inner}`);
  if (v.waiver?.state === 'waived') return body(element('skipped', { message: shorten(waiverText(v.waiver), MESSAGE_CHARS) }));
  if (v.waiver?.state === 'expired') return body(element('failure', { message: shorten(waiverText(v.waiver), MESSAGE_CHARS), type: 'waiver-expired' }, text(findingsText(v))));
  switch (v.verdict) {
    case 'fail':
      return body(element('failure', { message: shorten(v.reason, MESSAGE_CHARS), type: req.level }, text(findingsText(v))));
    case 'warn':
      return body(element('system-out', {}, text(`WARN (${req.level}, does not fail the run)\n${findingsText(v)}`)));
    case 'not-run':
      return body(element('skipped', { message: `not-run: ${shorten(v.reason, MESSAGE_CHARS)}` }));
    case 'pass':
      return body(element('system-out', {}, text(v.reason)));
  }
}

/** junit.xml of a client grading: one suite, `client`, one case per client requirement. */
export function clientJunit(report: ClientReport): string {
  const failures = report.verdicts.filter((v) => v.waiver?.state === 'expired' || (v.verdict === 'fail' && v.waiver?.state !== 'waived')).length;
  const skipped = report.verdicts.filter((v) => v.waiver?.state === 'waived' || (v.verdict === 'not-run' && v.waiver === undefined)).length;
  const properties = [
    ['command', report.command.join(' ')],
    ['scenarios', report.scenarios.map((s) => s.scenario).join(', ')],
    ['seed', String(report.seed)],
    ['harness', `${report.harness.name} ${report.harness.version}`],
    ['outcome', report.outcome],
  ]
    .map(([name, value]) => element('property', { name: name!, value: value! }))
    .join('');
  const cases = report.verdicts.map((v) => `\n    ${testCase(v)}`).join('');
  const timestamp = report.startedAt.replace(/\.\d+Z$|Z$/, '');
  const seconds = ((Date.parse(report.finishedAt) - Date.parse(report.startedAt)) / 1000).toFixed(3);
  const suite = element('testsuite', { name: 'client', tests: report.verdicts.length, failures, errors: 0, skipped, time: seconds, timestamp }, `\n    <properties>${properties}</properties>${cases}\n  `);
  const root = element('testsuites', { name: `${report.harness.name} client ${report.runId}`, tests: report.verdicts.length, failures, errors: 0, skipped, time: seconds }, `\n  ${suite}\n`);
  return `<?xml version="1.0" encoding="UTF-8"?>\n${root}\n`;
}
