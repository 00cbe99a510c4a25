import type { Exchange } from './exchange.ts';

export type Verdict = 'pass' | 'fail' | 'warn' | 'not-run' | 'inconclusive';

/** Replay data of a property test (fast-check). */
export interface PropertyEvidence {
  seed: number;
  path?: string;
  numRuns: number;
  /** The shrunk counterexample, as JSON text. */
  counterexample?: string;
  /** Requests the property spent. */
  requests: number;
  /** The run options that replay this property exactly (`--seed RUN --only ID --replay ID=PATH`). */
  replay?: string;
}

/** The judgement (a recorded checker call) a finding came from, and its place in that call's output. */
export interface JudgementRef {
  id: string;
  index: number;
}

/**
 * What a checker concluded about one requirement. Checkers are pure: they take exchanges and
 * return findings, and the report derives verdicts from them.
 */
export interface Finding {
  requirement: string;
  verdict: Verdict;
  /** What the spec demands, in words. */
  expected?: string;
  /** What the target did. */
  actual?: string;
  /** A note for INFO findings, not-run reasons and inconclusive causes. */
  note?: string;
  exchanges: Exchange[];
  property?: PropertyEvidence;
  /** The recorded checker call that produced it: offline verification re-runs it (lib/judgement/). */
  judgement?: JudgementRef;
}

export function pass(requirement: string, exchanges: Exchange[] = [], note?: string): Finding {
  return note === undefined ? { requirement, verdict: 'pass', exchanges } : { requirement, verdict: 'pass', exchanges, note };
}

export function fail(requirement: string, expected: string, actual: string, exchanges: Exchange[]): Finding {
  return { requirement, verdict: 'fail', expected, actual, exchanges };
}

export function notRun(requirement: string, why: string): Finding {
  return { requirement, verdict: 'not-run', note: why, exchanges: [] };
}

export function inconclusive(requirement: string, why: string, exchanges: Exchange[] = []): Finding {
  return { requirement, verdict: 'inconclusive', note: why, exchanges };
}

