import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { parse } from 'yaml';
import { readTarGz } from '../../lib/certification/tar-reader.ts';
import { writeTarGz } from '../../lib/certification/tar-writer.ts';
import type { Report } from '../../lib/report/report-model.ts';
import { BIN, ROOT, runCli } from '../support/cli.ts';
import {
  actionInputs,
  actionStep,
  evaluateWorkflow,
  gateHazards,
  readAction,
  runnerEnv,
  startRunStep,
  startStep,
  stderrShows,
  type StepRun,
  type Step,
  type WorkflowContext,
} from '../support/github-actions.ts';
import { referenceTarget, type ReferenceTarget } from '../support/reference-target.ts';

/**
 * The example workflows' `run:` steps gate: each is run as a Linux runner runs it (its script in a
 * file under `bash -e`, the shell of a step that names none, which has no pipefail; its `env:`
 * evaluated) against a target or bundles that must fail it, and must exit non-zero.
 *
 * How the workflow is stood in for: `${{ ... }}` expressions are evaluated by `evaluateWorkflow`
 * (matrix, secrets, steps' outputs, github.event) from the values each test gives; `npm ci` is
 * stood in for by a link `node_modules/.bin/asi-conformance` in the workspace to this checkout's
 * bin (what npm ci puts there; this checkout's dist/ is built), so that the steps run the harness
 * as written. The examples call that bin, never `npx asi-conformance`; a `uses:` of the action runs
 * the action's own run steps (certify, then the gate) with the example's `with:` as inputs. The
 * preview scripts of the pull request workflow are stubs the tests write.
 */

interface Job {
  steps: Step[];
}
interface Workflow {
  jobs: Record<string, Job>;
}

function readWorkflow(name: string): Workflow {
  return parse(readFileSync(join(ROOT, 'examples', name), 'utf8')) as Workflow;
}

const matrixFlow = readWorkflow('github-actions-matrix.yml');
const prFlow = readWorkflow('github-actions.yml');
const action = readAction();

function runStep(job: Job, marker: string): Step {
  const step = job.steps.find((s) => s.run?.includes(marker));
  if (step === undefined) throw new Error(`no run step with ${marker}`);
  return step;
}

const certifyStep = runStep(matrixFlow.jobs['certify']!, 'asi-conformance run');
const mergeStep = runStep(matrixFlow.jobs['matrix']!, 'asi-conformance matrix merge');
const pageSummaryStep = runStep(matrixFlow.jobs['matrix']!, 'GITHUB_STEP_SUMMARY');
const prSteps = prFlow.jobs['conformance']!.steps;
const secretsStep = runStep(prFlow.jobs['conformance']!, 'if [ -z "$ASI_TOKEN" ]');
const deployStep = runStep(prFlow.jobs['conformance']!, 'deploy-preview');
const removeStep = runStep(prFlow.jobs['conformance']!, 'remove-preview');
const actionUse = prSteps.find((s) => s.uses?.endsWith('/asi-conformance@v0'))!;

/** Run steps that decide nothing, each with why; every other run step of the examples is run below. */
const NOT_GATES = new Map<Step, string>([
  ...[...Object.values(matrixFlow.jobs)].flatMap((j) => j.steps.filter((s) => s.run === 'npm ci').map((s): [Step, string] => [s, 'installs; npm ci exits non-zero on its own'])),
  [pageSummaryStep, 'writes the step summary whatever the verdict (if: always()); the merge step is the gate'],
]);
const GATES = [certifyStep, mergeStep, secretsStep, deployStep, removeStep];

const scratch = mkdtempSync(join(tmpdir(), 'asi-example-gates-'));
const runnerTemp = join(scratch, 'runner-temp');
mkdirSync(runnerTemp);
const targets: ReferenceTarget[] = [];
afterAll(async () => {
  for (const t of targets) await t.close();
  rmSync(scratch, { recursive: true, force: true });
});

/** A repository's checkout after `npm ci`: the harness's bin where npm puts it. */
function newWorkspace(): string {
  const workspace = mkdtempSync(join(scratch, 'workspace-'));
  mkdirSync(join(workspace, 'node_modules', '.bin'), { recursive: true });
  symlinkSync(BIN, join(workspace, 'node_modules', '.bin', 'asi-conformance'));
  return workspace;
}

function startExampleStep(step: Step, context: WorkflowContext, workspace: string, env: NodeJS.ProcessEnv = {}): ReturnType<typeof startRunStep> {
  // The step names no shell: the runner's default, bash -e, without pipefail.
  expect(step.shell).toBeUndefined();
  return startRunStep(step, (text) => evaluateWorkflow(text, context), { workspace, runnerTemp, env: runnerEnv(env) });
}

