import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { appendFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, sep } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { generateKeyPair } from '../../lib/certification/signing-key.ts';
import type { Report } from '../../lib/report/report-model.ts';
import { ROOT, runCli } from '../support/cli.ts';
import { actionInputs, actionStep, readAction, runnerEnv, startStep, stderrShows, type StepRun } from '../support/github-actions.ts';
import { referenceTarget, type ReferenceTarget } from '../support/reference-target.ts';

/**
 * The action's run steps, run as the runner runs them (bash with -eo pipefail, the step's env
 * evaluated from the inputs) in a workspace of their own; `uses:` steps are GitHub's and are only
 * checked as written (action-metadata.test.ts).
 */

const action = readAction();
const certifyStep = actionStep(action, 'certify');
const gateStep = action.runs.steps.at(-1)!;
const targets: ReferenceTarget[] = [];
// Workspaces, the runner's temporary files and the bare checkout (with its node_modules) live here.
const scratch = mkdtempSync(join(tmpdir(), 'asi-action-'));
const runnerTemp = join(scratch, 'runner-temp');
mkdirSync(runnerTemp);
afterAll(async () => {
  for (const t of targets) await t.close();
  rmSync(scratch, { recursive: true, force: true });
});

const newWorkspace = (): string => mkdtempSync(join(scratch, 'workspace-'));

const TOKEN_INPUT: Record<string, string> = { ASI_TOKEN: 'token', ASI_TOKEN_2: 'token-2', ASI_TOKEN_WS2: 'token-ws2', ASI_TOKEN_REVOKED: 'token-revoked', ASI_TOKEN_EXPIRED: 'token-expired' };

interface Certified {
  certify: StepRun;
  gate: StepRun;
  workspace: string;
}

/** The certify step with these inputs, then the gate step with its outputs, as the action runs them. */
async function certifyThenGate(given: Record<string, string>, env: NodeJS.ProcessEnv = {}, actionPath = ROOT, workspace = newWorkspace()): Promise<Certified> {
  const inputs = actionInputs(action, given);
  const context = { inputs, actionPath };
  const certify = await startStep(certifyStep, context, { workspace, runnerTemp, env: runnerEnv(env), summaryBefore: 'an earlier step wrote this\n' }).done;
  const gate = await startStep(gateStep, { ...context, steps: { certify: certify.outputs } }, { workspace, runnerTemp, env: runnerEnv() }).done;
  return { certify, gate, workspace };
}

const sha256Of = (file: string): string => createHash('sha256').update(readFileSync(file)).digest('hex');

/** Each file under a folder (but the build's stamp) with its SHA-256, by path. */
function treeDigest(folder: string): Record<string, string> {
  const files = readdirSync(folder, { recursive: true, withFileTypes: true }).filter((e) => e.isFile() && e.name !== '.build-stamp');
  return Object.fromEntries(files.map((e) => [relative(folder, join(e.parentPath, e.name)), sha256Of(join(e.parentPath, e.name))]).sort(([a], [b]) => a!.localeCompare(b!)));
}

function reportOf(run: StepRun): Report {
  return JSON.parse(readFileSync(join(run.outputs['report-dir']!, 'report.json'), 'utf8')) as Report;
}

