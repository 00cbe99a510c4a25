import type { CollectedTest } from '../runner/findings-collector.ts';
import { FULL_SELECTION } from '../catalogue/selection.ts';
import { baselineGate } from '../report/baseline-diff.ts';
import { buildReport, limitsReasons, type StopInput } from '../report/build-report.ts';
import type { Expectations } from '../report/expectations.ts';
import type { Report, RequirementResult, RunStop } from '../report/report-model.ts';
import { canonicalJson } from './harness-identity.ts';
import { REPORT_NAME, bundledReport } from './bundled-report.ts';
import type { OpenedBundle } from './open-bundle.ts';
import { shown, type StepResult, type VerifyProblem } from './verify-problem.ts';

/**
 * The report's verdicts re-derived from its findings by the functions that derived them in the
 * run (buildReport: combineVerdicts, levelAdjusted, the waivers, outcomeOf), never a copy of
 * them: each requirement's verdict, then the counts, the outcome, the exit code and whether the
 * run certifies. A verdict edited in report.json, or a finding moved, removed or re-labelled,
 * shows as a difference naming the requirement.
 */

/**
 * How the run stopped early, as certify gave it to buildReport. A stop at the preflight carries the
 * outcome the run decided; a report written before it kept one has it read again from what it
 * recorded: interrupted (the run was cut short), no answer to the last exchange it sent
 * (unreachable), or an answer it refused (refused).
 */
function stopInput(stop: RunStop, cutShort: string | undefined): StopInput {
  if (stop.at === 'suites') return { ...stop, at: 'suites' };
  const last = stop.exchanges.at(-1);
  const outcome = stop.outcome ?? (cutShort !== undefined ? 'incomplete' : last?.response === undefined ? 'unreachable' : 'refused');
  return { ...stop, at: 'preflight', outcome };
}

/** The inputs buildReport had, as far as the report keeps them: tests by title, findings, waivers, how it stopped. */
function reportInputs(report: Report): Parameters<typeof buildReport>[0] {
  const titles = new Map<string, string[]>();
  for (const r of report.results) for (const t of r.tests) titles.set(t, [...(titles.get(t) ?? []), r.requirement.id]);
  const tests: CollectedTest[] = [...titles].map(([title, requirements]) => ({ suite: '', title, state: 'passed', requirements, findings: [], requests: 0 }));
  // Every finding, in report order: buildReport groups them by the requirement each one names.
  tests.push({ suite: '', title: '', state: 'passed', requirements: [], findings: report.results.flatMap((r) => r.findings), requests: 0 });
  const expectations: Expectations = {};
  for (const r of report.results) {
    const w = r.waiver;
    if (w !== undefined) expectations[r.requirement.id] = { status: w.status, reason: w.reason, ...(w.issue === undefined ? {} : { issue: w.issue }), ...(w.expires === undefined ? {} : { expires: w.expires }) };
  }
  const because = limitsReasons(report.meta.limits);
  return {
    // certify gives buildReport the limits' verdict; buildReport adds selection and waivers.
    meta: { ...report.meta, certifying: because.length === 0, notCertifyingBecause: because },
    tests,
    runErrors: report.runErrors,
    selection: report.meta.selection ?? FULL_SELECTION,
    suitesRun: report.meta.suites,
    ...(Object.keys(expectations).length === 0 ? {} : { expectations }),
    ...(report.cutShort === undefined ? {} : { cutShort: report.cutShort }),
    ...(report.stopped === undefined ? {} : { stopped: stopInput(report.stopped, report.cutShort) }),
  };
}

/** The report buildReport makes from what `report` holds, gated on its baseline as certify gates it. */
export function rederivedReport(report: Report): Report {
  const built = buildReport(reportInputs(report));
  if (report.baselineDiff !== undefined) built.exitCode = baselineGate({ ...built, baselineDiff: report.baselineDiff }).exitCode;
  return built;
}

