import { EXCHANGES_RECORD, JUDGEMENTS_RECORD } from './bundle-layout.ts';
import { REPORT_NAME } from './bundled-report.ts';
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
  /** The bundle files the step derives from: its problems follow from a change to any of them. */
  reads: readonly string[];
  run(bundle: OpenedBundle): StepResult | Promise<StepResult>;
}

export const REDERIVE_STEPS: readonly RederiveStep[] = [
  { name: 'verdicts', reads: [REPORT_NAME], run: reportVerdicts },
  { name: 'citations', reads: [REPORT_NAME, EXCHANGES_RECORD], run: exchangeCitations },
  { name: 'judgements', reads: [REPORT_NAME, EXCHANGES_RECORD, JUDGEMENTS_RECORD], run: judgementRederivation },
  { name: 'reports', reads: [REPORT_NAME, EXCHANGES_RECORD], run: reportRenderings },
  { name: 'coverage', reads: [REPORT_NAME, EXCHANGES_RECORD], run: coverageRederivation },
];

export interface Rederivation {
  steps: Array<{ name: string } & StepResult>;
}

/** Every step on the bundle, in order; problems of all of them together, each with the files it derives from. */
export async function rederive(bundle: OpenedBundle, steps: readonly RederiveStep[] = REDERIVE_STEPS): Promise<Rederivation> {
  const out: Rederivation['steps'] = [];
  for (const step of steps) {
    const result = await step.run(bundle);
    out.push({ name: step.name, checked: result.checked, problems: result.problems.map((p) => ({ ...p, from: p.from ?? [...step.reads] })) });
  }
  return { steps: out };
}
