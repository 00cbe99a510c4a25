import { coverageRederivation } from './coverage-rederivation.ts';
import { exchangeCitations } from './exchange-citations.ts';
import { judgementRederivation } from './judgement-rederivation.ts';
import type { OpenedBundle } from './open-bundle.ts';
import { reportRenderings } from './report-renderings.ts';
import { reportVerdicts } from './report-verdicts.ts';
import type { StepResult } from './verify-problem.ts';

/**
 * Re-deriving a run from its evidence, offline: the steps verify runs on a bundle whose files it
 * has read. Each step is a pure function of the bundle's files (report.json, record/*.jsonl) and
 * the harness's own code; each says what it checked and what does not follow. A new step is one
 * more entry here.
 */
export interface RederiveStep {
  name: string;
  run(bundle: OpenedBundle): StepResult | Promise<StepResult>;
}

export const REDERIVE_STEPS: readonly RederiveStep[] = [
  { name: 'verdicts', run: reportVerdicts },
  { name: 'citations', run: exchangeCitations },
  { name: 'judgements', run: judgementRederivation },
  { name: 'reports', run: reportRenderings },
  { name: 'coverage', run: coverageRederivation },
];

export interface Rederivation {
  steps: Array<{ name: string } & StepResult>;
}

/** Every step on the bundle, in order; problems of all of them together. */
export async function rederive(bundle: OpenedBundle, steps: readonly RederiveStep[] = REDERIVE_STEPS): Promise<Rederivation> {
  const out: Rederivation['steps'] = [];
  for (const step of steps) out.push({ name: step.name, ...(await step.run(bundle)) });
  return { steps: out };
}