function resultFacts(r: RequirementResult): Record<string, unknown> {
  return { verdict: r.verdict, reason: r.reason, unchosen: r.unchosen === true, waiver: r.waiver?.state };
}

function compareResults(report: Report, rederived: Report): VerifyProblem[] {
  const problems: VerifyProblem[] = [];
  const given = new Map(report.results.map((r) => [r.requirement.id, r]));
  for (const want of rederived.results) {
    const id = want.requirement.id;
    const got = given.get(id);
    if (got === undefined) {
      problems.push({ file: REPORT_NAME, requirement: id, message: `has no result for this requirement; its findings give ${shown(want.verdict)}` });
      continue;
    }
    if (canonicalJson(got.requirement) !== canonicalJson(want.requirement)) {
      problems.push({ file: REPORT_NAME, requirement: id, message: `shows the requirement as ${shown(got.requirement, 120)}; the catalogue says ${shown(want.requirement, 120)}` });
    }
    for (const [i, f] of got.findings.entries()) {
      if (f.requirement !== id) problems.push({ file: REPORT_NAME, requirement: id, message: `finding ${i + 1} is about ${shown(f.requirement)}, not this requirement` });
    }
    const a = resultFacts(got);
    const b = resultFacts(want);
    for (const key of Object.keys(b)) {
      if (a[key] === b[key]) continue;
      const what = key === 'verdict' ? 'verdict' : key === 'waiver' ? 'waiver state' : key;
      problems.push({ file: REPORT_NAME, requirement: id, message: `says ${what} ${shown(a[key])}; its findings give ${shown(b[key])}` });
    }
  }
  const known = new Set(rederived.results.map((r) => r.requirement.id));
  for (const r of report.results) {
    if (!known.has(r.requirement.id)) problems.push({ file: REPORT_NAME, requirement: r.requirement.id, message: 'is a result for a requirement the catalogue does not have' });
  }
  if (report.results.length === rederived.results.length && problems.length === 0 && report.results.some((r, i) => r.requirement.id !== rederived.results[i]!.requirement.id)) {
    problems.push({ file: REPORT_NAME, message: 'lists the requirements out of catalogue order' });
  }
  return problems;
}

/** The run-level facts derived from the verdicts: a difference in any is a problem of the whole report. */
function compareRun(report: Report, rederived: Report): VerifyProblem[] {
  const facts: Array<[string, unknown, unknown]> = [
    ['counts', report.counts, rederived.counts],
    ['outcome', report.outcome, rederived.outcome],
    ['exit code', report.exitCode, rederived.exitCode],
    ['incomplete list', report.incomplete, rederived.incomplete],
    ['certifying', report.meta.certifying, rederived.meta.certifying],
    ['reasons it is not a certification', report.meta.notCertifyingBecause ?? [], rederived.meta.notCertifyingBecause ?? []],
  ];
  return facts
    .filter(([, a, b]) => canonicalJson(a) !== canonicalJson(b))
    .map(([what, a, b]) => ({ file: REPORT_NAME, message: `says ${what} ${shown(a, 160)}; the verdicts give ${shown(b, 160)}` }));
}

export function reportVerdicts(bundle: OpenedBundle): StepResult {
  const read = bundledReport(bundle);
  if ('problem' in read) return { checked: 'verdicts not re-derived: report.json cannot be read', problems: [read.problem] };
  const { report } = read;
  const rederived = rederivedReport(report);
  const problems = [...compareResults(report, rederived), ...compareRun(report, rederived)];
  const findings = report.results.reduce((n, r) => n + r.findings.length, 0);
  const checked =
    problems.length === 0
      ? `${rederived.results.length} verdicts re-derived from ${findings} findings; counts, outcome ${rederived.outcome} and exit code ${rederived.exitCode} follow from them`
      : `${rederived.results.length} verdicts re-derived from ${findings} findings: report.json does not say what they give (below)`;
  return { checked, problems };
}
