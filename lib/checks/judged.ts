import type { Finding, JudgementRef } from '../model/finding.ts';

/**
 * Where judgements go while a run records them (lib/suite/judgement-log.ts): each call of a
 * checker with what it was given and what it found. Returns the judgement's id.
 */
export interface JudgementSink {
  record(checker: string, args: readonly unknown[], output: unknown): string;
}

// eslint-style note: the registry holds checkers of every signature; callers look one up by name
// and call it with recorded arguments, so its type is the widest function type.
type AnyChecker = (...args: never[]) => unknown;

const CHECKERS = new Map<string, AnyChecker>();
let sink: JudgementSink | undefined;
/** Calls under way: a checker called by another is part of the outer judgement, not one of its own. */
let depth = 0;

function isFinding(v: unknown): v is Finding {
  return typeof v === 'object' && v !== null && typeof (v as Finding).requirement === 'string' && typeof (v as Finding).verdict === 'string';
}

/** Marks each finding of an output with the judgement that produced it and its place there. */
function tag(output: unknown, id: string): void {
  const mark = (f: Finding, index: number): void => {
    const ref: JudgementRef = { id, index };
    f.judgement = ref;
  };
  if (isFinding(output)) mark(output, 0);
  else if (Array.isArray(output)) output.forEach((f, i) => isFinding(f) && mark(f, i));
}

/**
 * A pure checker whose every call is a judgement of the run: recorded with its inputs and output,
 * so that a reviewer re-runs it on the recorded exchanges and gets the same findings (offline
 * verification). `name` is stable (`module/function`): the record cites it.
 */
export function judged<A extends unknown[], R>(name: string, checker: (...args: A) => R): (...args: A) => R {
  if (CHECKERS.has(name)) throw new Error(`checker ${name} is registered twice`);
  CHECKERS.set(name, checker as unknown as AnyChecker);
  return (...args: A): R => {
    if (sink === undefined || depth > 0) return checker(...args);
    depth += 1;
    let output: R;
    try {
      output = checker(...args);
    } finally {
      depth -= 1;
    }
    tag(output, sink.record(name, args, output));
    return output;
  };
}

/** Starts (or, with undefined, stops) recording judgements. */
export function recordJudgements(to: JudgementSink | undefined): void {
  sink = to;
}

/** The checker a judgement names, unwrapped: calling it records nothing. */
export function checkerNamed(name: string): ((...args: unknown[]) => unknown) | undefined {
  return CHECKERS.get(name) as ((...args: unknown[]) => unknown) | undefined;
}

export function checkerNames(): string[] {
  return [...CHECKERS.keys()];
}
