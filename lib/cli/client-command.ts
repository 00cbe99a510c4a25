import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TracedRequest } from '../checks/client-trace.ts';
import { clientConsoleText, EXIT_CODES, outcomeOf, writeClientReports, type ScenarioRun } from '../client-grading/client-report.ts';
import { judgeClient } from '../client-grading/judge-client.ts';
import { SCENARIOS } from '../client-grading/scenarios.ts';
import { spawnClient } from '../client-grading/spawn-client.ts';
import { RESULT_FILE_VARIABLE } from '../client-grading/stream-turn.ts';
import { UsageError } from '../errors.ts';
import { startReference } from '../reference/server.ts';
import { newRunId } from '../runner/certify.ts';
import { CLIENT_HELP } from './help.ts';
import { parseOptions } from './parse-options.ts';
import { Redactor, type Secret } from '../http/redactor.ts';

function integer(flag: string, text: string | undefined, fallback: number, min: number): number {
  if (text === undefined) return fallback;
  if (!/^\d+$/.test(text) || Number(text) < min) throw new UsageError(`client: ${flag} expects an integer of at least ${min}, got ${JSON.stringify(text)}`);
  return Number(text);
}

/** Grades a client: each scenario scripts the reference, runs the command against it, and judges what it sent. */
export async function clientCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseOptions(
    'client',
    args,
    {
      scenario: { type: 'string', multiple: true },
      seed: { type: 'string' },
      out: { type: 'string' },
      'env-prefix': { type: 'string' },
      'time-limit': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    true,
  );
  if (values.help === true) {
    process.stdout.write(`${CLIENT_HELP}\n`);
    return 0;
  }
  if (positionals.length === 0) throw new UsageError("client: no command to grade; expected 'asi-conformance client [options] -- <command…>'");
  const names = values.scenario ?? SCENARIOS.map((s) => s.name);
  const unknown = names.find((n) => !SCENARIOS.some((s) => s.name === n));
  if (unknown !== undefined) throw new UsageError(`client: --scenario ${JSON.stringify(unknown)} is not a scenario; expected one of ${SCENARIOS.map((s) => s.name).join(', ')}`);
  const prefix = values['env-prefix'] ?? 'ASI';
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(prefix)) throw new UsageError(`client: --env-prefix expects a variable-name prefix such as ASI, got ${JSON.stringify(prefix)}`);
  const seed = integer('--seed', values.seed, Math.floor(Math.random() * 2 ** 31), 0);
  const timeLimitMs = integer('--time-limit', values['time-limit'], 30, 1) * 1000;
  const startedAt = new Date();

  const runs: ScenarioRun[] = [];
  // Each scenario's reference issues its own token: every one is a secret of this run's outputs.
  const secrets: Secret[] = [];
  const resultDir = mkdtempSync(join(tmpdir(), 'asi-client-result-'));
  try {
    for (const scenario of SCENARIOS.filter((s) => names.includes(s.name))) {
      for (const run of scenario.runs ?? ['']) {
        const label = run === '' ? scenario.name : `${scenario.name}/${run}`;
        const trace: TracedRequest[] = [];
        const reference = await startReference({ scripted: { script: scenario.script(seed, run), recorder: (r) => trace.push(r) } });
        for (const [role, value] of Object.entries(reference.tokens)) secrets.push({ value, placeholder: role === 'primary' ? '$ASI_TOKEN' : `$ASI_TOKEN_${role.toUpperCase()}` });
        const resultFile = join(resultDir, `${label.replace('/', '-')}.txt`);
        try {
          process.stdout.write(`scenario ${label}: ${scenario.asks}\n`);
          const env = {
            ...process.env,
            [`${prefix}_BASE_URL`]: reference.baseUrl,
            [`${prefix}_TOKEN`]: reference.tokens['primary'],
            [`${prefix}_SCENARIO`]: scenario.name,
            [`${prefix}_${RESULT_FILE_VARIABLE}`]: resultFile,
          };
          const exit = await spawnClient(positionals, env, timeLimitMs);
          const result = existsSync(resultFile) ? readFileSync(resultFile, 'utf8') : undefined;
          runs.push({ scenario: label, exit, trace, ...(result === undefined ? {} : { result }) });
        } finally {
          await reference.close();
        }
      }
    }
  } finally {
    rmSync(resultDir, { recursive: true, force: true });
  }
  const verdicts = judgeClient(runs);
  const report = { kind: 'client' as const, command: positionals, seed, startedAt: startedAt.toISOString(), outcome: outcomeOf(verdicts), scenarios: runs, verdicts };
  const dir = join(values.out ?? 'reports', `client-${newRunId(startedAt)}`);
  const files = writeClientReports(dir, report, secrets);
  process.stdout.write(`\n${new Redactor(secrets).redact(clientConsoleText(report))}\nreports: ${dir}/ (${files.join(', ')})\n`);
  return EXIT_CODES[report.outcome];
}
