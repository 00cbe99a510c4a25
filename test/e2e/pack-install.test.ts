import { execFile, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import type { Report } from '../../lib/report/report-model.ts';
import { packageFiles } from '../../lib/certification/package-digest.ts';
import { ROOT, runCli } from '../support/cli.ts';
import { serveStandalone, stopServe, type Served } from '../support/standalone-serve.ts';

/**
 * The package as CI users get it: `npm pack`, then `npm install <tarball>` into an empty project,
 * then `npx asi-conformance`. Packs the build `npm test` made (pretest), without building again.
 */

const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { name: string; version: string; private?: boolean; files: string[] };
const work = mkdtempSync(join(tmpdir(), 'asi-pack-'));
const project = join(work, 'project');
let tarball = '';
let packed: string[] = [];

interface Result {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * The environment of a user's shell: without the npm_* variables `npm test` sets for its scripts
 * (they would configure the inner npm), and with any proxy the machine has.
 */
function userEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!/^npm_/i.test(k)) env[k] = v;
  return { ...env, ...extra };
}

/** Not spawnSync: a child that waits on this process would deadlock it. */
function exec(file: string, args: string[], cwd: string, env = userEnv(), timeoutMs = 120_000): Promise<Result> {
  return new Promise((resolve) => {
    execFile(file, args, { cwd, env, timeout: timeoutMs, maxBuffer: 16 * 1024 * 1024, encoding: 'utf8' }, (err, stdout, stderr) => {
      const code = err === null ? 0 : typeof (err as { code?: unknown }).code === 'number' ? ((err as { code: number }).code) : null;
      resolve({ code, stdout, stderr });
    });
  });
}

beforeAll(async () => {
  expect(existsSync(join(ROOT, 'dist', 'cli', 'main.js')), 'npm test builds dist/ first (pretest)').toBe(true);
  const pack = await exec('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', work], ROOT);
  expect(pack.code, pack.stderr).toBe(0);
  const [info] = JSON.parse(pack.stdout) as Array<{ filename: string; files: Array<{ path: string }> }>;
  tarball = join(work, info!.filename);
  packed = info!.files.map((f) => f.path).sort();
  mkdirSync(project);
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'ci-project', version: '1.0.0', private: true }));
  // The registry is reachable; the local npm cache makes this a few seconds.
  const install = await exec('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', tarball], project, userEnv(), 170_000);
  expect(install.code, install.stderr).toBe(0);
}, 180_000);

