import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Report } from '../../lib/report/report-model.ts';
import { BIN, ROOT, runCli } from '../support/cli.ts';
import { serveStandalone, stopServe, type Served } from '../support/standalone-serve.ts';

/** A standalone reference as `serve --port 0` starts it, and what it prints. */
let served: Served | undefined;
let baseUrl = '';
let tokens: Record<string, string> = {};

beforeAll(async () => {
  served = await serveStandalone(process.execPath, [BIN, 'serve', '--port', '0'], { cwd: ROOT });
  ({ baseUrl, tokens } = served);
});

afterAll(() => stopServe(served));

function reportIn(out: string): Report {
  const [run] = readdirSync(out).filter((f) => f !== 'profile.yaml');
  return JSON.parse(readFileSync(join(out, run!, 'report.json'), 'utf8')) as Report;
}

function shell(command: string, env: NodeJS.ProcessEnv): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn('/bin/sh', ['-c', command], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('serve --port 0', () => {
  test('prints a run command that works: its fault drills reach this server, whatever BASE_URL the shell holds', async () => {
    const then = served!.then;
    expect(then).toBe(`npx asi-conformance run --config config/reference.yaml --base-url ${baseUrl}`);
    const out = mkdtempSync(join(tmpdir(), 'asi-serve-'));
    // The hooks take the run's base_url, never a variable of the same name in the environment.
    const r = await shell(`${then} --suite conversation-faults -q --out ${out}`, { ...tokens, BASE_URL: 'http://127.0.0.1:9/v1' });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const report = reportIn(out);
    for (const id of ['conversation/7/upstream-503', 'conversation/8.2/spend-cap-refused', 'conversation/7/fault-recovery']) {
      expect(report.results.find((x) => x.requirement.id === id)?.verdict, id).toBe('pass');
    }
  });
});

describe('a profile whose hooks are not the target\'s', () => {
  function profileWith(hooks: (state: 'on' | 'off') => string): string {
    const dir = mkdtempSync(join(tmpdir(), 'asi-hooks-'));
    const yaml = readFileSync(join(ROOT, 'config', 'reference.yaml'), 'utf8').replace(
      /^(\s+)(enable|disable): .*$/gm,
      (_m, indent: string, which: string) => `${indent}${which}: ${JSON.stringify(hooks(which === 'enable' ? 'on' : 'off'))}`,
    );
    writeFileSync(join(dir, 'profile.yaml'), yaml);
    return join(dir, 'profile.yaml');
  }

  test('hooks still pointing at the port the profile was written for are named by the preflight', async () => {
    const profile = profileWith((state) => `asi-conformance fault spend_cap_reached ${state} --admin http://127.0.0.1:8787/_admin`);
    const out = mkdtempSync(join(tmpdir(), 'asi-hooks-'));
    const r = await runCli(['run', '--config', profile, '--base-url', baseUrl, '--only', 'auth/5.3/missing-header', '--out', out], { env: tokens });
    expect(r.code, r.stderr).toBe(0);
    const origin = new URL(baseUrl).origin;
    expect(r.stderr).toContain(
      `preflight: note: faults.limiter_store_down.enable, faults.limiter_store_down.disable, faults.upstream_unavailable.enable, faults.upstream_unavailable.disable, faults.spend_cap_reached.enable, faults.spend_cap_reached.disable name http://127.0.0.1:8787, not the target's ${origin}`,
    );
  });

  test('a hook that fails shows the end of its stderr, not only its first line', async () => {
    // The old sample hooks, run from a folder without bin/: the error is the loader's, lines down.
    const profile = profileWith((state) => `node bin/asi-conformance.js fault upstream_unavailable ${state} --base-url "\${BASE_URL}"`);
    const out = mkdtempSync(join(tmpdir(), 'asi-hooks-'));
    const r = await runCli(['run', '--config', profile, '--base-url', baseUrl, '--only', 'conversation/7/upstream-503', '-q', '--out', out], { env: tokens, cwd: out });
    expect(r.code, r.stderr).toBe(3);
    const result = reportIn(out).results.find((x) => x.requirement.id === 'conversation/7/upstream-503')!;
    expect(result.verdict).toBe('inconclusive');
    expect(result.reason).toMatch(/faults\.upstream_unavailable\.enable exited 1; stderr: node:internal\/modules\/(?:cjs\/loader|esm\/resolve).* \| Error(?: \[ERR_MODULE_NOT_FOUND\])?: Cannot find module '[^']*bin\/asi-conformance\.js'.* \| Node\.js v\d+.*; then faults\.upstream_unavailable\.disable exited 1/);
    expect(r.stdout).toMatch(/Error(?: \[ERR_MODULE_NOT_FOUND\])?: Cannot find module/);
  });
});