const runExampleStep = (step: Step, context: WorkflowContext, workspace: string, env: NodeJS.ProcessEnv = {}): Promise<StepRun> => startExampleStep(step, context, workspace, env).done;

/** The run folders a step left under `reports/`. */
const runFolders = (workspace: string): string[] => (existsSync(join(workspace, 'reports')) ? readdirSync(join(workspace, 'reports')) : []);

describe('the example workflows, read', () => {
  test('every run step either gates (and is run below) or is named here as deciding nothing', () => {
    const all = [...Object.values(matrixFlow.jobs), ...Object.values(prFlow.jobs)].flatMap((j) => j.steps.filter((s) => s.run !== undefined));
    for (const s of all) expect(GATES.includes(s) || NOT_GATES.has(s), s.name ?? s.run).toBe(true);
  });

  test('no run step of an example, of the action or of a doc snippet pipes without pipefail, hides an exit code or keeps a cancel from the harness', () => {
    const docSteps = ['github-actions.md', 'matrix.md'].flatMap((file) => {
      const doc = readFileSync(join(ROOT, 'docs', 'ci', file), 'utf8');
      return [...doc.matchAll(/^( *)```yaml\n([\s\S]*?)^\1```$/gm)].flatMap((m) => {
        const value = parse(m[2]!.replace(new RegExp(`^${m[1]}`, 'gm'), '')) as unknown;
        const steps = Array.isArray(value) ? (value as Step[]) : typeof value === 'object' && value !== null && 'jobs' in value ? Object.values((value as Workflow).jobs).flatMap((j) => j.steps ?? []) : [];
        return steps.map((s) => ({ where: `docs/ci/${file}: ${s.name ?? s.run}`, step: s }));
      });
    });
    const exampleSteps = [matrixFlow, prFlow].flatMap((w) => Object.values(w.jobs).flatMap((j) => j.steps.map((s) => ({ where: `examples: ${s.name ?? s.run}`, step: s }))));
    const actionSteps = action.runs.steps.map((s) => ({ where: `action.yml: ${s.name ?? s.id}`, step: s }));
    const scripts = ['certify.sh', 'install.sh'].map((file) => ({ where: `action/${file}`, step: { run: readFileSync(join(ROOT, 'action', file), 'utf8') } }));
    const checked = [...docSteps, ...exampleSteps, ...actionSteps, ...scripts].filter((c) => c.step.run !== undefined);
    expect(docSteps.length).toBeGreaterThan(5);
    expect(Object.fromEntries(checked.map((c) => [c.where, gateHazards(c.step)]).filter(([, h]) => h!.length > 0))).toEqual({});
  });

  test('the checker finds each hazard: a pipe into tee, || true, npx, a run without exec', () => {
    expect(gateHazards({ run: 'npx asi-conformance matrix merge artifacts --out matrix | tee matrix.txt' })).toEqual(['a pipeline without set -o pipefail']);
    expect(gateHazards({ run: 'set -o pipefail\nx | tee y' })).toEqual([]);
    expect(gateHazards({ run: 'x | tee y', shell: 'bash' })).toEqual([]);
    expect(gateHazards({ run: "echo 'a | b' # c | d" })).toEqual([]);
    expect(gateHazards({ run: 'node_modules/.bin/asi-conformance verify b.tar.gz || true' })).toEqual(['|| true hides the exit code']);
    expect(gateHazards({ run: 'npx asi-conformance run --out reports' })).toHaveLength(1);
    expect(gateHazards({ run: './node_modules/.bin/asi-conformance run --out reports' })).toHaveLength(1);
    expect(gateHazards({ run: 'exec ./node_modules/.bin/asi-conformance run --out reports' })).toEqual([]);
  });
});

