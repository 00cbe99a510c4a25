import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { catalogue } from '../catalogue/index.ts';
import { contractDigest } from '../contract/contract-document.ts';
import type { HttpLimits } from '../http/client.ts';
import type { Exchange } from '../model/exchange.ts';
import { PACKAGE_ROOT } from '../package-root.ts';
import { buildReport } from '../report/build-report.ts';
import type { Report, RequestCount } from '../report/report-model.ts';
import { writeReports, type ReportFormat } from '../report/write-reports.ts';
import type { ResolvedTarget } from '../profile/resolve-profile.ts';
import type { RunContext } from '../suite/run-context.ts';
import { pacerStatsFile } from '../suite/pacer-stats-file.ts';
import type { PacerStats } from '../http/pacer.ts';
import { checkReachable } from './preflight.ts';
import { runSuites } from './run-suites.ts';
import { allSuiteFiles, suiteName } from './suite-files.ts';

export interface CertifyOptions {
  target: ResolvedTarget;
  /** True when the target is the in-process reference (no reachability check needed). */
  embedded: boolean;
  files: string[];
  only: string[];
  /** Parent folder; the run writes `<outDir>/<run-id>/`. */
  outDir: string;
  formats: ReportFormat[];
  seed: number;
  failOn: 'must' | 'should';
  replayPaths: Record<string, string>;
  /** Per-request timeouts (`--timeout`); the client's defaults otherwise. */
  httpLimits?: Partial<HttpLimits>;
  progress: (line: string) => void;
  argv: string[];
}

export interface CertifyResult {
  report: Report;
  dir: string;
  files: string[];
}

function packageVersion(): string {
  const pkg = JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { version: string };
  return pkg.version;
}

export function newRunId(now = new Date()): string {
  return `${now.toISOString().replace(/[:.]/g, '-').replace(/-\d{3}Z$/, 'Z')}-${randomBytes(2).toString('hex')}`;
}

function countRequests(transcriptFile: string): RequestCount[] {
  if (!existsSync(transcriptFile)) return [];
  const counts = new Map<string, number>();
  for (const line of readFileSync(transcriptFile, 'utf8').split('\n')) {
    if (line === '') continue;
    const ex = JSON.parse(line) as Exchange;
    const key = `${ex.request.tokenRole ?? 'none'}\u0000${ex.pool ?? (ex.request.tokenRole === undefined ? '-' : 'other')}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return [...counts].map(([k, requests]) => {
    const [role, pool] = k.split('\u0000') as [string, string];
    return { role, pool, requests };
  });
}

function pacingOf(transcriptFile: string): { pacingWaitMs?: number } {
  const file = pacerStatsFile(transcriptFile);
  if (!existsSync(file)) return { pacingWaitMs: 0 };
  const stats = JSON.parse(readFileSync(file, 'utf8')) as PacerStats;
  return { pacingWaitMs: Math.round(stats.waitedMs) };
}

/** One certification run: suites against the target, then the report and its files. */
export async function certify(options: CertifyOptions): Promise<CertifyResult> {
  const { target } = options;
  if (!options.embedded) await checkReachable(target.profile.baseUrl, options.httpLimits?.totalMs);
  const runId = newRunId();
  const dir = resolve(options.outDir, runId);
  mkdirSync(dir, { recursive: true });
  const transcriptFile = join(dir, '.transcript.jsonl');
  writeFileSync(transcriptFile, '');
  const context: RunContext = {
    runId,
    baseUrl: target.profile.baseUrl,
    tokens: target.tokens,
    profile: target.profile,
    seed: options.seed,
    transcriptFile,
    replayPaths: options.replayPaths,
    ...(options.httpLimits === undefined ? {} : { httpLimits: options.httpLimits }),
  };
  const startedAt = new Date();
  const { tests, runErrors } = await runSuites(context, {
    files: options.files,
    only: options.only,
    failOn: options.failOn,
    progress: options.progress,
  });
  const finishedAt = new Date();
  const suites = options.files.map(suiteName);
  const areas = new Set(catalogue.filter((r) => suites.some((s) => s === r.area || s.startsWith(`${r.area}-`))).map((r) => r.area));
  const report = buildReport(
    {
      runId,
      tool: { name: 'asi-conformance', version: packageVersion() },
      node: process.version,
      startedAt: startedAt.toISOString(),
      finishedAt: finishedAt.toISOString(),
      durationMs: finishedAt.getTime() - startedAt.getTime(),
      target: { baseUrl: target.profile.baseUrl, embedded: options.embedded, profile: target.profile.source },
      // A certification runs every suite with the spec's limits; a selection is only a check.
      certifying: target.profile.certifying && options.only.length === 0 && options.files.length === allSuiteFiles().length,
      limits: target.profile.limits,
      seed: options.seed,
      contractDigest: contractDigest(),
      suites,
      failOn: options.failOn,
      requests: countRequests(transcriptFile),
      ...pacingOf(transcriptFile),
      argv: options.argv,
    },
    tests,
    runErrors,
    areas,
  );
  const files = await writeReports(report, {
    dir,
    formats: options.formats,
    transcriptFile,
    secrets: Object.values(target.tokens).map((t) => t.value),
  });
  rmSync(transcriptFile, { force: true });
  rmSync(pacerStatsFile(transcriptFile), { force: true });
  return { report, dir, files };
}
