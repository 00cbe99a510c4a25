import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DefectSwitch, VariantSwitch } from '../reference/switches.ts';
import { startReference } from '../reference/server.ts';
import { certify } from '../runner/certify.ts';
import type { SharedSuiteRunner } from '../runner/run-suites.ts';
import { embeddedTarget } from '../runner/embedded-target.ts';
import { selectSuiteFiles } from '../runner/suite-files.ts';
import type { RequirementResult, RequirementVerdict } from '../report/report-model.ts';
import { requirementById } from '../catalogue/index.ts';

export interface CalibrationResult {
  kind: 'defect' | 'variant';
  name: string;
  suites: string[];
  /** True when the switch did what it must: a defect failed its requirements, a variant failed nothing. */
  ok: boolean;
  /** Verdicts of the requirements a defect names, or of every failed or inconclusive one for a variant. */
  verdicts: Record<string, RequirementVerdict>;
  problems: string[];
  durationMs: number;
  requests: number;
}

/** Fixed so that calibration is repeatable; properties still vary their inputs within a run. */
const CALIBRATION_SEED = 20261122;

/**
 * Starts a reference with one switch, runs the suites that observe it, and judges the report:
 * every requirement a defect breaks must fail (SHOULD counts as failing here), and a variant's
 * run must fail nothing and leave nothing inconclusive.
 */
export async function calibrateSwitch(kind: 'defect' | 'variant', sw: DefectSwitch | VariantSwitch, shared?: SharedSuiteRunner): Promise<CalibrationResult> {
  const started = Date.now();
  const reference = await startReference({
    ...(kind === 'defect' ? { defects: [sw.name] } : { variants: [sw.name] }),
    ...(sw.limits === undefined ? {} : { limits: sw.limits }),
  });
  const out = mkdtempSync(join(tmpdir(), 'asi-calibrate-'));
  try {
    const { report } = await certify({
      target: embeddedTarget(reference),
      embedded: true,
      files: selectSuiteFiles(sw.suites),
      selection: { suites: sw.suites, only: [], skip: [] },
      outDir: out,
      formats: ['json'],
      seed: CALIBRATION_SEED,
      failOn: 'should',
      replayPaths: {},
      progress: () => {},
      argv: ['calibrate', `--${kind}`, sw.name],
      ...(shared === undefined ? {} : { shared }),
    });
    const verdicts: Record<string, RequirementVerdict> = {};
    const problems: string[] = [];
    if (kind === 'defect') {
      for (const id of (sw as DefectSwitch).breaks) {
        const r = report.results.find((x) => x.requirement.id === id);
        const verdict = r?.verdict ?? 'uncovered';
        verdicts[id] = verdict;
        // An INFO requirement never fails a run (it reads as warn), but its checker must still have found the fault.
        const caught = verdict === 'fail' || (r?.requirement.level === 'INFO' && r.findings.some((f) => f.verdict === 'fail'));
        if (!caught) problems.push(`${id} is ${verdict}${r?.reason === undefined ? '' : ` (${r.reason})`}, expected fail`);
      }
      problems.push(...mustFailuresBesideSoftBreaks(report.results, (sw as DefectSwitch).breaks));
    } else {
      for (const r of report.results) {
        if (r.verdict !== 'fail' && r.verdict !== 'inconclusive') continue;
        verdicts[r.requirement.id] = r.verdict;
        const why = r.findings.find((f) => f.verdict === r.verdict);
        problems.push(`${r.requirement.id} is ${r.verdict}: ${why?.actual ?? why?.note ?? ''}`.trim());
      }
    }
    for (const e of report.runErrors) problems.push(`run error: ${e}`);
    return {
      kind,
      name: sw.name,
      suites: sw.suites,
      ok: problems.length === 0,
      verdicts,
      problems,
      durationMs: Date.now() - started,
      requests: report.meta.requests.reduce((n, c) => n + c.requests, 0),
    };
  } finally {
    await reference.close();
    rmSync(out, { recursive: true, force: true });
  }
}

/**
 * A defect that breaks only SHOULD or INFO requirements does something every MUST allows (an
 * extra event name, a media type other than JSON on a JSON body): a MUST that fails beside them
 * is a false failure of the harness, or a MUST the defect breaks too and does not name.
 */
export function mustFailuresBesideSoftBreaks(results: readonly RequirementResult[], breaks: readonly string[]): string[] {
  if (breaks.some((id) => requirementById(id)?.level === 'MUST')) return [];
  return results
    .filter((r) => r.requirement.level === 'MUST' && r.verdict === 'fail' && !breaks.includes(r.requirement.id))
    .map((r) => {
      const why = r.findings.find((f) => f.verdict === 'fail');
      return `${r.requirement.id} (MUST) is fail beside the SHOULD or INFO this defect breaks: ${why?.actual ?? why?.note ?? ''}`.trim();
    });
}