describe('examples/github-actions-matrix.yml, job certify, under bash -e', { timeout: 90_000 }, () => {
  const context = (target: ReferenceTarget, secrets: Record<string, string>): WorkflowContext => ({
    matrix: { target: 'acme', profile: target.profile, secrets: 'ACME' },
    secrets: Object.fromEntries(Object.entries(secrets).map(([k, v]) => [k.replace(/^ASI_TOKEN/, 'ACME_TOKEN'), v])),
  });

  test('a target that rejects the token: the step fails (exit 2), and the run folder is there to upload', async () => {
    const t = await referenceTarget();
    targets.push(t);
    const workspace = newWorkspace();
    const rejected = { ...t.env, ASI_TOKEN: 'acme_live_0000000000000000000000000000dead' };
    const run = await runExampleStep(certifyStep, context(t, rejected), workspace);
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toContain('token rejected');
    expect(runFolders(workspace)).toHaveLength(1);
  });

  test('a target that does not answer: the step fails (exit 3)', async () => {
    const t = await referenceTarget();
    const workspace = newWorkspace();
    const profile = join(workspace, 'gone.yaml');
    // A port nothing listens on once the reference is closed.
    writeFileSync(profile, readFileSync(t.profile, 'utf8'));
    await t.close();
    const run = await runExampleStep(certifyStep, { ...context(t, t.env), matrix: { target: 'gone', profile, secrets: 'ACME' } }, workspace);
    expect(run.code, run.stderr).toBe(3);
  });

  // The runner signals a cancelled step's own process; exec made that process the harness.
  test('cancelled: SIGTERM to the step is SIGTERM to the harness, which writes its reports and exits 3', async () => {
    const workspace = newWorkspace();
    const started = startExampleStep(certifyStep, { matrix: { target: 'reference', profile: '', secrets: '' }, secrets: {} }, workspace);
    await stderrShows(started, ' done, ', 25_000);
    started.child.kill('SIGTERM');
    const run = await started.done;
    expect(run.stderr).toContain('SIGTERM: stopping the run');
    expect(run.code).toBe(3);
    const [folder] = runFolders(workspace);
    expect(readdirSync(join(workspace, 'reports', folder!))).toEqual(expect.arrayContaining(['report.json', 'summary.md', 'bundle.tar.gz']));
  });
});

describe('examples/github-actions-matrix.yml, job One page, under bash -e', { timeout: 90_000 }, () => {
  /** Run folders of two auth-suite runs: one of the reference (partial, nothing failed), one of a defect (not conformant). */
  const made = join(scratch, 'made');
  let passing = '';
  let failing = '';

  beforeAll(async () => {
    const runs = await Promise.all(
      [['passing', []], ['failing', ['--defect', 'auth-missing-as-invalid']]].map(async ([name, extra]) => {
        const out = join(made, name as string);
        const r = await runCli(['run', '--suite', 'auth', '-q', '--out', out, ...(extra as string[])], { timeoutMs: 90_000 });
        return { r, dir: join(out, readdirSync(out)[0]!) };
      }),
    );
    expect(runs.map((x) => x.r.code)).toEqual([0, 1]);
    [passing, failing] = runs.map((x) => x.dir) as [string, string];
  }, 120_000);

  /** A workspace whose artifacts/ holds run folders as actions/download-artifact lays them out. */
  function withArtifacts(folders: Record<string, string>): string {
    const workspace = newWorkspace();
    for (const [artifact, dir] of Object.entries(folders)) cpSync(dir, join(workspace, 'artifacts', artifact, 'run'), { recursive: true });
    return workspace;
  }

  /** The failing run's bundle with its failures turned to passes in report.json, and nothing else changed: a forgery. */
  async function forged(): Promise<string> {
    const dir = join(scratch, 'forged');
    cpSync(failing, dir, { recursive: true });
    const files = readTarGz(readFileSync(join(dir, 'bundle.tar.gz')));
    const report = JSON.parse(files.get('report.json')!.toString('utf8')) as Report;
    for (const r of report.results) if (r.verdict === 'fail') r.verdict = 'pass';
    report.outcome = 'partial';
    report.exitCode = 0;
    files.set('report.json', Buffer.from(JSON.stringify(report, null, 2)));
    await writeTarGz(join(dir, 'bundle.tar.gz'), [...files].sort(([a], [b]) => (a < b ? -1 : 1)).map(([name, data]) => ({ name, size: data.length, data })), 0);
    return dir;
  }

  test('bundles that pass: the step passes, and matrix.txt holds what merge printed (the control)', async () => {
    const workspace = withArtifacts({ 'asi-run-reference': passing });
    const run = await runExampleStep(mergeStep, {}, workspace);
    expect(run.code, run.stderr).toBe(0);
    expect(readFileSync(join(workspace, 'matrix.txt'), 'utf8')).toBe(run.stdout);
  });

  test('a target that is not conformant: the step fails (exit 1), and the summary step shows the matrix', async () => {
    const workspace = withArtifacts({ 'asi-run-reference': passing, 'asi-run-acme': failing });
    const run = await runExampleStep(mergeStep, {}, workspace);
    expect(run.code, run.stderr).toBe(1);
    const summary = await runExampleStep(pageSummaryStep, {}, workspace);
    expect(summary.code).toBe(0);
    expect(summary.summary).toContain(run.stdout.trim().split('\n')[0]);
  });

  test('a bundle forged after its run (failures turned to passes): the step fails (exit 1)', async () => {
    const workspace = withArtifacts({ 'asi-run-acme': await forged() });
    const run = await runExampleStep(mergeStep, {}, workspace);
    expect(run.code, run.stderr).toBe(1);
    expect(run.stdout).toContain('does not verify');
  });

  test('the same line without set -o pipefail would pass: what this test tells apart', async () => {
    const workspace = withArtifacts({ 'asi-run-acme': failing });
    const unguarded = { ...mergeStep, run: mergeStep.run!.replace('set -o pipefail\n', '') };
    expect(unguarded.run).not.toBe(mergeStep.run);
    expect((await runExampleStep(unguarded, {}, workspace)).code).toBe(0);
  });
});

