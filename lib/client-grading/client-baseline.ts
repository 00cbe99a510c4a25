import { ReportFileError } from '../errors.ts';
import { readUserFile } from '../user-file.ts';
import { counts, type GradedVerdict } from './client-report.ts';

/**
 * `client --baseline FILE`: the report.json of an earlier client grading, compared requirement by
 * requirement, and the gate a server run's baseline sets: a regression fails the grading, a
 * failure the baseline had too does not, an expired waiver fails it whatever the baseline says.
 */

export interface ClientBaselineDiff {
  file: string;
  runId: string;
  /** Failing now, not failing in the baseline. */
  regressed: string[];
  /** Failing now and in the baseline. */
  stillFailing: string[];
  /** Failing in the baseline, passing now. */
  fixed: string[];
}

interface BaselineReport {
  runId: string;
  verdicts: Array<{ requirement: { id: string }; verdict: string; waiver?: { state: string } }>;
}

/** A client grading's report.json; anything else is one line naming the file (exit 2). */
export function loadClientBaseline(file: string): BaselineReport {
  const text = readUserFile(file, (message) => new ReportFileError(file, message));
  let value: Partial<BaselineReport> & { kind?: unknown };
  try {
    value = JSON.parse(text) as typeof value;
  } catch {
    throw new ReportFileError(file, 'is not JSON; expected the report.json of an asi-conformance client grading');
  }
  const ok = value.kind === 'client' && typeof value.runId === 'string' && Array.isArray(value.verdicts) && value.verdicts.every((v) => typeof v?.requirement?.id === 'string' && typeof v.verdict === 'string');
  if (!ok) throw new ReportFileError(file, 'is not the report.json of a client grading (kind "client", runId and verdicts); a server run\'s report is the baseline of a run');
  return value as BaselineReport;
}

export function compareClientBaseline(file: string, before: BaselineReport, now: readonly GradedVerdict[]): ClientBaselineDiff {
  const failedBefore = (id: string): boolean => before.verdicts.some((v) => v.requirement.id === id && v.verdict === 'fail' && v.waiver?.state !== 'waived');
  const failing = now.filter(counts).map((v) => v.requirement.id);
  return {
    file,
    runId: before.runId,
    regressed: failing.filter((id) => !failedBefore(id)),
    stillFailing: failing.filter(failedBefore),
    fixed: now.filter((v) => v.verdict === 'pass' && failedBefore(v.requirement.id)).map((v) => v.requirement.id),
  };
}

/** The exit code with a baseline: only known failures (no regression, no expired waiver) leave it at 0. */
export function baselineExit(exitCode: number, diff: ClientBaselineDiff, verdicts: readonly GradedVerdict[]): number {
  if (exitCode !== 1) return exitCode;
  const expired = verdicts.some((v) => v.waiver?.state === 'expired');
  return diff.regressed.length === 0 && !expired ? 0 : 1;
}

/** The comparison in lines, for the console and every report. */
export function baselineLines(diff: ClientBaselineDiff): string[] {
  const list = (ids: string[]): string => (ids.length === 0 ? 'none' : ids.join(', '));
  return [
    `compared with baseline client grading ${diff.runId} (${diff.file})`,
    `  regressed: ${list(diff.regressed)}`,
    `  still failing as in the baseline: ${list(diff.stillFailing)}`,
    `  fixed since the baseline: ${list(diff.fixed)}`,
  ];
}
