import type { Exchange } from '../model/exchange.ts';
import type { ExchangeFacts, RecordContext } from './exchange-facts.ts';

/**
 * What a rule concluded of one exchange for one requirement: judged, with the problems found
 * (none when it holds). A rule says nothing of an exchange its sentence does not bind.
 */
export interface Observation {
  requirement: string;
  problems: string[];
  /** A remark worth a line in the pass note (a 503 outside any drill, a Retry-After on a 503), not a fault. */
  remark?: string;
}

/**
 * A run-wide rule: a sentence of the spec judged on every recorded exchange it binds, whichever
 * suite (or the preflight) sent it. Pure: the same record gives the same observations.
 */
export interface Invariant {
  /** Short name, for reports and the judgement record. */
  name: string;
  /** Requirement ids it judges (the catalogue holds their sentences and quotes). */
  requirements: readonly string[];
  /** What the requirement asks, said as a finding's `expected`. */
  expected: Readonly<Record<string, string>>;
  /** What the requirement binds, for a verdict with nothing to judge (`error responses`). */
  binds: Readonly<Record<string, string>>;
  observe(exchange: Exchange, facts: ExchangeFacts, context: RecordContext): Observation[];
  /** For a rule that judges across the record: a fresh model for one judge. */
  model?(context: RecordContext): RecordModel;
  /**
   * The cells (`<route form> <status>`) the spec names for a requirement on the profile's routes:
   * a run should reach each, and a pass names those it did not.
   */
  declaredCells?(requirement: string, context: RecordContext): string[];
  /**
   * The verdict of a requirement no exchange reached, when the rule knows more than "nothing to
   * judge": an input the run lacks (not run, and why), or nothing it could contradict (a pass).
   */
  whenUnjudged?(requirement: string, context: RecordContext): { verdict: 'pass' | 'not-run'; note: string } | undefined;
}

/** An observation a rule makes of an exchange only once it has seen the whole record. */
export interface DeferredObservation {
  exchange: Exchange;
  facts: ExchangeFacts;
  observation: Observation;
}

/**
 * A rule's state over one record (a model over time): fed every exchange in record order, it
 * judges them once the record has ended.
 */
export interface RecordModel {
  add(exchange: Exchange, facts: ExchangeFacts): void;
  observations(): DeferredObservation[];
}

/** A coverage cell: a route in one form, and a status (`2xx` or the code). */
export function cellOf(facts: ExchangeFacts): string {
  return `${facts.routeLabel} ${facts.statusLabel ?? 'no answer'}`;
}