describe('examples/github-actions.yml under bash -e', { timeout: 90_000 }, () => {
  const pr = { event: { pull_request: { number: 7, head: { sha: '0123abcd' } } } };

  test('without secrets (a fork\'s pull request): the first step fails and says so; with them it passes', async () => {
    const none = await runExampleStep(secretsStep, { secrets: {} }, newWorkspace());
    expect(none.code).toBe(1);
    expect(none.summary).toContain('Not certified: this run has no secrets');
    expect((await runExampleStep(secretsStep, { secrets: { ASI_TOKEN: 'a' } }, newWorkspace())).code).toBe(0);
  });

  test('a deploy or a removal that fails fails its step', async () => {
    const workspace = newWorkspace();
    mkdirSync(join(workspace, 'scripts'));
    for (const script of ['deploy-preview.sh', 'remove-preview.sh']) writeFileSync(join(workspace, 'scripts', script), '#!/bin/sh\necho "url=http://127.0.0.1:9/v1"\nexit 1\n', { mode: 0o755 });
    const context = { github: pr, secrets: { DEPLOY_KEY: 'k' } };
    expect((await runExampleStep(deployStep, context, workspace)).code).toBe(1);
    expect((await runExampleStep(removeStep, context, workspace)).code).toBe(1);
  });

  /** The use of the action as the example writes it: the action's certify step, then its gate. */
  async function certifyThePreview(url: string, secrets: Record<string, string>, profile: string): Promise<{ certify: StepRun; gate: StepRun }> {
    const workspace = newWorkspace();
    mkdirSync(join(workspace, 'asi'));
    writeFileSync(join(workspace, 'asi', 'target.yaml'), readFileSync(profile, 'utf8'));
    const context: WorkflowContext = { github: pr, secrets, steps: { preview: { url } } };
    const given = Object.fromEntries(Object.entries(actionUse.with ?? {}).map(([k, v]) => [k, evaluateWorkflow(String(v), context)]));
    const inputs = actionInputs(action, given);
    const env = runnerEnv(Object.fromEntries(Object.entries(actionUse.env ?? {}).map(([k, v]) => [k, evaluateWorkflow(v, context)])));
    const certify = await startStep(actionStep(action, 'certify'), { inputs, actionPath: ROOT }, { workspace, runnerTemp, env }).done;
    const gate = await startStep(action.runs.steps.at(-1)!, { inputs, actionPath: ROOT, steps: { certify: certify.outputs } }, { workspace, runnerTemp, env }).done;
    return { certify, gate };
  }

  test('the preview rejects the token: the action\'s gate fails the job (exit 2)', async () => {
    const t = await referenceTarget();
    targets.push(t);
    const { certify, gate } = await certifyThePreview(t.reference.baseUrl, { ASI_TOKEN: 'acme_live_0000000000000000000000000000dead' }, t.profile);
    expect(certify.outputs['exit-code'], certify.stderr).toBe('2');
    expect(certify.outputs['outcome']).toBe('refused');
    expect(gate.code).toBe(2);
  });

  test('the preview is not up: the action\'s gate fails the job (exit 3)', async () => {
    const t = await referenceTarget();
    await t.close();
    const { certify, gate } = await certifyThePreview(t.reference.baseUrl, Object.fromEntries(Object.entries(t.env)), t.profile);
    expect(certify.outputs['exit-code'], certify.stderr).toBe('3');
    expect(gate.code).toBe(3);
  });
});
