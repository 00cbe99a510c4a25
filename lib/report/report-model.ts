import type { Coverage } from '../coverage/coverage.ts';
import type { Exchange } from '../model/exchange.ts';
import type { Finding, Verdict } from '../model/finding.ts';
import type { Level, Requirement } from '../model/requirement.ts';

/** A requirement's verdict: a finding verdict, or `uncovered` when no test in the run checks it. */
export type RequirementVerdict = Verdict | 'uncovered';

/**
 * How a result reads and counts in every report: its verdict, or `waived` when an expectation
 * (--expect) matched that verdict. A waived result counts as waived only, never also as the
 * verdict it had: it does not fail the run.
 */
export type ResultState = RequirementVerdict | 'waived';

export interface RequirementResult {
  requirement: Requirement;
  verdict: RequirementVerdict;
  findings: Finding[];
  /** Titles of the tests that declared this requirement. */
  tests: string[];
  /** Why the verdict is not-run or inconclusive, when one reason says it. */
  reason?: string;
  /** True when a partial run did not choose it (--suite, --only, --skip): not-run by choice, not by lack. */
  unchosen?: boolean;
  /** Milliseconds the tests that declared this requirement took (junit times). */
  durationMs?: number;
  /** The expectation (--expect) that names this requirement, and how the run met it. */
  waiver?: AppliedWaiver;
}

/**
 * How a run met one expectation: `waived` (the expected verdict came: it does not count),
 * `fixed` (the requirement passed: remove the waiver), `expired` (its date has passed: it fails the
 * run), `unmet` (another verdict came: it counts as it is).
 */
export type WaiverState = 'waived' | 'fixed' | 'expired' | 'unmet';

export interface AppliedWaiver {
  status: 'fail' | 'warn' | 'not-run';
  reason: string;
  issue?: string;
  /** YYYY-MM-DD: the last day the waiver holds. */
  expires?: string;
  state: WaiverState;
}

export interface RequestCount {
  role: string;
  pool: string;
  requests: number;
}

/**
 * conformant: a full run in which every MUST passed (exit 0). partial: a run of chosen suites or
 * requirements in which nothing failed (exit 0, never a certification). not-conformant: something
 * failed (exit 1). incomplete: a MUST could not be judged, or the run was cut short (exit 3).
 * The preflight can end a run before any suite, every requirement then not run: refused, when
 * base_url answered but not as an ASI v1 server (a 404, a web page, a redirect) or rejected the
 * primary token (exit 2); unreachable, when it did not answer (exit 3); an interrupt there is
 * incomplete, as anywhere else.
 */
export type Outcome = 'conformant' | 'partial' | 'not-conformant' | 'incomplete' | 'refused' | 'unreachable';

/** The outcomes a run ended at the preflight can have. */
export type PreflightOutcome = Extract<Outcome, 'refused' | 'unreachable' | 'incomplete'>;

/** Why a run ended before it judged what it chose, and the exchanges that led there. */
export interface RunStop {
  /** preflight: no suite ran (the outcome says why); suites: the run was cut short (`cutShort` has the same words). */
  at: 'preflight' | 'suites';
  /** The cause in one line, as the console printed it. */
  reason: string;
  /**
   * The preflight's exchanges, in the order sent; or the last ones the run sent before it was cut
   * short (for a target that stopped answering, those that went unanswered).
   */
  exchanges: Exchange[];
  /** At the preflight: how it ended (refused, unreachable, or interrupted), as the run decided it. */
  outcome?: PreflightOutcome;
}

/** One reason a run is incomplete: a requirement without a verdict, or the run itself. */
export interface IncompleteItem {
  id?: string;
  verdict?: RequirementVerdict;
  reason: string;
}