describe('npm pack', () => {
  test('holds only what runs: the CLI, its build, the sources vitest runs, data, docs and the CI example they link', () => {
    const top = new Set(packed.map((p) => p.split('/')[0]!));
    expect([...top].sort()).toEqual(['CHANGELOG.md', 'LICENSE', 'README.md', 'bin', 'config', 'dist', 'docs', 'examples', 'lib', 'package.json', 'suites']);
    expect(packed.filter((p) => p.endsWith('.map') || /(^|\/)test\//.test(p))).toEqual([]);
    for (const file of [
      'bin/asi-conformance.js',
      'bin/asi-conformance',
      'dist/cli/main.js',
      'suites/auth.test.ts',
      'lib/http/client.ts',
      'lib/contract/asi-v1.openapi.yaml',
      'lib/report/report.schema.json',
      'config/profile.schema.json',
      'config/reference.yaml',
      'docs/spec/agents-service-interface-v1.md',
    ]) {
      expect(packed).toContain(file);
    }
  });

  test('the package digest of a certification bundle covers exactly what npm packs', () => {
    expect(packageFiles(ROOT)).toEqual(packed);
  });

  test('is publishable and versioned: not private, and the CHANGELOG has an entry for this version', () => {
    expect(pkg.private).toBeUndefined();
    expect(readFileSync(join(ROOT, 'CHANGELOG.md'), 'utf8')).toMatch(new RegExp(`^## \\[${pkg.version.replace(/\./g, '\\.')}\\]`, 'm'));
  });
});

describe('installed from the tarball into an empty project', () => {
  test('npx asi-conformance --help and --version work', async () => {
    const help = await exec('npx', ['--no', '--', 'asi-conformance', '--help'], project);
    expect(help.code, help.stderr).toBe(0);
    expect(help.stdout).toContain('Exit codes');
    const version = await exec('npx', ['--no', '--', 'asi-conformance', '--version'], project);
    expect(version.stdout.trim()).toBe(pkg.version);
  });

  test('a short run against the embedded reference passes and writes its reports', async () => {
    const out = join(work, 'reports-npx');
    const r = await exec('npx', ['--no', '--', 'asi-conformance', 'run', '--suite', 'auth', '-q', '--out', out], project);
    expect(r.code, r.stderr).toBe(0);
    const [runDir] = readdirSync(out);
    expect(readdirSync(join(out, runDir!)).sort()).toEqual(['bundle.tar.gz', 'junit.xml', 'report.html', 'report.json', 'summary.md', 'transcript.har']);
    const report = JSON.parse(readFileSync(join(out, runDir!, 'report.json'), 'utf8')) as Report;
    expect(report.meta.tool).toEqual({ name: pkg.name, version: pkg.version });
    expect(report.counts.pass).toBeGreaterThan(0);
    expect(report.counts.fail).toBe(0);
    // The closing line's verify command runs as printed from the project: npx finds the installed bin.
    const printed = /check it offline: (.+)$/m.exec(r.stdout)?.[1];
    expect(printed, r.stdout).toMatch(/^npx asi-conformance verify /);
    const checked = await exec('/bin/sh', ['-c', printed!], project);
    expect(checked.code, checked.stdout + checked.stderr).toBe(0);
    // The installed package's digest is the clone's: the clone's build verifies it as the same build.
    const verified = await runCli(['verify', join(out, runDir!, 'bundle.tar.gz')]);
    expect(verified.code, verified.stdout + verified.stderr).toBe(0);
    expect(verified.stdout).toMatch(/^ {2}harness {5}asi-conformance \S+, the same build as this verifier /m);
  });
});

describe('installed globally (npm install --global, another prefix)', () => {
  test('the closing line names the bare command, and it runs as printed from any folder', async () => {
    const prefix = join(work, 'global');
    const install = await exec('npm', ['install', '--global', '--prefix', prefix, '--no-audit', '--no-fund', '--prefer-offline', tarball], work, userEnv(), 170_000);
    expect(install.code, install.stderr).toBe(0);
    // The user's shell: the prefix's bin on PATH, the working folder in no project.
    const env = userEnv({ PATH: `${join(prefix, 'bin')}${delimiter}${process.env['PATH'] ?? ''}` });
    const elsewhere = mkdtempSync(join(work, 'elsewhere-'));
    const r = await exec('/bin/sh', ['-c', 'asi-conformance run --suite auth -q --out reports'], elsewhere, env);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const printed = /check it offline: (.+)$/m.exec(r.stdout)?.[1];
    expect(printed, r.stdout).toMatch(/^asi-conformance verify reports\/[^ ]+\/bundle\.tar\.gz$/);
    const checked = await exec('/bin/sh', ['-c', printed!], elsewhere, env);
    expect(checked.code, checked.stdout + checked.stderr).toBe(0);
  }, 200_000);
});

describe('the fault hooks, installed', () => {
  test('serve prints a run command that works from the project; the sample profile\'s hooks switch the faults of that server', async () => {
    let served: Served | undefined;
    try {
      served = await serveStandalone('npx', ['--no', '--', 'asi-conformance', 'serve', '--port', '0'], { cwd: project, env: userEnv(), timeoutMs: 60_000 });
      expect(served.then).toBe(`npx asi-conformance run --config node_modules/asi-conformance/config/reference.yaml --base-url ${served.baseUrl}`);
      const out = join(work, 'reports-hooks');
      const r = await exec('/bin/sh', ['-c', `${served.then} --suite conversation-faults -q --out ${out}`], project, userEnv(served.tokens));
      expect(r.code, r.stdout + r.stderr).toBe(0);
      const [runDir] = readdirSync(out);
      const report = JSON.parse(readFileSync(join(out, runDir!, 'report.json'), 'utf8')) as Report;
      for (const id of ['conversation/7/upstream-503', 'conversation/8.2/spend-cap-refused']) expect(report.results.find((x) => x.requirement.id === id)?.verdict, id).toBe('pass');
    } finally {
      stopServe(served);
    }
  }, 120_000);
});

const HAS_CONTAINER_ENGINE = spawnSync('docker', ['info'], { stdio: 'ignore' }).status === 0;

describe('the Docker image', () => {
  test('builds from node:20-slim, installs the packed tarball and runs the entry point script', () => {
    const dockerfile = readFileSync(join(ROOT, 'Dockerfile'), 'utf8');
    expect(dockerfile).toMatch(/^FROM node:20-slim AS pack$/m);
    expect(dockerfile).toMatch(/npm pack --ignore-scripts/);
    expect(dockerfile).toMatch(/npm install --global .*asi-conformance-\*\.tgz/);
    expect(dockerfile).toMatch(/^COPY docker\/entrypoint\.sh \/usr\/local\/bin\/asi-conformance-entrypoint$/m);
    expect(dockerfile).toMatch(/^ENTRYPOINT \["asi-conformance-entrypoint"\]$/m);
  });

  // Without a container engine (this machine has only a docker client), the entry point script runs
  // with the same arguments against the same installed tarball, as the image would run it.
  test.skipIf(HAS_CONTAINER_ENGINE)('entry point: options alone mean `run`; the CLI exit code is the exit code', async () => {
    const entrypoint = join(ROOT, 'docker', 'entrypoint.sh');
    const env = userEnv({ PATH: `${join(project, 'node_modules', '.bin')}${delimiter}${process.env['PATH'] ?? ''}` });
    const out = join(work, 'reports-entrypoint');
    const r = await exec(entrypoint, ['--suite', 'auth', '-q', '--out', out], work, env);
    expect(r.code, r.stderr).toBe(0);
    expect(readdirSync(out)).toHaveLength(1);
    const usage = await exec(entrypoint, ['--bogus'], work, env);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('run: unknown option --bogus');
    const help = await exec(entrypoint, ['--help'], work, env);
    expect(help.code).toBe(0);
    // Three processes of the installed CLI, one a run: a safety net far above a loaded machine's pace.
  }, 120_000);

  test.runIf(HAS_CONTAINER_ENGINE)('image: built and run with a short run against the embedded reference', async () => {
    const tag = `asi-conformance-selftest:${pkg.version}`;
    const build = await exec('docker', ['build', '-q', '-t', tag, '.'], ROOT, userEnv(), 600_000);
    expect(build.code, build.stderr).toBe(0);
    const r = await exec('docker', ['run', '--rm', tag, '--suite', 'auth', '-q', '--out', '/tmp/reports'], ROOT);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/CONFORMANT/);
  }, 600_000);
});
