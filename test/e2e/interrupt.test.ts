import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import type { ReferenceFault } from '../../lib/reference/state.ts';
import type { Report } from '../../lib/report/report-model.ts';
import { CLI_NODE_FLAGS, startCli } from '../support/cli.ts';
import { aftermath, BIN, FAULT, launch, ROOT, RUN_FILES, scene, until } from '../support/interrupted-run.ts';
import { referenceTarget, type ReferenceTarget } from '../support/reference-target.ts';

const targets: ReferenceTarget[] = [];
afterAll(async () => {
  for (const t of targets) await t.close();
});

/** An interrupted run never leaves a vendor's staging stack with a fault on. */
describe('an interrupted run', () => {
  test.each([
    ['SIGINT', 'while the enable hook still runs', 'limiter_store_down', 'ratelimit-limiter-fault', ' ; sleep 30'],
    ['SIGTERM', 'while the drill runs with the fault on', 'spend_cap_reached', 'conversation-faults', ''],
  ] as const)('%s %s switches the fault off first, says so and exits 3', async (signal, _when, fault: ReferenceFault, suite, enableTail) => {
    const t = await referenceTarget({}, (yaml) => yaml.replace(new RegExp(`(${fault}:\\n\\s+enable: ".*)"`), `$1${enableTail}"`));
    targets.push(t);
    const started = Date.now();
    const run = startCli(['run', '--config', t.profile, '--suite', suite, '-q', '--out', mkdtempSync(join(tmpdir(), 'asi-interrupt-'))], { env: t.env });
    await until(() => t.reference.state.faults.has(fault), 20_000, 'the fault switched on');
    run.child.kill(signal);
    const r = await run.done;
    expect(r.code, r.stdout + r.stderr).toBe(3);
    expect(t.reference.state.faults.has(fault)).toBe(false);
    expect(r.stderr).toContain(`${signal}: stopping the run`);
    // The signal may come as the drill itself switches the fault off (a loaded machine delivers it
    // late): either way the fault is off before the run ends, and the run says who switched it.
    expect(r.stderr).toMatch(new RegExp(`(switched fault ${fault} off|fault ${fault} was switched off by its drill) \\(faults\\.${fault}\\.disable exited 0\\)`));
    expect(r.stdout).toMatch(new RegExp(`^incomplete: interrupted by ${signal}`, 'm'));
    expect(Date.now() - started).toBeLessThan(25_000);
  });
});

/**
 * Every way a signal reaches the harness run directly: the fault's disable command runs exactly
 * once (the hook notes each call), the reports of an interrupted run are written, no working file
 * is left, and the exit code is 3. The disable takes a second, so later signals land while it runs.
 */
describe('a signal to the harness', () => {
  test.each([
    ['SIGINT to the process', ['SIGINT'], 'process'],
    ['SIGTERM to the process', ['SIGTERM'], 'process'],
    ['SIGTERM to its process group (a shell job, a CI cancel)', ['SIGTERM'], 'group'],
    ['SIGINT then SIGTERM 50 ms apart', ['SIGINT', 'SIGTERM'], 'process'],
    ['Ctrl-C twice, 50 ms apart (SIGINT to the group)', ['SIGINT', 'SIGINT'], 'group'],
  ] as const)('%s: the fault off once, the reports written, no working file left, exit 3', async (_what, signals, to) => {
    const s = await scene();
    targets.push(s.target);
    const run = launch(process.execPath, [...CLI_NODE_FLAGS, BIN, 'run', ...s.args], { cwd: ROOT, env: { ...process.env, ...s.target.env } });
    await until(() => s.target.reference.state.faults.has(FAULT), 30_000, 'the fault switched on');
    run.signal([...signals], to);
    const r = await run.ended;
    const { calls, report, runFiles } = aftermath(s);
    expect(r.code, r.stdout + r.stderr).toBe(3);
    expect(s.target.reference.state.faults.has(FAULT), r.stderr).toBe(false);
    expect(calls).toEqual(['enable', 'disable']);
    expect(report.outcome).toBe('incomplete');
    expect(report.exitCode).toBe(3);
    expect(report.cutShort).toBe(`interrupted by ${signals[0]}`);
    expect(runFiles.sort()).toEqual(RUN_FILES);
    expect(r.stdout).toMatch(new RegExp(`^incomplete: interrupted by ${signals[0]}`, 'm'));
    if (signals.length === 2) expect(r.stderr).toContain(`${signals[1]} again: the run is already stopping`);
    // Progress says it once per test, in the run's words.
    expect(r.stderr).not.toContain('aborted by the user');
  });

  test('a disable that prints the token it inherited and fails: what it said is shown with the token as its variable', async () => {
    const s = await scene({ disableLeaksToken: true });
    targets.push(s.target);
    const run = launch(process.execPath, [...CLI_NODE_FLAGS, BIN, 'run', ...s.args], { cwd: ROOT, env: { ...process.env, ...s.target.env } });
    await until(() => s.target.reference.state.faults.has(FAULT), 30_000, 'the fault switched on');
    run.signal(['SIGINT'], 'process');
    const r = await run.ended;
    expect(r.code, r.stdout + r.stderr).toBe(3);
    expect(r.stderr).toContain(`could not switch fault ${FAULT} off: faults.${FAULT}.disable exited 1; stderr: token $ASI_TOKEN`);
    const { runFiles } = aftermath(s);
    expect(runFiles.sort()).toEqual(RUN_FILES);
    for (const token of Object.values(s.target.env)) expect(r.stdout + r.stderr).not.toContain(token);
  });
});