export interface RunMetadata {
  runId: string;
  tool: { name: string; version: string };
  node: string;
  startedAt: string;
  finishedAt: string;
  durationMs: number;
  target: { baseUrl: string; embedded: boolean; profile: string };
  /** The implementation under test as the user names it (--label, --impl-version, or the profile). */
  implementation?: { label?: string; version?: string };
  /** True only for a full run at the spec's limits without waivers. */
  certifying: boolean;
  /** Why the run is not a certification, in words; empty when it is one. */
  notCertifyingBecause?: string[];
  limits: { read: number; write: number; windowS: number };
  seed: number;
  contractDigest: string;
  suites: string[];
  /** --suite, --only and --skip as given. */
  selection?: { suites: string[]; only: string[]; skip: string[] };
  failOn: 'must' | 'should';
  /** --fail-on coverage: pairs of the exchange matrix not reached make the run incomplete. */
  failOnCoverage?: boolean;
  requests: RequestCount[];
  /** Milliseconds the pacer spent waiting on the target's limits. */
  pacingWaitMs?: number;
  argv: string[];
  /** The profile as data, with secret values replaced by their placeholders and local paths hidden. */
  profile?: unknown;
  /** The expectations file (--expect), by name. */
  expectations?: string;
  /** The baseline report (--baseline), by name and run id. */
  baseline?: { file: string; runId: string };
}

export interface Report {
  schemaVersion: 3;
  meta: RunMetadata;
  outcome: Outcome;
  exitCode: 0 | 1 | 2 | 3;
  /** Requirements per state: every requirement counts once, a waived one as waived. */
  counts: Record<ResultState, number>;
  results: RequirementResult[];
  /** Why the outcome is incomplete (empty otherwise), worst first. */
  incomplete: IncompleteItem[];
  /** Errors outside any test (a suite file that failed to load, an unhandled rejection). */
  runErrors: string[];
  /** Set when the run stopped early: the target stopped answering, or it was interrupted. */
  cutShort?: string;
  /** Set when the run ended before it judged what it chose: at the preflight, or cut short. */
  stopped?: RunStop;
  /** Error codes and fields the target showed, for drift checks between releases (--baseline, diff). */
  observed?: Observed;
  /** The comparison with --baseline. */
  baselineDiff?: BaselineDiff;
  /** The exchange matrix as the record reached it: values, pairs, and each pair not reached with why. */
  coverage?: Coverage;
}

/** What the run saw of the target's vocabulary: error codes per situation and fields per kind of body. */
export interface Observed {
  /** `METHOD route STATUS` -> error codes seen there. */
  errorCodes: Record<string, string[]>;
  /** Kind of body (`ledger row`, `error`, `event done`, ...) -> how many such bodies came, and per field how many carried it. */
  fields: Record<string, { bodies: number; counts: Record<string, number> }>;
}

export interface VerdictChange {
  id: string;
  /** The result's state: its verdict, or `waived` (ResultState). */
  before: ResultState | 'absent';
  after: ResultState | 'absent';
}

export interface BaselineDiff {
  baseline: { runId: string; tool: string; startedAt: string };
  /** Failing now, not failing in the baseline: regressions. */
  newFailures: VerdictChange[];
  /** Failing in the baseline, passing now. */
  fixed: VerdictChange[];
  stillFailing: VerdictChange[];
  /** Any other change of verdict (pass to inconclusive, not-run to pass, ...). */
  otherChanges: VerdictChange[];
  /** Requirements the new run, a partial one, did not choose (--suite, --only, --skip): not compared. */
  notChosen?: string[];
  /** Requirement ids only one of the two catalogues has (a harness upgrade between the runs). */
  added: string[];
  removed: string[];
  /** Error codes the baseline saw in a situation where this run saw only other codes: renamed or removed (regressions, §9.2). */
  codesGone: Array<{ situation: string; before: string[]; after: string[] }>;
  /** Fields the baseline saw in a kind of body that this run saw without them (regressions). */
  fieldsGone: Array<{ kind: string; fields: string[] }>;
  /** True when the diff holds a regression: the only case that fails a baseline gate. */
  regressed: boolean;
}

/**
 * Order of severity when several findings speak of one requirement: one failure fails it; an
 * inconclusive test keeps it from passing; not-run only counts when nothing ran.
 */
const SEVERITY: Verdict[] = ['fail', 'inconclusive', 'warn', 'pass', 'not-run'];

export function combineVerdicts(verdicts: Verdict[]): Verdict | undefined {
  for (const v of SEVERITY) if (verdicts.includes(v)) return v;
  return undefined;
}

