import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Report } from '../../lib/report/report-model.ts';
import { curlOf } from '../../lib/http/curl.ts';
import { BIN, ROOT, runCli } from '../support/cli.ts';
import { serveStandalone, stopServe, type Served } from '../support/standalone-serve.ts';

let served: Served | undefined;
let baseUrl = '';
let env: Record<string, string> = {};

/** Starts `asi-conformance serve --defect ...` as a user would and reads what it prints. */
beforeAll(async () => {
  served = await serveStandalone(process.execPath, [BIN, 'serve', '--port', '0', '--defect', 'auth-missing-as-invalid'], { cwd: ROOT });
  ({ baseUrl, tokens: env } = served);
});

afterAll(() => stopServe(served));

describe('a standalone reference with a defect switch', () => {
  test('fails the named requirement, with a curl line that reproduces it and no token anywhere', async () => {
    const out = mkdtempSync(join(tmpdir(), 'asi-standalone-'));
    const profile = join(out, 'profile.yaml');
    writeFileSync(
      profile,
      readFileSync(join(ROOT, 'config', 'reference.yaml'), 'utf8').replace('http://127.0.0.1:8787/v1', baseUrl),
    );
    const r = await runCli(['run', '--config', profile, '--suite', 'auth', '--out', out, '-q'], { env });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('× auth/5.3/missing-header');
    const runDir = readdirSync(out).find((f) => f !== 'profile.yaml')!;
    const report = JSON.parse(readFileSync(join(out, runDir, 'report.json'), 'utf8')) as Report;
    const result = report.results.find((x) => x.requirement.id === 'auth/5.3/missing-header')!;
    expect(result.verdict).toBe('fail');
    const failing = result.findings.find((f) => f.verdict === 'fail')!;
    const curl = curlOf(failing.exchanges[0]!);
    expect(curl).toMatch(/^curl /);
    // The reproduction shows the same wrong code when run with the shell's tokens.
    const reproduced = execFileSync('/bin/sh', ['-c', curl], { env: { ...process.env, ...env }, encoding: 'utf8' });
    expect(reproduced).toMatch(/^HTTP\/1\.1 401/);
    expect(reproduced).toContain('auth.token_invalid');
    for (const f of readdirSync(join(out, runDir))) {
      const text = readFileSync(join(out, runDir, f), 'utf8');
      for (const token of Object.values(env)) expect(text, f).not.toContain(token);
    }
    expect(r.stdout + r.stderr).not.toContain(env['ASI_TOKEN']!);
  });
});

describe('serve --print-env', () => {
  test('prints the export lines of the running server without binding its port (it is taken)', async () => {
    const port = new URL(baseUrl).port;
    const r = await runCli(['serve', '--port', port, '--print-env']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.trim().split('\n')).toEqual(Object.entries(env).map(([name, value]) => `export ${name}=${value}`));
  });
});
