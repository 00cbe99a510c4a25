import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { contractDigest } from '../contract/contract-document.ts';
import { faultWorkingFiles } from '../hooks/fault-state.ts';
import type { HttpLimits } from '../http/client.ts';
import type { PacerStats } from '../http/pacer.ts';
import { Redactor } from '../http/redactor.ts';
import { transportSecrets, type TransportOptions } from '../http/transport.ts';
import type { Exchange } from '../model/exchange.ts';
import { PACKAGE_ROOT } from '../package-root.ts';
import type { ResolvedTarget } from '../profile/resolve-profile.ts';
import { diffReports, type ComparableReport } from '../report/baseline-diff.ts';
import { buildReport } from '../report/build-report.ts';
import type { Expectations } from '../report/expectations.ts';
import { argvForReport, hideLocalPaths, pathForReport } from '../report/local-paths.ts';
import { Observer } from '../report/observed.ts';
import { redactReport } from '../report/redact-report.ts';
import type { Report, RequestCount } from '../report/report-model.ts';
import { writeReports, type ReportFormat } from '../report/write-reports.ts';
import { eachExchange } from '../report/writers/transcript.ts';
import type { RunContext } from '../suite/run-context.ts';
import { pacerStatsFile, targetDownFile } from '../suite/worker-files.ts';
import { READ_LIMIT, WINDOW_SECONDS, WRITE_LIMIT } from '../spec-constants.ts';
import type { Interrupts } from './interrupts.ts';
import { preflight } from './preflight.ts';
import { runSuites } from './run-suites.ts';
import { FULL_SELECTION, type Selection } from './selection.ts';
import { suiteName } from './suite-files.ts';