/** A SHOULD or INFO requirement never fails a run by itself: its failure reads as a warning. */
export function levelAdjusted(verdict: Verdict, level: Level, failOn: 'must' | 'should'): Verdict {
  if (verdict !== 'fail') return verdict;
  if (level === 'MUST') return 'fail';
  if (level === 'SHOULD' && failOn === 'should') return 'fail';
  return 'warn';
}

export interface OutcomeInputs {
  results: readonly RequirementResult[];
  runErrors: readonly string[];
  partial: boolean;
  failOn: 'must' | 'should';
  cutShort?: string;
  /** The run ended at the preflight: the outcome that gives and why. */
  preflight?: { outcome: PreflightOutcome; reason: string };
}

/** A result's state: `waived` when its waiver matched, else its verdict. */
export function resultState(r: RequirementResult): ResultState {
  return r.waiver?.state === 'waived' ? 'waived' : r.verdict;
}

/** A result that counts: any verdict without a matching waiver. */
function counts(r: RequirementResult): boolean {
  return resultState(r) !== 'waived';
}

/** Requirements per state, each counted once. */
export function stateCounts(results: readonly RequirementResult[]): Record<ResultState, number> {
  const tally: Record<ResultState, number> = { pass: 0, fail: 0, warn: 0, 'not-run': 0, inconclusive: 0, uncovered: 0, waived: 0 };
  for (const r of results) tally[resultState(r)] += 1;
  return tally;
}

/**
 * Why a run is incomplete. In a full run every MUST (and SHOULD with --fail-on should) must have
 * a verdict of its own: not-run, inconclusive and uncovered all keep it from being conformant. In
 * a partial run what was not chosen is not missing, and a chosen requirement that could not run
 * (no token) is listed but not blocking; one whose test broke, got no answer or never ran is.
 */
export function incompleteItems(inputs: OutcomeInputs): IncompleteItem[] {
  // Nothing ran: the one reason says it, a list of every requirement would not.
  if (inputs.preflight !== undefined) return [{ reason: inputs.preflight.reason }];
  const items: IncompleteItem[] = [];
  if (inputs.cutShort !== undefined) items.push({ reason: inputs.cutShort });
  for (const e of inputs.runErrors) items.push({ reason: `run error: ${e}` });
  const blocking: RequirementVerdict[] = inputs.partial ? ['inconclusive', 'uncovered'] : ['inconclusive', 'not-run', 'uncovered'];
  const levels = inputs.failOn === 'should' ? ['MUST', 'SHOULD'] : ['MUST'];
  for (const r of inputs.results) {
    if (!levels.includes(r.requirement.level) || !counts(r) || !blocking.includes(r.verdict)) continue;
    items.push({ id: r.requirement.id, verdict: r.verdict, reason: r.reason ?? r.verdict });
  }
  // A partial run that judged nothing it chose (every chosen requirement not run) shows no evidence
  // at all: never green.
  if (inputs.partial && !inputs.results.some((r) => r.verdict === 'pass' || r.verdict === 'fail' || r.verdict === 'warn')) {
    items.push({ reason: 'nothing this partial run chose could be judged: every chosen requirement was not run (listed above)' });
  }
  return items;
}

export function outcomeOf(inputs: OutcomeInputs): { outcome: Outcome; exitCode: 0 | 1 | 2 | 3; incomplete: IncompleteItem[] } {
  const incomplete = incompleteItems(inputs);
  // The same exit codes as the one line the console prints: 2 for a target that is not one, 3 otherwise.
  if (inputs.preflight !== undefined) return { outcome: inputs.preflight.outcome, exitCode: inputs.preflight.outcome === 'refused' ? 2 : 3, incomplete };
  // A run cut short (the target died, or an interrupt) is incomplete even with failures found before:
  // what it did not get to may matter more, and CI must tell "stopped" from "judged".
  if (inputs.cutShort !== undefined) return { outcome: 'incomplete', exitCode: 3, incomplete };
  const failed = inputs.results.some((r) => (r.verdict === 'fail' && counts(r)) || r.waiver?.state === 'expired');
  if (failed) return { outcome: 'not-conformant', exitCode: 1, incomplete };
  if (incomplete.length > 0) return { outcome: 'incomplete', exitCode: 3, incomplete };
  return { outcome: inputs.partial ? 'partial' : 'conformant', exitCode: 0, incomplete };
}
