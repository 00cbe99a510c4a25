import fc from 'fast-check';
import { propertyHeldFinding } from '../checks/property-outcome.ts';
import type { Finding, PropertyEvidence } from '../model/finding.ts';
import { trimFinding } from '../model/evidence-trim.ts';
import { drawnInputs, ProbedAhead, type DrawParameters } from './property-lookahead.ts';
import { runningTestIds } from './requirement-test.ts';
import { session } from './session.ts';

export interface PropertyOptions<T = unknown> {
  numRuns: number;
  /** Requests shrinking may spend before it stops looking for a smaller counterexample. */
  maxShrinkRequests?: number;
  /** Inputs run before the random ones (counted in numRuns): cells a random draw may miss. */
  examples?: readonly T[];
  /**
   * The probe's answers do not depend on another input's requests: inputs are drawn ahead of the
   * run and probed side by side (lib/suite/property-lookahead.ts). One at a time when absent.
   */
  independent?: boolean;
}

/** A property's seed: the run seed mixed with the requirement id, so each property replays alone. */
export function propertySeed(runSeed: number, requirement: string): number {
  let h = runSeed | 0;
  for (let i = 0; i < requirement.length; i++) h = Math.imul(h ^ requirement.charCodeAt(i), 0x5bd1e995) ^ (h >>> 15);
  return h | 0;
}

/** A probe whose findings are trimmed once it settles: the results probed ahead wait to be taken, and their bodies with them. */
function trimmedProbe<T>(probe: (input: T) => Promise<Finding[]>): (input: T) => Promise<Finding[]> {
  return async (input) => (await probe(input)).map(trimFinding);
}

/**
 * Runs a property against the target with fast-check. The probe sends requests for one input
 * and returns findings; the property fails on the first `fail`. A failure comes back as the
 * findings of the shrunk counterexample, each carrying the seed and path that replay it and the
 * number of requests the property spent.
 */
export async function checkProperty<T>(
  requirement: string,
  arbitrary: fc.Arbitrary<T>,
  probe: (input: T) => Promise<Finding[]>,
  options: PropertyOptions<T>,
): Promise<Finding[]> {
  const s = session();
  const seed = propertySeed(s.context.seed, requirement);
  const path = s.context.replayPaths?.[requirement];
  const start = s.requestCount();
  const shrinkBudget = options.maxShrinkRequests ?? 60;
  let failedAt: number | undefined;
  let lastFailure: Finding[] = [];
  let sample: Finding[] = [];
  const parameters: DrawParameters<T> = {
    seed,
    numRuns: options.numRuns,
    ...(options.examples === undefined ? {} : { examples: options.examples.map((e): [T] => [e]) }),
  };
  // A replayed path starts mid-run: drawing ahead would draw from the start.
  const ahead =
    options.independent === true && path === undefined
      ? new ProbedAhead(await drawnInputs(arbitrary, parameters), trimmedProbe(probe), s.sideBySide())
      : undefined;
  const property = fc.asyncProperty(arbitrary, async (input) => {
    // Once shrinking has spent its budget, skip further candidates instead of sending requests.
    if (failedAt !== undefined && s.requestCount() - failedAt > shrinkBudget) fc.pre(false);
    const findings = (failedAt === undefined ? await ahead?.take(input) : undefined) ?? (await probe(input));
    // Kept as evidence, trimmed now: shrinking runs on, and the bodies of a kept input would stay
    // in memory with it.
    if (findings.some((f) => f.verdict === 'fail')) {
      // Shrinking probes live, and its budget counts from here: the probes ahead end first.
      ahead?.stop();
      await ahead?.settled();
      failedAt ??= s.requestCount();
      lastFailure = findings.map(trimFinding);
      return false;
    }
    sample = passSample(sample, findings, trimFinding);
    return true;
  });
  const details = await fc.check(property, { ...parameters, ...(path === undefined ? {} : { path }) });
  // Inputs drawn past a failure were probed too: their requests end inside this test.
  await ahead?.settled();
  const requests = s.requestCount() - start;
  if (!details.failed) {
    const evidence = { seed, numRuns: details.numRuns, requests };
    const passed = sample.length > 0 ? sample : [propertyHeldFinding(requirement, details.numRuns)];
    return passed.map((f) => ({ ...f, property: evidence }));
  }
  const replayPath = details.counterexamplePath ?? undefined;
  const evidence = {
    seed,
    path: replayPath,
    numRuns: details.numRuns,
    counterexample: details.counterexample === null ? undefined : fc.stringify(details.counterexample[0]),
    requests,
  };
  if (lastFailure.length === 0) {
    const why = details.errorInstance instanceof Error ? details.errorInstance.message : 'property failed without a finding';
    throw new Error(`property ${requirement} (seed ${seed}) broke: ${why}`, { cause: details.errorInstance });
  }
  const replay = replayOptions(requirement, s.context.seed, replayPath, runningTestIds());
  return lastFailure.map((f) => ({ ...f, property: JSON.parse(JSON.stringify({ ...evidence, replay: replay(f.requirement) })) as PropertyEvidence }));
}

/**
 * The sample a passing property shows, with the findings of one more input that held: the first
 * input's, or a later one's judged whole (a probe may leave some requirements of an input not
 * run, such as a generated text the target refused); with the first passes of each requirement
 * that only other inputs reached (a walk of one page says nothing of how a walk of several ends).
 */
export function passSample(sample: readonly Finding[], findings: readonly Finding[], keep: (f: Finding) => Finding = (f) => f): Finding[] {
  const unjudged = (list: readonly Finding[]): boolean => list.some((f) => f.verdict === 'not-run');
  // `keep` (the evidence trim) runs only on what is kept of the new input: most inputs add nothing.
  if (sample.length === 0 || (unjudged(sample) && !unjudged(findings))) return withOthers(findings.map(keep), sample);
  return withOthers(sample, findings, keep);
}

/**
 * `first`, then the passes of `others` whose requirement `first` has no finding of. Only passes:
 * what another input left inconclusive was never shown, and a verdict judged elsewhere stays so.
 */
function withOthers(first: readonly Finding[], others: readonly Finding[], keep: (f: Finding) => Finding = (f) => f): Finding[] {
  const judged = new Set(first.map((f) => f.requirement));
  return [...first, ...others.filter((f) => f.verdict === 'pass' && !judged.has(f.requirement)).map(keep)];
}

/**
 * The run options that replay a property's failure of `failed`: --only the requirement that
 * failed (another id the test checks would leave it unchosen, and its failure out of the report),
 * with the test's own id beside it when the test does not declare it (a page schema checked on
 * the way), and the shrink path under the property's id, which its seed derives from. The run
 * seed is what --seed takes: the property's own seed derives from it.
 */
export function replayOptions(property: string, runSeed: number, path: string | undefined, declared: readonly string[]): (failed: string) => string {
  return (failed) => {
    const selects = declared.length === 0 || declared.includes(failed) ? [failed] : [failed, declared.includes(property) ? property : declared[0]!];
    return [`--seed ${runSeed}`, ...selects.map((id) => `--only ${id}`), ...(path === undefined ? [] : [`--replay ${property}=${path}`])].join(' ');
  };
}