describe('a signal while the drill itself switches the fault off', () => {
  test('the run waits for that disable, runs none of its own, says so, writes its reports and exits 3', async () => {
    const s = await scene({ disableSeconds: 2 });
    targets.push(s.target);
    const run = launch(process.execPath, [...CLI_NODE_FLAGS, BIN, 'run', ...s.args], { cwd: ROOT, env: { ...process.env, ...s.target.env } });
    await until(() => readFileSync(s.calls, 'utf8').includes('disable'), 30_000, 'the drill switching the fault off');
    run.signal(['SIGINT'], 'process');
    const r = await run.ended;
    const { calls, report } = aftermath(s);
    expect(r.code, r.stdout + r.stderr).toBe(3);
    expect(calls).toEqual(['enable', 'disable']);
    expect(s.target.reference.state.faults.has(FAULT)).toBe(false);
    expect(r.stderr).toContain(`fault ${FAULT} was switched off by its drill (faults.${FAULT}.disable exited 0)`);
    expect(report.cutShort).toBe('interrupted by SIGINT');
  });
});

describe('a signal before the suites start', () => {
  test('SIGINT while vitest starts (the embedded reference: no preflight): no suite runs, the reports are written, exit 3', async () => {
    const out = mkdtempSync(join(tmpdir(), 'asi-interrupt-'));
    const run = launch(process.execPath, [...CLI_NODE_FLAGS, BIN, 'run', '--suite', 'auth', '--out', out], { cwd: ROOT, env: process.env });
    let stderr = '';
    run.child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    await until(() => stderr.includes('certifying'), 30_000, 'the run starting');
    run.signal(['SIGINT'], 'process');
    const r = await run.ended;
    expect(r.code, r.stdout + r.stderr).toBe(3);
    const [dir] = readdirSync(out);
    const report = JSON.parse(readFileSync(join(out, dir!, 'report.json'), 'utf8')) as Report;
    expect(report.cutShort).toBe('interrupted by SIGINT');
    // vitest forgets a cancel that comes before its run starts: the run must not go on regardless.
    expect(report.counts.pass + report.counts.fail).toBe(0);
    expect(readdirSync(join(out, dir!)).sort()).toEqual(RUN_FILES);
  });
});

/** /health answers, /me never does: the preflight waits on it when the signal comes. */
async function meNeverAnswered(): Promise<{ target: Server; baseUrl: string; meAsked: () => boolean }> {
  let asked = false;
  const target = createServer((req, res) => {
    if (req.url === '/v1/health') return void res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok"}');
    asked = true;
  });
  await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
  return { target, baseUrl: `http://127.0.0.1:${(target.address() as AddressInfo).port}/v1`, meAsked: () => asked };
}

describe('a run interrupted at the preflight', () => {
  test('stops the exchange under way at once, writes every report with the exchanges so far, and exits 3', async () => {
    const { target, baseUrl, meAsked } = await meNeverAnswered();
    const out = mkdtempSync(join(tmpdir(), 'asi-interrupt-preflight-'));
    const run = startCli(['run', '--base-url', baseUrl, '-q', '--out', out], { env: { ASI_TOKEN: 'asi_live_00' } });
    await until(meAsked, 10_000, 'the preflight asking GET /me');
    const signalled = Date.now();
    run.child.kill('SIGINT');
    const r = await run.done;
    target.closeAllConnections();
    target.close();
    expect(r.code, r.stdout + r.stderr).toBe(3);
    expect(Date.now() - signalled).toBeLessThan(5_000);
    expect(r.stderr).toContain('SIGINT: stopping the run at the preflight');
    expect(r.stdout).toMatch(/^incomplete: interrupted by SIGINT during the preflight$/m);
    const dir = join(out, readdirSync(out)[0]!);
    expect(r.stdout).toContain(`reports: ${dir}/ (report.json, junit.xml, summary.md, report.html, transcript.har)`);
    expect(readdirSync(dir).sort()).toEqual(['bundle.tar.gz', 'junit.xml', 'report.html', 'report.json', 'summary.md', 'transcript.har']);
    const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as Report;
    expect(report).toMatchObject({ outcome: 'incomplete', exitCode: 3, cutShort: 'interrupted by SIGINT during the preflight', stopped: { at: 'preflight' } });
    expect(report.stopped?.exchanges.map((e) => [e.request.url, e.response?.status ?? e.error?.code])).toEqual([
      [`${baseUrl}/health`, 200],
      [`${baseUrl}/me`, 'UND_ERR_DESTROYED'],
    ]);
    expect(readFileSync(join(dir, 'junit.xml'), 'utf8')).toContain('<failure message="interrupted by SIGINT during the preflight" type="interrupted">');
  });

  test('Ctrl-C twice, 50 ms apart, at the preflight: the second is said, the reports are written all the same, exit 3', async () => {
    const { target, baseUrl, meAsked } = await meNeverAnswered();
    const out = mkdtempSync(join(tmpdir(), 'asi-interrupt-preflight-'));
    const run = launch(process.execPath, [...CLI_NODE_FLAGS, BIN, 'run', '--base-url', baseUrl, '-q', '--out', out], { cwd: ROOT, env: { ...process.env, ASI_TOKEN: 'asi_live_00' } });
    await until(meAsked, 10_000, 'the preflight asking GET /me');
    run.signal(['SIGINT', 'SIGINT'], 'group');
    const r = await run.ended;
    target.closeAllConnections();
    target.close();
    expect(r.code, r.stdout + r.stderr).toBe(3);
    expect(r.stderr).toContain('SIGINT again: the run is already stopping');
    const dir = join(out, readdirSync(out)[0]!);
    expect(readdirSync(dir).sort()).toEqual(RUN_FILES);
  });
});

