import { mkdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { AppliedWaiver } from '../report/report-model.ts';
import { waiverText } from '../report/expectations.ts';
import { REPORT_FILE_NAMES } from '../report/report-formats.ts';
import { writePieces } from '../report/write-reports.ts';
import { baselineLines, type ClientBaselineDiff } from './client-baseline.ts';
import { clientHar } from './client-har.ts';
import { clientHtml } from './client-html.ts';
import { clientJunit } from './client-junit.ts';
import { Redactor, type Secret } from '../http/redactor.ts';
import { jsonText } from '../model/json-text.ts';
import { SecretGuard } from '../report/secret-guard.ts';
import type { TracedRequest } from '../checks/client-trace.ts';
import type { ClientRequirementVerdict } from './judge-client.ts';
import type { ClientExit } from './spawn-client.ts';

export type ClientOutcome = 'conformant' | 'not-conformant' | 'nothing-judged';

export interface ScenarioRun {
  scenario: string;
  /** The scripted server's base URL (a free port of 127.0.0.1), for the HAR's URLs. */
  baseUrl: string;
  exit: ClientExit;
  trace: readonly TracedRequest[];
  /** What the client wrote to `$ASI_RESULT_FILE`, when it wrote it. */
  result?: string;
}

/** A requirement's verdict and, with --expect, the waiver it met. */
export type GradedVerdict = ClientRequirementVerdict & { waiver?: AppliedWaiver };

export interface ClientReport {
  kind: 'client';
  runId: string;
  /** The harness that graded: name, version and package digest, as a bundle records it. */
  harness: { name: string; version: string };
  command: readonly string[];
  seed: number;
  startedAt: string;
  finishedAt: string;
  /** The expectations file (--expect), by name. */
  expectations?: string;
  /** The comparison with --baseline's report, when one was given. */
  baseline?: ClientBaselineDiff;
  outcome: ClientOutcome;
  exitCode: number;
  scenarios: readonly ScenarioRun[];
  verdicts: readonly GradedVerdict[];
}

/** Whether a verdict counts against the run: a waived one does not, an expired waiver always does. */
export function counts(v: GradedVerdict): boolean {
  if (v.waiver?.state === 'expired') return true;
  return v.verdict === 'fail' && v.waiver?.state !== 'waived';
}

/** Exit codes as a server run's: 0 conformant (a SHOULD broken only warns, a waived failure does not count), 1 a MUST failed, 3 nothing judged. */
export function outcomeOf(verdicts: readonly GradedVerdict[]): ClientOutcome {
  if (verdicts.some(counts)) return 'not-conformant';
  return verdicts.some((v) => v.verdict === 'pass' || v.waiver?.state === 'waived') ? 'conformant' : 'nothing-judged';
}

export const EXIT_CODES: Record<ClientOutcome, number> = { conformant: 0, 'not-conformant': 1, 'nothing-judged': 3 };

const MARK = { pass: '✓', fail: '×', warn: '!', 'not-run': '-' } as const;

export function exitText(exit: ClientExit): string {
  if (exit.startError !== undefined) return `did not start (${exit.startError})`;
  if (exit.timedOut) return 'stopped at the time limit';
  return exit.signal !== null ? `ended by ${exit.signal}` : `exited ${exit.code ?? '?'}`;
}

/** The console text, also the body of summary.md (which adds a heading). */
export function clientConsoleText(report: ClientReport): string {
  const lines: string[] = [];
  for (const s of report.scenarios) lines.push(`scenario ${s.scenario}: ${s.trace.length} request(s), the client ${exitText(s.exit)}`);
  lines.push('');
  for (const v of report.verdicts) {
    lines.push(`  ${MARK[v.verdict]} ${v.requirement.id.padEnd(36)} ${v.requirement.level.padEnd(6)} ${v.verdict.padEnd(7)} ${v.reason}`);
    if (v.waiver !== undefined) lines.push(`      ${waiverText(v.waiver)}`);
    if (v.verdict !== 'fail' && v.verdict !== 'warn') continue;
    if (v.requirement.quote !== undefined) lines.push(`      -> §${v.requirement.section}: ${v.requirement.quote}`);
    for (const f of v.findings.filter((x) => x.verdict === 'fail')) {
      lines.push(`      ${f.scenario}:`);
      for (const t of f.timeline) lines.push(`      ${t}`);
    }
  }
  const count = (verdict: string): number => report.verdicts.filter((v) => v.verdict === verdict).length;
  if (report.baseline !== undefined) lines.push('', ...baselineLines(report.baseline));
  lines.push('', `${report.outcome.toUpperCase()}: ${count('pass')} pass, ${count('fail')} fail, ${count('warn')} warn, ${count('not-run')} not run of ${report.verdicts.length} client requirements (seed ${report.seed})`);
  return lines.join('\n');
}

/** The file each format is written to, rendered: the run's names, one renderer each. */
function renderings(report: ClientReport): Array<[string, string]> {
  return [
    [REPORT_FILE_NAMES.json, `${jsonText(report, 2)}\n`],
    [REPORT_FILE_NAMES.junit, clientJunit(report)],
    [REPORT_FILE_NAMES.md, `# Client grading: ${report.outcome}\n\n\`${report.command.join(' ')}\`\n\n\`\`\`\n${clientConsoleText(report)}\n\`\`\`\n`],
    [REPORT_FILE_NAMES.html, clientHtml(report)],
    [REPORT_FILE_NAMES.har, clientHar(report)],
  ];
}

/**
 * The five reports of a run (report.json: the whole record, every request with its receive time,
 * tokens as `$ASI_TOKEN`). The recorder already wrote tokens as their variable; a client may still
 * have sent one in another form (base64 in a Basic header, percent-encoded, escaped), so every file
 * goes through the run's redaction and the run's writer (local folders hidden, then the guard that
 * refuses a file still holding a token). Written under working names and renamed only when all
 * passed, as a run's are. Returns the paths written.
 */
export async function writeClientReports(dir: string, report: ClientReport, secrets: readonly Secret[]): Promise<string[]> {
  const redactor = new Redactor(secrets);
  const values = secrets.map((t) => t.value);
  await mkdir(dir, { recursive: true });
  const files = renderings(report).map(([name, text]) => ({ name, text: redactor.redact(text), working: join(dir, `.${name}.partial`), path: join(dir, name) }));
  try {
    for (const f of files) await writePieces(f.working, [f.text], new SecretGuard(f.name, values), f.name.endsWith('.html') || f.name.endsWith('.xml'));
  } catch (error) {
    await Promise.all(files.map((f) => rm(f.working, { force: true })));
    throw error;
  }
  for (const f of files) await rename(f.working, f.path);
  return files.map((f) => f.path);
}
