import { dirname, join } from 'node:path';
import type { Encoded } from './codec.ts';

/** A line of the judgement record: a large value cited by digest, or one checker call. */
export type JudgementLine = ValueLine | CallLine;

export interface ValueLine {
  value: string;
  data: Encoded;
}

export interface CallLine {
  /** The judgement's id, which findings cite (`Finding.judgement.id`). */
  judgement: string;
  /** The test that made it, for a reader. */
  test?: string;
  /** The checker's registered name (lib/checks/judged.ts), or `run-wide` for the run-wide rules. */
  checker: string;
  args: Encoded[];
  output: Encoded;
  /** Set when an argument could not be recorded (a function): the call cannot be re-derived. */
  opaque?: true;
}

/** The judgement of the run-wide rules over the whole record (lib/invariants/): its id and checker name. */
export const RUN_WIDE_JUDGEMENT = 'run-wide';

/** The run's working file of judgements, beside its transcript; the bundle carries it as record/judgements.jsonl. */
export function judgementsFile(transcriptFile: string): string {
  return join(dirname(transcriptFile), '.judgements.jsonl');
}
