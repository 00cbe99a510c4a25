import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmdirSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { harnessIdentity } from '../certification/harness-identity.ts';
import { writeBundle, type BundleRequest, type WrittenBundle } from '../certification/write-bundle.ts';
import { contractDigest } from '../contract/contract-document.ts';
import type { HarnessError } from '../errors.ts';
import { faultWorkingFiles } from '../hooks/fault-state.ts';
import { ExchangeSequence, type HttpLimits } from '../http/client.ts';
import type { PacerStats } from '../http/pacer.ts';
import { Redactor } from '../http/redactor.ts';
import { transportSecrets, type TransportOptions } from '../http/transport.ts';
import type { Exchange } from '../model/exchange.ts';
import { PACKAGE_ROOT } from '../package-root.ts';
import type { ResolvedTarget } from '../profile/resolve-profile.ts';
import { baselineGate, diffReports, type ComparableReport } from '../report/baseline-diff.ts';
import { buildReport, limitsReasons, type StopInput } from '../report/build-report.ts';
import type { Expectations } from '../report/expectations.ts';
import { argvForReport, hideLocalPaths, pathForReport } from '../report/local-paths.ts';
import { Observer } from '../report/observed.ts';
import { redactReport } from '../report/redact-report.ts';
import type { Report, RequestCount, RunMetadata } from '../report/report-model.ts';
import { writeReports, type ReportFormat } from '../report/write-reports.ts';
import { appendExchange } from '../report/writers/transcript.ts';
import { RecordJudge } from '../invariants/judge-record.ts';
import { JUDGED_ONLY_RUN_WIDE } from '../invariants/registry.ts';
import { CoverageTally, coverageContextOf } from '../coverage/coverage.ts';
import { HarEntryLog } from '../report/writers/har.ts';
import { gateCoverage } from '../report/coverage-gate.ts';
import type { RunContext } from '../suite/run-context.ts';
import { pacerStatsFile, targetDownFile, waitsFile } from '../suite/worker-files.ts';
import { judgementsFile } from '../judgement/judgement-line.ts';
import { recordRunWideJudgement } from '../judgement/run-wide-judgement.ts';
import type { Interrupts } from './interrupts.ts';
import { LastSent, preflightStage, type PreflightEnd } from './run-stop.ts';
import { RecordFollower } from './record-follower.ts';
import { runSuites, type SharedSuiteRunner } from './run-suites.ts';
import { invariantTest } from './invariant-test.ts';
import { FULL_SELECTION, isPartial, notChosenBecause, type Selection } from '../catalogue/selection.ts';
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
  /** --fail-on coverage: a pair of the exchange matrix the profile allows and the run did not reach makes the run incomplete. */
  failOnCoverage?: boolean;
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
  /** The certification bundle to write beside the reports (none when absent). */
  bundle?: BundleRequest;
  /** A vitest instance kept for many runs in this process (calibration); a run of its own otherwise. */
  shared?: SharedSuiteRunner;
}

export interface CertifyResult {
  report: Report;
  dir: string;
  files: string[];
  /**
   * The preflight's refusal (exit 2) or the unreachable target (exit 3) that ended the run before
   * any suite: the reports are written, and the CLI prints it as its one line.
   */
  stoppedBy?: HarnessError;
  bundle?: WrittenBundle;
}

function packageVersion(): string {
  const pkg = JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { version: string };
  return pkg.version;
}

export function newRunId(now = new Date()): string {
  return `${now.toISOString().replace(/[:.]/g, '-').replace(/-\d{3}Z$/, 'Z')}-${randomBytes(2).toString('hex')}`;
}

/**
 * Requests per token role and pool, what the target showed of its codes and fields, the last
 * exchanges sent and the coverage, gathered one exchange at a time as the record is read.
 */
class TranscriptFacts {
  readonly #counts = new Map<string, number>();
  readonly observer: Observer;
  readonly lastSent = new LastSent();
  // The coverage reads the record in the order it was sent (the transcript holds it in the order
  // answered), as verify and the HAR do: an exchange waits here until every one numbered before it
  // has come, so that the tally is done while the run waits, not after it.
  readonly #coverage: CoverageTally;
  readonly #waiting = new Map<number, Exchange>();
  #nextSeq = 1;

  constructor(target: ResolvedTarget) {
    this.observer = new Observer(target.profile);
    this.#coverage = new CoverageTally(coverageContextOf(target.profile, Object.keys(target.tokens)));
  }

  add(ex: Exchange): void {
    const key = `${ex.request.tokenRole ?? 'none'}\u0000${ex.pool ?? (ex.request.tokenRole === undefined ? '-' : 'other')}`;
    this.#counts.set(key, (this.#counts.get(key) ?? 0) + 1);
    this.observer.add(ex);
    this.lastSent.add(ex);
    this.#waiting.set(ex.seq, ex);
    for (let next = this.#waiting.get(this.#nextSeq); next !== undefined; next = this.#waiting.get(this.#nextSeq)) {
      this.#waiting.delete(this.#nextSeq);
      this.#coverage.add(next);
      this.#nextSeq += 1;
    }
  }

