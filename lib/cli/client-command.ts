import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { clientRequirements } from '../catalogue/client.ts';
import { baselineExit, compareClientBaseline, loadClientBaseline } from '../client-grading/client-baseline.ts';
import { writeClientBundle } from '../certification/client-bundle.ts';
import { harnessIdentity } from '../certification/harness-identity.ts';
import { applyExpectations, loadExpectations } from '../report/expectations.ts';
import { checkWritableFolder } from '../user-file.ts';
import { BUNDLE_OPTIONS, bundleLine, bundleRequest } from './bundle-flags.ts';
import { consolePath } from './console-path.ts';
import type { TracedRequest } from '../checks/client-trace.ts';
import { clientConsoleText, EXIT_CODES, outcomeOf, writeClientReports, type ClientReport, type GradedVerdict, type ScenarioRun } from '../client-grading/client-report.ts';
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
      expect: { type: 'string' },
      baseline: { type: 'string' },
      'no-bundle': BUNDLE_OPTIONS['no-bundle'],
      'sign-key': BUNDLE_OPTIONS['sign-key'],
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
  const knownId = (id: string): boolean => clientRequirements.some((r) => r.id === id);
  const expectations = values.expect === undefined ? undefined : loadExpectations(values.expect, knownId);
  const baseline = values.baseline === undefined ? undefined : { file: values.baseline, report: loadClientBaseline(values.baseline) };
  const outDir = values.out ?? 'reports';
  // Before any scenario runs: a grading that cannot write its reports does not start.
  checkWritableFolder(outDir, (message) => new UsageError(`client: --out ${JSON.stringify(outDir)} ${message}`));
  const bundle = await bundleRequest({ ...(values['no-bundle'] === undefined ? {} : { 'no-bundle': values['no-bundle'] }), ...(values['sign-key'] === undefined ? {} : { 'sign-key': values['sign-key'] }) }, process.env, 'client');
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
          runs.push({ scenario: label, baseUrl: reference.baseUrl, exit, trace, ...(result === undefined ? {} : { result }) });
        } finally {
          await reference.close();
        }
      }
    }
  } finally {
    rmSync(resultDir, { recursive: true, force: true });
  }
  const verdicts: GradedVerdict[] = judgeClient(runs);
  const finishedAt = new Date();
  // Waivers as a server run applies them: the expected verdict does not count, an expired waiver fails.
  if (expectations !== undefined) applyExpectations(verdicts, expectations, finishedAt.toISOString().slice(0, 10));
  const outcome = outcomeOf(verdicts);
  const runId = `client-${newRunId(startedAt)}`;
  const { name, version } = harnessIdentity();
  const diff = baseline === undefined ? undefined : compareClientBaseline(basename(baseline.file), baseline.report, verdicts);
  const report: ClientReport = {
    kind: 'client',
    runId,
    harness: { name, version },
    command: positionals,
    seed,
    startedAt: startedAt.toISOString(),
    finishedAt: finishedAt.toISOString(),
    ...(values.expect === undefined ? {} : { expectations: basename(values.expect) }),
    ...(diff === undefined ? {} : { baseline: diff }),
    outcome,
    exitCode: diff === undefined ? EXIT_CODES[outcome] : baselineExit(EXIT_CODES[outcome], diff, verdicts),
    scenarios: runs,
    verdicts,
  };
  const dir = join(outDir, runId);
  const written = await writeClientReports(dir, report, secrets);
  const certified = bundle === undefined ? undefined : await writeClientBundle(dir, report, written, secrets, bundle);
  const redactor = new Redactor(secrets);
  const reportsLine = `reports: ${consolePath(dir, process.cwd())}/ (${written.map((f) => basename(f)).join(', ')})`;
  process.stdout.write(`\n${redactor.redact(clientConsoleText(report))}\n${redactor.redact(reportsLine)}${certified === undefined ? '' : `\n${bundleLine(certified)}`}\n`);
  return report.exitCode;
}