// Each test runs the harness in a process of its own: generous on a loaded machine.
describe('the certify and gate steps', { timeout: 90_000 }, () => {
  test('against the embedded reference: outputs set, summary appended, lists and args passed, exit code 0 passed through', async () => {
    const { certify, gate, workspace } = await certifyThenGate({ suite: 'auth', args: '  -q\n\n--seed=7  ' });
    expect(certify.code, certify.stderr).toBe(0);
    const { outputs } = certify;
    expect(outputs['exit-code']).toBe('0');
    expect(outputs['outcome']).toBe('partial');
    expect(dirname(outputs['report-dir']!)).toBe(join(workspace, 'reports'));
    expect(readdirSync(outputs['report-dir']!).sort()).toEqual(['bundle.tar.gz', 'junit.xml', 'report.html', 'report.json', 'summary.md', 'transcript.har']);
    expect(outputs['junit']).toBe(join(outputs['report-dir']!, 'junit.xml'));
    // The bundle's digest from the file itself; the CLI's closing line shows the same digest's start.
    expect(outputs['bundle']).toBe(join(outputs['report-dir']!, 'bundle.tar.gz'));
    expect(outputs['bundle-sha256']).toBe(sha256Of(outputs['bundle']!));
    expect(certify.stdout).toContain(`(sha256 ${outputs['bundle-sha256']!.slice(0, 16)}…, unsigned)`);
    const summaryMd = readFileSync(join(outputs['report-dir']!, 'summary.md'), 'utf8');
    expect(certify.summary).toBe(`an earlier step wrote this\n${summaryMd}`);
    const report = reportOf(certify);
    expect(report.meta.seed).toBe(7);
    expect(report.meta.argv).toEqual(['run', '--out=reports', '--fail-on=must', '--suite=auth', '-q', '--seed=7']);
    expect(gate.code).toBe(0);
    expect(gate.stdout).not.toContain('::error');
  });

  test('against a target that fails a MUST, tokens given as inputs: exit code 1 passed through, no token printed', async () => {
    const t = await referenceTarget({ defects: ['auth-missing-as-invalid'] });
    targets.push(t);
    const tokens = Object.fromEntries(Object.entries(t.env).map(([variable, value]) => [TOKEN_INPUT[variable]!, value]));
    // A label names the implementation under test: only with a target (a value may hold spaces).
    const { certify, gate } = await certifyThenGate({ 'base-url': t.reference.baseUrl, suite: 'auth', args: '--label=Acme preview  ', ...tokens });
    expect(certify.code, certify.stderr).toBe(0);
    expect(certify.outputs['exit-code']).toBe('1');
    expect(certify.outputs['outcome']).toBe('not-conformant');
    expect(certify.summary).toContain('auth/5.3/missing-header');
    expect(reportOf(certify).meta.target.baseUrl).toBe(t.reference.baseUrl);
    expect(reportOf(certify).meta.implementation).toEqual({ label: 'Acme preview' });
    expect(gate.code).toBe(1);
    expect(gate.stdout).toContain('::error title=ASI conformance::not-conformant (exit code 1)');
    const printed = [certify.stdout, certify.stderr, certify.summary, JSON.stringify(certify.outputs), gate.stdout].join('\n');
    for (const value of Object.values(t.env)) expect(printed).not.toContain(value);
  });

  test('a token input left empty keeps the variable of the job\'s environment', async () => {
    const t = await referenceTarget();
    targets.push(t);
    const { certify, gate } = await certifyThenGate({ 'base-url': t.reference.baseUrl, only: 'auth/5.3/missing-header, auth/5.4/unknown-token' }, t.env);
    expect(certify.outputs['exit-code'], certify.stderr).toBe('0');
    expect(certify.outputs['outcome']).toBe('partial');
    expect(reportOf(certify).meta.argv).toEqual(expect.arrayContaining(['--only=auth/5.3/missing-header', '--only=auth/5.4/unknown-token']));
    expect(gate.code).toBe(0);
  });

  test('a usage error: exit code 2, no report, the summary says so, the gate fails', async () => {
    const { certify, gate } = await certifyThenGate({ 'fail-on': 'sometimes' });
    expect(certify.code, certify.stderr).toBe(0);
    expect(certify.stderr).toMatch(/--fail-on expects must or should\b.*, got "sometimes"/);
    expect(certify.outputs).toEqual({ 'exit-code': '2', outcome: 'no-report', 'report-dir': '', junit: '', bundle: '', 'bundle-sha256': '' });
    expect(certify.summary).toBe('an earlier step wrote this\n**asi-conformance** exited 2 without a summary (a usage, profile or expectations error, or an --out that cannot be written): the log of the step says why.\n');
    expect(gate.code).toBe(2);
  });

  test('sign-key and sign-key-passphrase: the bundle is signed with that key and verifies with its public half; the passphrase is printed nowhere', async () => {
    const workspace = newWorkspace();
    const passphrase = 'correct horse 5ec7e7 battery';
    generateKeyPair(join(workspace, 'keys'), { ASI_SIGN_KEY_PASSPHRASE: passphrase });
    const { certify, gate } = await certifyThenGate({ only: 'auth/5.3/missing-header', 'sign-key': 'keys/asi-signing-key.pem', 'sign-key-passphrase': passphrase }, {}, ROOT, workspace);
    expect(certify.outputs['exit-code'], certify.stderr).toBe('0');
    expect(reportOf(certify).meta.argv).toContain('--sign-key=keys/asi-signing-key.pem');
    expect(certify.stdout).toContain('signed by key');
    const verified = await runCli(['verify', certify.outputs['bundle']!, '--public-key', join(workspace, 'keys', 'asi-signing-key.pub.pem')]);
    expect(verified.code, verified.stdout).toBe(0);
    expect(verified.stdout).toMatch(/signature\s+Ed25519, key \w+: verified/);
    expect(gate.code).toBe(0);
    const printed = [certify.stdout, certify.stderr, certify.summary, JSON.stringify(certify.outputs), gate.stdout, readFileSync(join(certify.outputs['report-dir']!, 'report.json'), 'utf8')].join('\n');
    expect(printed).not.toContain(passphrase);
  });

  test('a wrong passphrase: the run does not start (exit 2), no bundle, the gate fails', async () => {
    const workspace = newWorkspace();
    generateKeyPair(join(workspace, 'keys'), { ASI_SIGN_KEY_PASSPHRASE: 'the right one' });
    const { certify, gate } = await certifyThenGate({ only: 'auth/5.3/missing-header', 'sign-key': 'keys/asi-signing-key.pem', 'sign-key-passphrase': 'a wrong one' }, {}, ROOT, workspace);
    expect(certify.outputs).toMatchObject({ 'exit-code': '2', bundle: '', 'bundle-sha256': '' });
    expect(certify.stderr).toContain('ASI_SIGN_KEY_PASSPHRASE does not decrypt the key');
    expect(certify.stderr).not.toContain('a wrong one');
    expect(gate.code).toBe(2);
  });

  test('--bundle-dir= in args: the bundle output is that folder, its digest that of its manifest.json', async () => {
    const { certify, workspace } = await certifyThenGate({ only: 'auth/5.3/missing-header', args: '--bundle-dir=certified' });
    expect(certify.outputs['exit-code'], certify.stderr).toBe('0');
    expect(certify.outputs['bundle']).toBe(join(workspace, 'certified'));
    expect(certify.outputs['bundle-sha256']).toBe(sha256Of(join(workspace, 'certified', 'manifest.json')));
    expect(certify.stdout).toContain(`(manifest sha256 ${certify.outputs['bundle-sha256']!.slice(0, 16)}…`);
  });

  // The runner signals a cancelled step's own process (SIGINT, then SIGTERM 7.5 s later); the step
  // execs the script, which passes the signal on to the harness.
  test('cancelled: SIGINT to the step reaches the harness, which writes its reports and exits 3', async () => {
    const run = startStep(certifyStep, { inputs: actionInputs(action, { suite: 'ratelimit' }), actionPath: ROOT }, { workspace: newWorkspace(), runnerTemp, env: runnerEnv() });
    // The first test ends once the pools are spent: on a starved machine that takes tens of seconds.
    await stderrShows(run, ' done, ', 60_000);
    run.child.kill('SIGINT');
    const certify = await run.done;
    expect(certify.code, certify.stderr).toBe(0);
    expect(certify.stderr).toContain('SIGINT: stopping the run');
    expect(certify.outputs['exit-code']).toBe('3');
    expect(certify.outputs['outcome']).toBe('incomplete');
    expect(certify.summary).toBe(readFileSync(join(certify.outputs['report-dir']!, 'summary.md'), 'utf8'));
  });
});