  requests(): RequestCount[] {
    return [...this.#counts].map(([k, n]) => {
      const [role, pool] = k.split('\u0000') as [string, string];
      return { role, pool, requests: n };
    });
  }

  /** The coverage of the whole record: what still waits (after a number never recorded) is tallied in order. */
  coverage(): CoverageTally {
    for (const ex of [...this.#waiting.values()].sort((a, b) => a.seq - b.seq)) this.#coverage.add(ex);
    this.#waiting.clear();
    return this.#coverage;
  }
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
    pacing: { max_in_flight: profile.pacing.maxInFlight },
    faults: profile.faults,
    ...(Object.keys(headers).length === 0 ? {} : { headers }),
    ...(transport?.tls === undefined ? {} : { tls: Object.fromEntries(Object.entries(transport.tls.files).map(([k, v]) => [k, typeof v === 'string' ? pathForReport(v) : v])) }),
    ...(proxy.length === 0 ? {} : { proxy: [...new Set(proxy)] }),
  };
  return JSON.parse(hideLocalPaths(JSON.stringify(view))) as unknown;
}

/** The run's metadata, once it has ended. */
function runMetadata(options: CertifyOptions, run: { runId: string; startedAt: Date; finishedAt: Date; suites: string[]; requests: RequestCount[]; transcriptFile: string }): RunMetadata {
  const { target } = options;
  const { startedAt, finishedAt } = run;
  return {
    runId: run.runId,
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
    suites: run.suites,
    selection: options.selection ?? FULL_SELECTION,
    failOn: options.failOn,
    requests: run.requests,
    ...pacingOf(run.transcriptFile),
    argv: argvForReport(options.argv),
    profile: profileView(target, options.transport),
    ...(options.expectations === undefined ? {} : { expectations: pathForReport(options.expectations.file) }),
    ...(options.baseline === undefined ? {} : { baseline: { file: pathForReport(options.baseline.file), runId: options.baseline.report.meta.runId } }),
  };
}

/** After the start of a run, when the harness's identity is worked out for its bundle: past the start's own work. */
const IDENTITY_AFTER_MS = 5_000;

/**
 * What chooses the tests that register in the worker. `--only` picks the tests that name a chosen
 * requirement; one that only the run-wide rules judge is named by none, and every test's
 * exchanges are its evidence, so choosing it runs every test (of the chosen suites). The report
 * still shows only what was chosen.
 */
function testsChosenBy(selection: Selection): { only: string[]; skip: string[] } {
  const everyTest = selection.only.some((id) => JUDGED_ONLY_RUN_WIDE.includes(id));
  return { only: everyTest ? [] : selection.only, skip: selection.skip };
}

/**
 * One certification run: preflight, suites against the target, then the report and its files.
 * A run the preflight ends writes its reports too, every requirement not run and the preflight's
 * exchanges as the evidence of why.
 */
