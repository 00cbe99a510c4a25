import fc from 'fast-check';
import type { Finding } from '../model/finding.ts';
import { pass } from '../model/finding.ts';
import { trimFinding } from './evidence-trim.ts';
import { session } from './session.ts';

export interface PropertyOptions<T = unknown> {
  numRuns: number;
  /** Requests shrinking may spend before it stops looking for a smaller counterexample. */
  maxShrinkRequests?: number;
  /** Inputs run before the random ones (counted in numRuns): cells a random draw may miss. */
  examples?: readonly T[];
}

/** A property's seed: the run seed mixed with the requirement id, so each property replays alone. */
export function propertySeed(runSeed: number, requirement: string): number {
  let h = runSeed | 0;
  for (let i = 0; i < requirement.length; i++) h = Math.imul(h ^ requirement.charCodeAt(i), 0x5bd1e995) ^ (h >>> 15);
  return h | 0;
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
  const property = fc.asyncProperty(arbitrary, async (input) => {
    // Once shrinking has spent its budget, skip further candidates instead of sending requests.
    if (failedAt !== undefined && s.requestCount() - failedAt > shrinkBudget) fc.pre(false);
    const findings = await probe(input);
    // Kept as evidence, trimmed now: shrinking runs on, and the bodies of a kept input would stay
    // in memory with it.
    if (findings.some((f) => f.verdict === 'fail')) {
      failedAt ??= s.requestCount();
      lastFailure = findings.map(trimFinding);
      return false;
    }
    if (sample.length === 0) sample = findings.map(trimFinding);
    return true;
  });
  const details = await fc.check(property, {
    seed,
    numRuns: options.numRuns,
    ...(options.examples === undefined ? {} : { examples: options.examples.map((e): [T] => [e]) }),
    ...(path === undefined ? {} : { path }),
  });
  const requests = s.requestCount() - start;
  if (!details.failed) {
    const evidence = { seed, numRuns: details.numRuns, requests };
    const passed = sample.length > 0 ? sample : [pass(requirement)];
    return passed.map((f) => ({ ...f, property: evidence }));
  }
  const replayPath = details.counterexamplePath ?? undefined;
  const evidence = {
    seed,
    path: replayPath,
    numRuns: details.numRuns,
    counterexample: details.counterexample === null ? undefined : fc.stringify(details.counterexample[0]),
    requests,
    // The property's own seed derives from the run seed: the run seed is what --seed takes.
    replay: `--seed ${s.context.seed} --only ${requirement}${replayPath === undefined ? '' : ` --replay ${requirement}=${replayPath}`}`,
  };
  if (lastFailure.length === 0) {
    const why = details.errorInstance instanceof Error ? details.errorInstance.message : 'property failed without a finding';
    throw new Error(`property ${requirement} (seed ${seed}) broke: ${why}`, { cause: details.errorInstance });
  }
  return lastFailure.map((f) => ({ ...f, property: JSON.parse(JSON.stringify(evidence)) as typeof evidence }));
}
