import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Redactor, type Secret } from '../http/redactor.ts';
import { jsonText } from '../model/json-text.ts';
import { SecretGuard } from '../report/secret-guard.ts';
import type { TracedRequest } from '../checks/client-trace.ts';
import type { ClientRequirementVerdict } from './judge-client.ts';
import type { ClientExit } from './spawn-client.ts';

export type ClientOutcome = 'conformant' | 'not-conformant' | 'nothing-judged';

export interface ScenarioRun {
  scenario: string;
  exit: ClientExit;
  trace: readonly TracedRequest[];
  /** What the client wrote to `$ASI_RESULT_FILE`, when it wrote it. */
  result?: string;
}

export interface ClientReport {
  kind: 'client';
  command: readonly string[];
  seed: number;
  startedAt: string;
  outcome: ClientOutcome;
  scenarios: readonly ScenarioRun[];
  verdicts: readonly ClientRequirementVerdict[];
}

/** Exit codes as a server run's: 0 conformant (a SHOULD broken only warns), 1 a MUST failed, 3 nothing judged. */
export function outcomeOf(verdicts: readonly ClientRequirementVerdict[]): ClientOutcome {
  if (verdicts.some((v) => v.verdict === 'fail')) return 'not-conformant';
  return verdicts.some((v) => v.verdict === 'pass') ? 'conformant' : 'nothing-judged';
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
    if (v.verdict !== 'fail' && v.verdict !== 'warn') continue;
    if (v.requirement.quote !== undefined) lines.push(`      -> §${v.requirement.section}: ${v.requirement.quote}`);
    for (const f of v.findings.filter((x) => x.verdict === 'fail')) {
      lines.push(`      ${f.scenario}:`);
      for (const t of f.timeline) lines.push(`      ${t}`);
    }
  }
  const count = (verdict: string): number => report.verdicts.filter((v) => v.verdict === verdict).length;
  lines.push('', `${report.outcome.toUpperCase()}: ${count('pass')} pass, ${count('fail')} fail, ${count('warn')} warn, ${count('not-run')} not run of ${report.verdicts.length} client requirements (seed ${report.seed})`);
  return lines.join('\n');
}

/**
 * report.json (the whole record: every request with its receive time, tokens as `$ASI_TOKEN`) and
 * summary.md. The recorder already wrote tokens as their variable; a client may still have sent one
 * in another form (base64 in a Basic header, percent-encoded, escaped), so every file goes through
 * the run's redaction and, last, the guard that refuses a file still holding a token.
 */
export function writeClientReports(dir: string, report: ClientReport, secrets: readonly Secret[]): string[] {
  const redactor = new Redactor(secrets);
  const values = secrets.map((t) => t.value);
  const files: Array<[string, string]> = [
    ['report.json', `${redactor.redact(jsonText(report, 2))}\n`],
    ['summary.md', redactor.redact(`# Client grading: ${report.outcome}\n\n\`${report.command.join(' ')}\`\n\n\`\`\`\n${clientConsoleText(report)}\n\`\`\`\n`)],
  ];
  for (const [name, text] of files) new SecretGuard(name, values).check(text);
  mkdirSync(dir, { recursive: true });
  for (const [name, text] of files) writeFileSync(join(dir, name), text);
  return files.map(([name]) => name);
}