describe('the install steps', () => {
  // What the action's ref holds: the repository's files without anything built or installed.
  test('build a working harness in a bare checkout of the action, from its lockfile, once for a key', async () => {
    const checkout = join(scratch, 'asi-conformance');
    const skipped = new Set(['node_modules', 'dist', 'reports', '.git']);
    cpSync(ROOT, checkout, { recursive: true, filter: (src) => !skipped.has(relative(ROOT, src).split(sep)[0]!) });
    expect(existsSync(join(checkout, 'dist'))).toBe(false);
    const context = { inputs: actionInputs(action, {}), actionPath: checkout };
    const options = {
      workspace: newWorkspace(),
      runnerTemp,
      // The registry is reachable; the local npm cache makes this a few seconds.
      env: runnerEnv({ npm_config_prefer_offline: 'true' }),
    };
    const installOnce = async (): Promise<{ key: StepRun; install: StepRun }> => {
      const key = await startStep(actionStep(action, 'install-key'), context, options).done;
      expect(key.code, key.stderr).toBe(0);
      const install = await startStep(actionStep(action, 'install'), { ...context, steps: { 'install-key': key.outputs } }, options).done;
      expect(install.code, install.stderr).toBe(0);
      return { key, install };
    };
    const first = await installOnce();
    expect(first.key.outputs['key']).toMatch(/^asi-conformance-\w+-\w+-node\d+-[0-9a-f]{64}$/);
    expect(first.key.outputs['current']).toBe('false');
    expect(first.install.outputs['installed']).toBe('true');
    // Built without the type check (its sources were checked before release): the very files of
    // this clone's checked build, and a stamp that says so.
    expect(readFileSync(join(checkout, 'dist', '.build-stamp'), 'utf8')).toBe(readFileSync(join(ROOT, 'dist', '.build-stamp'), 'utf8').replace('\n', ' unchecked\n'));
    expect(treeDigest(join(checkout, 'dist'))).toEqual(treeDigest(join(ROOT, 'dist')));
    // The same key again (a restored cache, or a runner that keeps its actions folder): nothing to do.
    const again = await installOnce();
    expect(again.key.outputs).toEqual({ key: first.key.outputs['key'], dir: checkout, current: 'true' });
    expect(again.install.outputs['installed']).toBe('false');
    expect(again.install.stdout).toContain('nothing to install');
    const { certify } = await certifyThenGate({ only: 'auth/5.3/missing-header' }, {}, checkout);
    expect(certify.outputs['exit-code'], certify.stderr).toBe('0');
    expect(reportOf(certify).meta.tool.name).toBe('asi-conformance');
  }, 150_000);

  test('the key follows the lockfile, the sources and what builds them, not the docs or an example profile', () => {
    const checkout = join(scratch, 'key-checkout');
    cpSync(ROOT, checkout, { recursive: true, filter: (src) => ['', 'action', 'bin', 'config', 'lib', 'suites', 'docs', 'package.json', 'package-lock.json', 'tsconfig.json', 'tsconfig.build.json'].includes(relative(ROOT, src).split(sep)[0]!) });
    const keyOf = (): string => execFileSync(process.execPath, [join(checkout, 'action', 'install-key.mjs')], { encoding: 'utf8' });
    const before = keyOf();
    const keyLine = (out: string): string | undefined => /^key=.*$/m.exec(out)?.[0];
    expect(keyLine(before)).toBe(keyLine(execFileSync(process.execPath, [join(ROOT, 'action', 'install-key.mjs')], { encoding: 'utf8' })));
    appendFileSync(join(checkout, 'docs', 'ci', 'matrix.md'), '\nmore prose\n');
    expect(keyOf()).toBe(before);
    appendFileSync(join(checkout, 'config', 'example.yaml'), '\n# more prose\n');
    expect(keyOf()).toBe(before);
    // Each changes the key: the sources; the profile schema, whose validator the build writes into
    // dist/; the build's scripts; the suites, which the build type-checks and its stamp covers; the lockfile.
    let last = before;
    for (const file of ['lib/errors.ts', 'config/profile.schema.json', 'bin/build.mjs', 'bin/compile-lib.mjs', 'suites/auth.test.ts', 'package-lock.json']) {
      appendFileSync(join(checkout, file), file.endsWith('.ts') ? '\n// a change\n' : '\n');
      const after = keyOf();
      expect(after, file).not.toBe(last);
      last = after;
    }
  });
});
