import { catalogue } from '../catalogue/index.ts';
import type { Finding } from '../model/finding.ts';
import { FULL_SELECTION, isPartial, notChosenBecause, type Selection } from '../catalogue/selection.ts';
import { READ_LIMIT, WINDOW_SECONDS, WRITE_LIMIT } from '../spec-constants.ts';
import { applyExpectations, type Expectations } from './expectations.ts';
import {
  combineVerdicts,
  levelAdjusted,
  outcomeOf,
  type Observed,
  type PreflightOutcome,
  type Report,
  stateCounts,
  type RequirementResult,
  type RunMetadata,
  type RunStop,
} from './report-model.ts';

/** What the report needs of one finished suite test (the runner's collector gives more). */
export interface ReportedTest {
  title: string;
  /** The requirement ids the test declared. */
  requirements: string[];
  findings: Finding[];
  /** Milliseconds the test took. */
  durationMs?: number;
}

/** How a run ended early: at the preflight (with the outcome that gives), or cut short in the suites. */
export type StopInput = (RunStop & { at: 'preflight'; outcome: PreflightOutcome }) | (RunStop & { at: 'suites' });

/** Why the run's limits keep it from being a certification: none at the spec's limits. */
export function limitsReasons(limits: RunMetadata['limits']): string[] {
  if (limits.read === READ_LIMIT && limits.write === WRITE_LIMIT && limits.windowS === WINDOW_SECONDS) return [];
  return [
    `the profile's limits (${limits.read} reads and ${limits.write} writes per ${limits.windowS} s) differ from the spec's (${READ_LIMIT} and ${WRITE_LIMIT} per ${WINDOW_SECONDS} s)`,
  ];
}

export interface ReportInputs {
  meta: RunMetadata;
  tests: ReportedTest[];
  runErrors: string[];
  selection?: Selection;
  /** The suites that ran (names), to tell a requirement of an unchosen suite from an uncovered one. */
  suitesRun?: readonly string[];
  expectations?: Expectations;
  /** Why the run stopped early (target down, interrupted). */
  cutShort?: string;
  /** The run ended before it judged what it chose, and the exchanges that led there. */
  stopped?: StopInput;
  observed?: Observed;
}

/**
 * Catalogue × findings → a verdict per requirement. Every requirement is listed, in catalogue
 * order: one no test covered in a full run is `uncovered`; in a partial run, one that was not
 * chosen is `not-run` and says why, and its findings (from a test that also checks a chosen one)
 * are left out, so that a partial run shows exactly what was asked.
 */
export function buildReport(inputs: ReportInputs): Report {
  const { meta, tests, runErrors } = inputs;
  const selection = inputs.selection ?? FULL_SELECTION;
  const partial = isPartial(selection);
  const byRequirement = new Map<string, Finding[]>();
  const testsOf = new Map<string, string[]>();
  const timeOf = new Map<string, number>();
  for (const t of tests) {
    for (const id of t.requirements) {
      testsOf.set(id, [...(testsOf.get(id) ?? []), t.title]);
      timeOf.set(id, (timeOf.get(id) ?? 0) + (t.durationMs ?? 0));
    }
    for (const f of t.findings) byRequirement.set(f.requirement, [...(byRequirement.get(f.requirement) ?? []), f]);
  }
  const atPreflight = inputs.stopped?.at === 'preflight' ? inputs.stopped : undefined;
  const results: RequirementResult[] = catalogue.map((requirement) => {
    const id = requirement.id;
    const notChosen = partial ? notChosenBecause(id, selection) : undefined;
    if (notChosen !== undefined) return { requirement, verdict: 'not-run', findings: [], tests: [], reason: `${notChosen} (partial run)`, unchosen: true };
    if (atPreflight !== undefined) return { requirement, verdict: 'not-run', findings: [], tests: [], reason: 'the run ended at the preflight, before any suite' };
    const findings = byRequirement.get(id) ?? [];
    const combined = combineVerdicts(findings.map((f) => levelAdjusted(f.verdict, requirement.level, meta.failOn)));
    const result: RequirementResult = { requirement, verdict: combined ?? 'uncovered', findings, tests: testsOf.get(id) ?? [] };
    const ms = timeOf.get(id);
    if (ms !== undefined) result.durationMs = Math.round(ms);
    if (combined === undefined && partial && result.tests.length === 0) {
      // No test of the chosen suites checks it: not chosen in effect.
      const area = requirement.area;
      const areaRan = (inputs.suitesRun ?? []).some((s) => s === area || s.startsWith(`${area}-`));
      result.verdict = 'not-run';
      result.unchosen = true;
      result.reason = `${areaRan || selection.suites.length === 0 ? 'no chosen suite checks it' : 'its suite was not chosen with --suite'} (partial run)`;
    } else if (combined === 'not-run' || combined === 'inconclusive') {
      const note = findings.find((f) => f.verdict === combined && f.note !== undefined)?.note;
      if (note !== undefined) result.reason = note;
    } else if (combined === undefined) {
      result.reason = 'no test of this run checks it';
    }
    return result;
  });
  // Nothing ran at all: a waiver has nothing to match.
  if (inputs.expectations !== undefined && atPreflight === undefined) applyExpectations(results, inputs.expectations, meta.startedAt.slice(0, 10));
  const counts = stateCounts(results);
  const { outcome, exitCode, incomplete } = outcomeOf({
    results,
    runErrors,
    partial,
    failOn: meta.failOn,
    ...(inputs.cutShort === undefined ? {} : { cutShort: inputs.cutShort }),
    ...(atPreflight === undefined ? {} : { preflight: { outcome: atPreflight.outcome, reason: atPreflight.reason } }),
  });
  const waived = counts.waived;
  const because = [
    ...(meta.notCertifyingBecause ?? []),
    ...(partial ? ['only chosen suites or requirements ran (--suite, --only or --skip): a certification runs them all'] : []),
    ...(waived > 0 ? [`${waived} result${waived === 1 ? ' is' : 's are'} waived by ${meta.expectations ?? 'the expectations file'}`] : []),
  ];
  const certified = { ...meta, certifying: meta.certifying && because.length === 0, notCertifyingBecause: because };
  const report: Report = { schemaVersion: 3, meta: certified, outcome, exitCode, counts, results, incomplete, runErrors };
  if (inputs.cutShort !== undefined) report.cutShort = inputs.cutShort;
  if (inputs.stopped !== undefined) {
    const { at, reason, exchanges } = inputs.stopped;
    report.stopped = { at, reason, exchanges, ...(inputs.stopped.at === 'preflight' ? { outcome: inputs.stopped.outcome } : {}) };
  }
  if (inputs.observed !== undefined) report.observed = inputs.observed;
  return report;
}
