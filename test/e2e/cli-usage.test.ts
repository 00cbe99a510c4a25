import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import type { Report } from '../../lib/report/report-model.ts';
import { runCli } from '../support/cli.ts';

const dir = mkdtempSync(join(tmpdir(), 'asi-cli-'));
function profile(name: string, text: string): string {
  const file = join(dir, name);
  writeFileSync(file, text);
  return file;
}

/** Bad input gets one precise line and exit 2 or 3: never a stack trace. */
function expectOneLine(stderr: string): void {
  const lines = stderr.trim().split('\n');
  expect(lines).toHaveLength(1);
  expect(stderr).not.toMatch(/\n\s+at /);
}

describe('output into a pipe closed early', () => {
  test('`list | head -1` ends quietly with exit 0', () => {
    const bin = new URL('../../bin/asi-conformance.js', import.meta.url).pathname;
    // pipefail: the exit code is the harness's, not head's; its stderr must stay empty (no EPIPE stack).
    const out = execFileSync('bash', ['-c', `set -o pipefail; "${process.execPath}" "${bin}" list 2>&1 | head -1 >/dev/null; echo "rc=$?"; "${process.execPath}" "${bin}" list 2>&1 >/dev/null | head -c 200`], {
      encoding: 'utf8',
    });
    expect(out.trim()).toBe('rc=0');
  });
});

