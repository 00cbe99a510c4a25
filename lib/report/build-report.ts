import { catalogue } from '../catalogue/index.ts';
import type { Finding } from '../model/finding.ts';
import type { CollectedTest } from '../runner/findings-collector.ts';
import {
  combineVerdicts,
  levelAdjusted,
  outcomeOf,
  type Report,
  type RequirementResult,
  type RequirementVerdict,
  type RunMetadata,
} from './report-model.ts';

/**
 * Catalogue × findings → a verdict per requirement. Every requirement is listed, in catalogue
 * order: one no test covered in this run is `uncovered` (or not-run when the run chose suites).
 */
export function buildReport(meta: RunMetadata, tests: CollectedTest[], runErrors: string[], selectedAreas?: ReadonlySet<string>): Report {
  const byRequirement = new Map<string, Finding[]>();
  const testsOf = new Map<string, string[]>();
  for (const t of tests) {
    for (const id of t.requirements) testsOf.set(id, [...(testsOf.get(id) ?? []), t.title]);
    for (const f of t.findings) byRequirement.set(f.requirement, [...(byRequirement.get(f.requirement) ?? []), f]);
  }
  const results: RequirementResult[] = catalogue.map((requirement) => {
    const findings = byRequirement.get(requirement.id) ?? [];
    const combined = combineVerdicts(findings.map((f) => levelAdjusted(f.verdict, requirement.level, meta.failOn)));
    const result: RequirementResult = {
      requirement,
      verdict: combined ?? 'uncovered',
      findings,
      tests: testsOf.get(requirement.id) ?? [],
    };
    if (combined === undefined && selectedAreas !== undefined && !selectedAreas.has(requirement.area)) {
      result.verdict = 'not-run';
      result.reason = 'its suite was not selected for this run';
    } else if (combined === 'not-run' || combined === 'inconclusive') {
      const note = findings.find((f) => f.verdict === combined && f.note !== undefined)?.note;
      if (note !== undefined) result.reason = note;
    }
    return result;
  });
  const counts: Record<RequirementVerdict, number> = { pass: 0, fail: 0, warn: 0, 'not-run': 0, inconclusive: 0, uncovered: 0 };
  for (const r of results) counts[r.verdict] += 1;
  const { outcome, exitCode } = outcomeOf(results, runErrors);
  return { schemaVersion: 1, meta, outcome, exitCode, counts, results, runErrors };
}