export async function certify(options: CertifyOptions): Promise<CertifyResult> {
  const { target } = options;
  const selection = options.selection ?? FULL_SELECTION;
  const runId = newRunId();
  const dir = resolve(options.outDir, runId);
  mkdirSync(dir, { recursive: true });
  const transcriptFile = join(dir, '.transcript.jsonl');
  writeFileSync(transcriptFile, '');
  // This process numbers the preflight's exchanges; the suites' worker goes on from where it stopped.
  const sequence = new ExchangeSequence();
  const startedAt = new Date();
  let files: string[] | undefined;
  const { limits, baseUrl, messages } = target.profile;
  // The record is read and judged while the run goes on (its waits absorb the work), not after it;
  // the HAR's entries are made then too.
  const facts = new TranscriptFacts(target);
  const harEntries = options.formats.includes('har') ? new HarEntryLog(`${transcriptFile}.har-entries`) : undefined;
  const record = new RecordFollower(
    transcriptFile,
    baseUrl,
    (servedDescription) => new RecordJudge({ baseUrl, messages, limits, servedDescription }, (id) => notChosenBecause(id, selection) === undefined),
    (ex) => {
      facts.add(ex);
      harEntries?.add(ex);
    },
  );
  record.start();
  // The bundle names the harness by a digest of every file of its package (about 50 ms of reading
  // and hashing): worked out while the run goes on, not after its last answer.
  const identityEarly = options.bundle === undefined ? undefined : setTimeout(() => harnessIdentity(), IDENTITY_AFTER_MS).unref();
  try {
    let ended: PreflightEnd | undefined;
    if (!options.embedded) {
      ended = await preflightStage(target, {
        ...(options.httpLimits === undefined ? {} : { limits: options.httpLimits }),
        ...(options.transport === undefined ? {} : { transport: options.transport }),
        progress: options.progress,
        notice: options.notice ?? options.progress,
        ...(options.interrupts === undefined ? {} : { interrupts: options.interrupts }),
        sequence,
        onExchange: (exchange) => appendExchange(transcriptFile, exchange),
      });
    }
    const context: RunContext = {
      runId,
      baseUrl: target.profile.baseUrl,
      tokens: target.tokens,
      profile: target.profile,
      seed: options.seed,
      transcriptFile,
      firstSeq: sequence.upcoming,
      replayPaths: options.replayPaths,
      suites: options.files.map(suiteName),
      selection: testsChosenBy(selection),
      missingTokens: target.missingTokens,
      ...(options.httpLimits === undefined ? {} : { httpLimits: options.httpLimits }),
      ...(options.transport === undefined ? {} : { transport: options.transport }),
    };
    const { tests, runErrors, cutShort } =
      ended === undefined
        ? await runSuites(context, {
            files: options.files,
            failOn: options.failOn,
            progress: options.progress,
            ...(options.notice === undefined ? {} : { notice: options.notice }),
            ...(options.interrupts === undefined ? {} : { interrupts: options.interrupts }),
            ...(options.shared === undefined ? {} : { shared: options.shared }),
          })
        : { tests: [], runErrors: [], cutShort: ended.cutShort };
    const finishedAt = new Date();
    const suites = ended === undefined ? options.files.map(suiteName) : [];
    const { judge, served } = await record.finish();
    if (harEntries !== undefined) harEntries.unreadableLines = record.unreadableLines;
    const recordContext = { baseUrl, messages, limits, servedDescription: served };
    const { observer, lastSent } = facts;
    const requests = facts.requests();
    const coverage = facts.coverage();
    const runWide = judge.findings();
    const stopped: StopInput | undefined = ended?.stop ?? (cutShort === undefined ? undefined : { at: 'suites', reason: cutShort, exchanges: lastSent.exchanges() });
    const secrets = [...Object.values(target.tokens), ...transportSecrets(options.transport)];
    const redactor = new Redactor(secrets);
    recordRunWideJudgement(judgementsFile(transcriptFile), recordContext, judge.requirements, runWide);
    // A run the preflight ended judges nothing: every requirement is not run, the run-wide rules' too.
    const invariants = ended === undefined ? invariantTest(runWide, judge.exchanges, options.failOn, isPartial(selection), options.progress) : undefined;
    if (invariants !== undefined) tests.push(invariants);
    const built = buildReport({
      meta: runMetadata(options, { runId, startedAt, finishedAt, suites, requests, transcriptFile }),
      tests,
      runErrors,
      selection,
      suitesRun: suites,
      ...(options.expectations === undefined ? {} : { expectations: options.expectations.entries }),
      ...(cutShort === undefined ? {} : { cutShort }),
      ...(stopped === undefined ? {} : { stopped }),
      observed: observer.result(),
    });
    const report = redactReport(built, redactor);
    // A run the preflight ended sent no matrix: it has no coverage to show.
    if (ended === undefined) gateCoverage(report, coverage.result({ suites }), options.failOnCoverage === true);
    // A run the preflight ended keeps its exit code: there is nothing to compare.
    if (options.baseline !== undefined && ended === undefined) {
      const baselineDiff = diffReports(options.baseline.report, report);
      report.baselineDiff = baselineDiff;
      report.exitCode = baselineGate({ ...report, baselineDiff }).exitCode;
    }
    files = await writeReports(report, {
      dir,
      formats: options.formats,
      transcriptFile,
      secrets: secrets.map((t) => t.value),
      ...(harEntries === undefined ? {} : { harEntries }),
    });
    const result: CertifyResult = { report, dir, files, ...(ended?.error === undefined ? {} : { stoppedBy: ended.error }) };
    if (options.bundle === undefined) return result;
    // Before the finally below: the bundle carries the exchange record and the judgements, working files of the run.
    const bundle = await writeBundle(report, { runDir: dir, transcriptFile, written: files, secrets: secrets.map((t) => t.value), request: options.bundle });
    return { ...result, bundle };
  } finally {
    clearTimeout(identityEarly);
    record.stop();
    // Its working file goes with the others named after the transcript, below.
    harEntries?.close();
    for (const f of [transcriptFile, judgementsFile(transcriptFile), pacerStatsFile(transcriptFile), targetDownFile(transcriptFile), waitsFile(transcriptFile), ...faultWorkingFiles(transcriptFile)]) rmSync(f, { force: true });
    // And any other working file named after the transcript: a worker stopped by an interrupt
    // between writing a claim aside and removing it leaves that one behind.
    for (const name of workingFilesLeft(dir, transcriptFile)) rmSync(join(dir, name), { force: true });
    // A run that wrote nothing (it broke) leaves no empty folder behind; one holding anything stays.
    if (files === undefined) {
      try {
        rmdirSync(dir);
      } catch {
        // Not empty: what is there is for the user to see.
      }
    }
  }
}

function workingFilesLeft(dir: string, transcriptFile: string): string[] {
  const prefix = `${basename(transcriptFile)}.`;
  try {
    return readdirSync(dir).filter((name) => name.startsWith(prefix));
  } catch {
    return [];
  }
}
