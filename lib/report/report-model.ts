import type { Finding, Verdict } from '../model/finding.ts';
import type { Level, Requirement } from '../model/requirement.ts';

/** A requirement's verdict: a finding verdict, or `uncovered` when no test in the run checks it. */
export type RequirementVerdict = Verdict | 'uncovered';

export interface RequirementResult {
  requirement: Requirement;
  verdict: RequirementVerdict;
  findings: Finding[];
  /** Titles of the tests that declared this requirement. */
  tests: string[];
  /** Why the verdict is not-run or inconclusive, when one reason says it. */
  reason?: string;
}

export interface RequestCount {
  role: string;
  pool: string;
  requests: number;
}

export type Outcome = 'conformant' | 'not-conformant' | 'inconclusive';

export interface RunMetadata {
  runId: string;
  tool: { name: string; version: string };
  node: string;
  startedAt: string;
  finishedAt: string;
  durationMs: number;
  target: { baseUrl: string; embedded: boolean; profile: string };
  certifying: boolean;
  limits: { read: number; write: number; windowS: number };
  seed: number;
  contractDigest: string;
  suites: string[];
  failOn: 'must' | 'should';
  requests: RequestCount[];
  /** Milliseconds the pacer spent waiting on the target's limits. */
  pacingWaitMs?: number;
  argv: string[];
}

export interface Report {
  schemaVersion: 1;
  meta: RunMetadata;
  outcome: Outcome;
  exitCode: 0 | 1 | 3;
  counts: Record<RequirementVerdict, number>;
  results: RequirementResult[];
  /** Errors outside any test (a suite file that failed to load, an unhandled rejection). */
  runErrors: string[];
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

export function outcomeOf(results: RequirementResult[], runErrors: string[]): { outcome: Outcome; exitCode: 0 | 1 | 3 } {
  if (results.some((r) => r.verdict === 'fail')) return { outcome: 'not-conformant', exitCode: 1 };
  const mustInconclusive = results.some((r) => r.verdict === 'inconclusive' && r.requirement.level !== 'INFO');
  if (mustInconclusive || runErrors.length > 0) return { outcome: 'inconclusive', exitCode: 3 };
  return { outcome: 'conformant', exitCode: 0 };
}