export interface CertifyOptions {
  target: ResolvedTarget;
  /** True when the target is the in-process reference (no preflight needed). */
  embedded: boolean;
  files: string[];
  selection?: Selection;
  /** Parent folder; the run writes `<outDir>/<run-id>/`. */
  outDir: string;
  formats: ReportFormat[];
  seed: number;
  failOn: 'must' | 'should';
  replayPaths: Record<string, string>;
  /** Per-request timeouts (`--timeout`); the client's defaults otherwise. */
  httpLimits?: Partial<HttpLimits>;
  /** Extra headers, TLS material and proxy (`--header`, `--ca-file`, ..., HTTPS_PROXY). */
  transport?: TransportOptions;
  progress: (line: string) => void;
  /** Lines that print even with -q (an interrupt and what it switched off); progress when absent. */
  notice?: (line: string) => void;
  /** The run command's listener for SIGINT and SIGTERM (lib/runner/interrupts.ts); the suites listen themselves when absent. */
  interrupts?: Interrupts;
  argv: string[];
  expectations?: { file: string; entries: Expectations };
  baseline?: { file: string; report: ComparableReport };
  implementation?: { label?: string; version?: string };
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

/** Requests per token role and pool, and what the target showed of its codes and fields: one pass over the transcript. */
async function readTranscriptFacts(transcriptFile: string, target: ResolvedTarget): Promise<{ requests: RequestCount[]; observer: Observer }> {
  const counts = new Map<string, number>();
  const observer = new Observer(target.profile);
  await eachExchange(transcriptFile, (ex: Exchange) => {
    const key = `${ex.request.tokenRole ?? 'none'}\u0000${ex.pool ?? (ex.request.tokenRole === undefined ? '-' : 'other')}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
    observer.add(ex);
  });
  const requests = [...counts].map(([k, n]) => {
    const [role, pool] = k.split('\u0000') as [string, string];
    return { role, pool, requests: n };
  });
  return { requests, observer };
}

function pacingOf(transcriptFile: string): { pacingWaitMs?: number } {
  const file = pacerStatsFile(transcriptFile);
  if (!existsSync(file)) return { pacingWaitMs: 0 };
  const stats = JSON.parse(readFileSync(file, 'utf8')) as PacerStats;
  return { pacingWaitMs: Math.round(stats.waitedMs) };
}

/**
 * The profile as the report shows it: token roles and secret header values by their placeholders,
 * never values; TLS files by name, no key material; proxies without credentials; local paths hidden.
 */
function profileView(target: ResolvedTarget, transport: TransportOptions | undefined): unknown {
  const { profile } = target;
  const tokens = Object.fromEntries(Object.entries(target.tokens).map(([role, secret]) => [role, secret.placeholder]));
  const headers = Object.fromEntries((transport?.headers ?? []).map((h) => [h.name, h.placeholder ?? h.value]));
  const proxy = [transport?.proxy?.https, transport?.proxy?.http].flatMap((p) => (p === undefined ? [] : [`$${p.variable}`]));
  const view = {
    source: pathForReport(profile.source),
    base_url: profile.baseUrl,
    tokens,
    messages: profile.messages,
    limits: profile.limits,
    faults: profile.faults,
    ...(Object.keys(headers).length === 0 ? {} : { headers }),
    ...(transport?.tls === undefined ? {} : { tls: Object.fromEntries(Object.entries(transport.tls.files).map(([k, v]) => [k, typeof v === 'string' ? pathForReport(v) : v])) }),
    ...(proxy.length === 0 ? {} : { proxy: [...new Set(proxy)] }),
  };
  return JSON.parse(hideLocalPaths(JSON.stringify(view))) as unknown;
}

function limitsReasons(limits: ResolvedTarget['profile']['limits']): string[] {
  if (limits.read === READ_LIMIT && limits.write === WRITE_LIMIT && limits.windowS === WINDOW_SECONDS) return [];
  return [
    `the profile's limits (${limits.read} reads and ${limits.write} writes per ${limits.windowS} s) differ from the spec's (${READ_LIMIT} and ${WRITE_LIMIT} per ${WINDOW_SECONDS} s)`,
  ];
}

/** One certification run: preflight, suites against the target, then the report and its files. */
export async function certify(options: CertifyOptions): Promise<CertifyResult> {
  const { target } = options;
  const selection = options.selection ?? FULL_SELECTION;
  if (!options.embedded) {
    await preflight(target, {
      ...(options.httpLimits === undefined ? {} : { limits: options.httpLimits }),
      ...(options.transport === undefined ? {} : { transport: options.transport }),
      progress: options.progress,
    });
  }
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
    selection: { only: selection.only, skip: selection.skip },
    missingTokens: target.missingTokens,
    ...(options.httpLimits === undefined ? {} : { httpLimits: options.httpLimits }),
    ...(options.transport === undefined ? {} : { transport: options.transport }),
  };
  const startedAt = new Date();
  try {
    const { tests, runErrors, cutShort } = await runSuites(context, {
      files: options.files,
      failOn: options.failOn,
      progress: options.progress,
      ...(options.notice === undefined ? {} : { notice: options.notice }),
      ...(options.interrupts === undefined ? {} : { interrupts: options.interrupts }),
    });
    const finishedAt = new Date();
    const suites = options.files.map(suiteName);
    const { requests, observer } = await readTranscriptFacts(transcriptFile, target);
    const secrets = [...Object.values(target.tokens), ...transportSecrets(options.transport)];
    const built = buildReport({
      meta: {
        runId,
        tool: { name: 'asi-conformance', version: packageVersion() },
        node: process.version,
        startedAt: startedAt.toISOString(),
        finishedAt: finishedAt.toISOString(),
        durationMs: finishedAt.getTime() - startedAt.getTime(),
        target: { baseUrl: target.profile.baseUrl, embedded: options.embedded, profile: pathForReport(target.profile.source) },
        ...(options.implementation === undefined ? {} : { implementation: options.implementation }),
        certifying: target.profile.certifying,
        notCertifyingBecause: limitsReasons(target.profile.limits),
        limits: target.profile.limits,
        seed: options.seed,
        contractDigest: contractDigest(),
        suites,
        selection,
        failOn: options.failOn,
        requests,
        ...pacingOf(transcriptFile),
        argv: argvForReport(options.argv),
        profile: profileView(target, options.transport),
        ...(options.expectations === undefined ? {} : { expectations: pathForReport(options.expectations.file) }),
        ...(options.baseline === undefined ? {} : { baseline: { file: pathForReport(options.baseline.file), runId: options.baseline.report.meta.runId } }),
      },
      tests,
      runErrors,
      selection,
      suitesRun: suites,
      ...(options.expectations === undefined ? {} : { expectations: options.expectations.entries }),
      ...(cutShort === undefined ? {} : { cutShort }),
      observed: observer.result(),
    });
    const report = redactReport(built, new Redactor(secrets));
    if (options.baseline !== undefined) {
      report.baselineDiff = diffReports(options.baseline.report, report);
      // A baseline gate fails on regressions only: what failed before and still fails is known.
      // An expired waiver fails the run whatever the baseline says: the waiver is what ran out.
      const expired = report.results.some((r) => r.waiver?.state === 'expired');
      if (report.exitCode === 1 && !report.baselineDiff.regressed && !expired) report.exitCode = 0;
      if (report.exitCode !== 3 && report.baselineDiff.regressed) report.exitCode = 1;
    }
    const files = await writeReports(report, {
      dir,
      formats: options.formats,
      transcriptFile,
      secrets: secrets.map((t) => t.value),
    });
    return { report, dir, files };
  } finally {
    for (const f of [transcriptFile, pacerStatsFile(transcriptFile), targetDownFile(transcriptFile), ...faultWorkingFiles(transcriptFile)]) rmSync(f, { force: true });
  }
}