describe('CLI usage errors', () => {
  test('an unknown flag names the flag and exits 2', async () => {
    const r = await runCli(['run', '--bogus']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--bogus');
    expectOneLine(r.stderr);
  });

  test.each([
    [['run', '--basurl', 'http://x/v1'], 'run: unknown option --basurl; did you mean --base-url?'],
    [['run', '--base', 'http://x/v1'], 'run: unknown option --base; did you mean --base-url or --baseline?'],
    [['serve', '--prot', '0'], 'serve: unknown option --prot; did you mean --port?'],
    [['diff', '--jsn'], 'diff: unknown option --jsn; did you mean --json?'],
    [['run', '--bogus'], "run: unknown option --bogus; see 'asi-conformance run --help'"],
    [['rnu'], 'unknown command "rnu"; did you mean run? expected one of run, serve, list, calibrate, fault, diff, verify, replay, keygen, badge, matrix, client (see --help)'],
  ])('%j is refused with the nearest name, when one is near', async (args, message) => {
    const r = await runCli(args);
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toBe(`asi-conformance: ${message}`);
  });

  // The embedded reference is the harness's own demo: a report or badge naming anything else would
  // certify what was never tested.
  test.each([
    [['run', '--label', 'Acme Agents', '--impl-version', '2.3.1'], '--label'],
    [['run', '--impl-version', '2.3.1', '--suite', 'auth'], '--impl-version'],
    [['run', '--label', 'Acme Agents', '--defect', 'auth-missing-as-invalid'], '--label'],
  ])('%j without a target is refused: the embedded reference is no implementation of the user\'s (exit 2)', async (args, flag) => {
    const out = mkdtempSync(join(tmpdir(), 'asi-label-'));
    const r = await runCli([...args, '--out', out]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`asi-conformance: run: ${flag} names the implementation under test, but with neither --base-url nor --config the run tests the embedded reference; give the target's --base-url (or --config)\n`);
    expect(readdirSync(out)).toEqual([]);
  });

  test('an unknown command exits 2', async () => {
    const r = await runCli(['certify']);
    expect(r.code).toBe(2);
    expectOneLine(r.stderr);
  });

  test('an unknown suite lists the suites there are', async () => {
    const r = await runCli(['run', '--suite', 'nope']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--suite nope: no such suite; expected one of .*auth/);
  });

  test('a bad --format names the value and the choices', async () => {
    const r = await runCli(['run', '--format', 'pdf']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('"pdf"');
  });

  test('a missing profile file exits 2', async () => {
    const r = await runCli(['run', '--config', join(dir, 'absent.yaml')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('no such file');
    expectOneLine(r.stderr);
  });

  test('invalid YAML gives the line', async () => {
    const r = await runCli(['run', '--config', profile('broken.yaml', 'base_url: [unclosed\n')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/not valid YAML at line \d+/);
  });

  test.each([
    ['an unknown top-level key', 'base_url: http://127.0.0.1:1/v1\ntokens: { primary: { env: X } }\nbase_uri: x\n', 'base_uri: unknown key'],
    ['a token without env or value', 'base_url: http://127.0.0.1:1/v1\ntokens: { primary: { envv: X } }\n', 'tokens.primary: expected { env: VARIABLE_NAME } or { value: "<token>" }'],
    ['a missing primary token', 'base_url: http://127.0.0.1:1/v1\ntokens: { secondary: { env: X } }\n', 'tokens.primary: is required but missing'],
    ['limits of the wrong type', 'base_url: http://127.0.0.1:1/v1\ntokens: { primary: { env: X } }\nlimits: { read: many }\n', 'limits.read: expected integer, got "many"'],
    ['a route without body', 'base_url: http://127.0.0.1:1/v1\ntokens: { primary: { env: X } }\nmessages: { routes: [ { path: /x } ] }\n', 'messages.routes[0].body: is required but missing'],
    ['a hook without disable', 'base_url: http://127.0.0.1:1/v1\ntokens: { primary: { env: X } }\nfaults: { spend_cap_reached: { enable: "true" } }\n', 'faults.spend_cap_reached'],
  ])('a profile with %s names the key', async (_what, text, message) => {
    const r = await runCli(['run', '--config', profile(`p${Math.random()}.yaml`, text)]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(message);
    expectOneLine(r.stderr);
  });

  test('an unset token variable names the variable', async () => {
    const r = await runCli(['run', '--base-url', 'http://127.0.0.1:9/v1'], { env: { ASI_TOKEN: '' } });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('ASI_TOKEN is set but empty');
  });

  test('an unreachable target exits 3 with one line, and writes every report saying so', async () => {
    const out = mkdtempSync(join(tmpdir(), 'asi-unreachable-'));
    const r = await runCli(['run', '--base-url', 'http://127.0.0.1:9/v1', '--out', out], { env: { ASI_TOKEN: 'asi_live_00' } });
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/unreachable: ECONNREFUSED/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    const [runDir] = readdirSync(out);
    const [reports, bundle] = r.stdout.trim().split('\n');
    expect(reports).toBe(`reports: ${join(out, runDir!)}/ (report.json, junit.xml, summary.md, report.html, transcript.har)`);
    expect(bundle).toMatch(/^bundle: .*bundle\.tar\.gz \(sha256 [0-9a-f]{16}…, unsigned\); check it offline: npx asi-conformance verify /);
    const report = JSON.parse(readFileSync(join(out, runDir!, 'report.json'), 'utf8')) as Report;
    expect(report).toMatchObject({ outcome: 'unreachable', exitCode: 3, stopped: { at: 'preflight' } });
    expect(report.stopped?.exchanges.map((e) => [e.request.url, e.error?.code])).toEqual([['http://127.0.0.1:9/v1/health', 'ECONNREFUSED']]);
    expect(readFileSync(join(out, runDir!, 'junit.xml'), 'utf8')).toMatch(/<testcase name="preflight" classname="run"><failure message="target http:\/\/127\.0\.0\.1:9\/v1 is unreachable: ECONNREFUSED[^"]*" type="unreachable">/);
  });

  test('--help teaches the commands and exit codes', async () => {
    const r = await runCli(['--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Exit codes');
    expect(r.stdout).toMatch(/^ {2}asi-conformance --version +print the version/m);
    const version = await runCli(['--version']);
    expect(version.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
    const run = await runCli(['run', '--help']);
    expect(run.stdout).toContain('--base-url URL');
  });

  test('list prints the catalogue', async () => {
    const r = await runCli(['list', '--area', 'auth']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('auth/5.3/missing-header');
  });
});

describe('a token written into a profile the wrong way', () => {
  test.each([
    ['a bare string', 'tokens: { primary: asi_live_5ec7e75ec7e75ec7e75ec7e75ec7e75e }'],
    ['a value with an unknown key beside it', 'tokens: { primary: { value: asi_live_5ec7e75ec7e75ec7e75ec7e75ec7e75e, extra: 1 } }'],
    ['a bare string for an optional role', 'tokens: { primary: { env: X }, secondary: asi_live_5ec7e75ec7e75ec7e75ec7e75ec7e75e }'],
    ['the name of the variable', 'tokens: { primary: { env: asi_live_5ec7e75ec7e75ec7e75ec7e75ec7e75e } }'],
    ['the name of an optional variable', 'tokens: { primary: { value: abc }, revoked: { env: asi_live_5ec7e75ec7e75ec7e75ec7e75ec7e75e } }'],
    ['a key under tokens', 'tokens: { primary: { env: X }, asi_live_5ec7e75ec7e75ec7e75ec7e75ec7e75e: 1 }'],
    ['a key of a token', 'tokens: { primary: { asi_live_5ec7e75ec7e75ec7e75ec7e75ec7e75e: 1 } }'],
    ['a key anywhere', 'tokens: { primary: { env: X } }\nlimits: { 5ec7e75ec7e75ec7e75ec7e75ec7e75e: 1 }'],
    ['an alias', 'tokens: { primary: *asi_live_5ec7e75ec7e75ec7e75ec7e75ec7e75e }'],
  ])('as %s is never echoed in the error', async (_what, tokens) => {
    const r = await runCli(['run', '--config', profile(`t${Math.random()}.yaml`, `base_url: http://127.0.0.1:1/v1\n${tokens}\n`)]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/tokens\.|limits\.|alias/);
    expect(r.stderr + r.stdout).not.toContain('5ec7e75e');
  });
});

/** Checked before the reference starts or the preflight sends: one line naming --out, exit 2, never a hang. */
describe('a bad --out', () => {
  const where = mkdtempSync(join(tmpdir(), 'asi-out-'));
  const file = join(where, 'a-file');
  writeFileSync(file, 'x');
  const root = process.getuid?.() === 0;

  test.each([
    ['a file', file, `is a file; expected a folder`],
    ['a path under a file', join(file, 'reports'), `cannot be made: ${file} is a file`],
    ['a device', '/dev/null', 'is not a folder; expected a folder'],
    ['a path under /proc (where a recursive mkdir never returns)', '/proc/self/asi-reports', 'is under /proc, a kernel file system; expected a folder on disk'],
    ['a folder under /sys', '/sys/kernel', 'is under /sys, a kernel file system; expected a folder on disk'],
  ])('%s', async (_what, out, problem) => {
    // No -q: a reference that started would say so on stderr.
    const r = await runCli(['run', '--out', out], { timeoutMs: 20_000 });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`asi-conformance: run: --out ${JSON.stringify(out)} ${problem}\n`);
    expect(r.stdout).toBe('');
  });

  // Node's recursive mkdir never returns under /proc, busy in a synchronous loop that no signal
  // stops: each command that writes where the user says is checked before it works.
  test.each([
    ['keygen --out', ['keygen', '--out', '/proc/self/asi-keys'], 'keygen: --out "/proc/self/asi-keys" is under /proc, a kernel file system; expected a folder on disk'],
    ['run --bundle-dir', ['run', '--bundle-dir', '/proc/self/asi-bundle', '--out', where], 'run: --bundle-dir "/proc/self/asi-bundle" is under /proc, a kernel file system; expected a folder on disk'],
    ['matrix --out', ['matrix', 'examples/targets.yaml', '--out', '/proc/self/asi-matrix'], 'matrix: --out "/proc/self/asi-matrix" is under /proc, a kernel file system; expected a folder on disk'],
    ['calibrate --json', ['calibrate', '--json', join(where, 'missing', 'c.json')], `calibrate: --json ${JSON.stringify(join(where, 'missing', 'c.json'))} cannot be written: its folder ${join(where, 'missing')} does not exist`],
    ['badge --out', ['badge', join(where, 'bundle.tar.gz'), '--out', where], `badge: --out ${JSON.stringify(where)} is a folder; expected a file name`],
  ])('%s under /proc, or where no file can be written, is one line and exit 2', async (_what, args, problem) => {
    const r = await runCli(args, { timeoutMs: 20_000 });
    expect(r.stderr).toBe(`asi-conformance: ${problem}\n`);
    expect(r.code).toBe(2);
  });

  test.each([
    ['run --config', ['run', '--config', '/dev/zero'], '/dev/zero: is a device, not a file'],
    ['verify', ['verify', '/dev/zero'], '/dev/zero: is a device, not a file'],
    ['run --ca-file', ['run', '--ca-file', '/dev/zero', '--out', where], 'run: --ca-file /dev/zero: is a device, not a file'],
  ])('a device given to %s is one line and exit 2, not a read that never ends', async (_what, args, problem) => {
    const r = await runCli(args, { timeoutMs: 20_000 });
    expect(r.stderr).toBe(`asi-conformance: ${problem}\n`);
    expect(r.code).toBe(2);
  });

  test('a folder this user cannot write (as root: run as nobody, whom permission bits do stop)', async ({ skip }) => {
    const nobody = root ? { uid: 65534, gid: 65534 } : {};
    // As nobody, the CLI runs only from a checkout nobody may read: one cloned into a folder of
    // root's alone (mktemp -d, /root) makes node exit 1 before the harness starts. That says
    // nothing of --out, so the test says why it cannot run rather than fail.
    if (root) {
      const probe = await runCli(['--version'], { ...nobody, timeoutMs: 60_000 });
      if (probe.code !== 0) skip(`user nobody cannot run the CLI from this checkout (exit ${probe.code}): clone it where others may read it to run this test`);
    }
    // The folder around it is open to everyone (a temporary folder is the owner's alone).
    chmodSync(where, 0o755);
    const locked = join(where, 'locked');
    mkdirSync(locked, { mode: 0o755 });
    if (!root) chmodSync(locked, 0o555);
    let hits = 0;
    const target = createServer((_req, res) => {
      hits += 1;
      res.end('{}');
    });
    await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
    const out = join(locked, 'reports');
    const args = ['run', '--base-url', `http://127.0.0.1:${(target.address() as AddressInfo).port}/v1`, '--out', out];
    const r = await runCli(args, { env: { ASI_TOKEN: 'asi_live_00' }, ...nobody });
    target.close();
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`asi-conformance: run: --out ${JSON.stringify(out)} cannot be written: permission denied (EACCES at ${locked})\n`);
    expect(hits).toBe(0);
    expect(readdirSync(locked)).toEqual([]);
  });
});


/** A password in base_url would be in every report, curl line and record: refused before anything is sent. */
describe('a base_url with a user name or password', () => {
  const dir = mkdtempSync(join(tmpdir(), 'asi-userinfo-'));
  const problem = "holds a user name or password (user:…@), which every report would show; give a gateway's credentials as a header from a variable (the profile's `headers`, or --header)";

  test('given as --base-url is one line, exit 2, and the password is never echoed', async () => {
    const r = await runCli(['run', '--base-url', 'http://gateway:pw-5ec7e75e@127.0.0.1:1/v1', '--out', dir], { env: { ASI_TOKEN: 'asi_live_00' } });
    expect(r.stderr).toBe(`asi-conformance: run: --base-url ${problem}\n`);
    expect(r.code).toBe(2);
  });

  test('in a profile names the key', async () => {
    const profile = join(dir, 'profile.yaml');
    writeFileSync(profile, 'base_url: https://gateway:pw-5ec7e75e@api.example.com/v1\ntokens: { primary: { env: ASI_TOKEN } }\n');
    const r = await runCli(['run', '--config', profile, '--out', dir]);
    expect(r.stderr).toBe(`asi-conformance: ${profile}: base_url: ${problem}\n`);
    expect(r.code).toBe(2);
  });
});
