import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import type { ReferenceFault } from '../../lib/reference/state.ts';
import type { Report } from '../../lib/report/report-model.ts';
import { startCli } from '../support/cli.ts';
import { referenceTarget, type ReferenceTarget } from '../support/reference-target.ts';

const targets: ReferenceTarget[] = [];
afterAll(async () => {
  for (const t of targets) await t.close();
});

async function until(condition: () => boolean, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
}

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
    await until(() => t.reference.state.faults.has(fault), 20_000);
    run.child.kill(signal);
    const r = await run.done;
    expect(r.code, r.stdout + r.stderr).toBe(3);
    expect(t.reference.state.faults.has(fault)).toBe(false);
    expect(r.stderr).toContain(`${signal}: stopping the run`);
    expect(r.stderr).toContain(`switched fault ${fault} off (faults.${fault}.disable exited 0)`);
    expect(r.stdout).toMatch(new RegExp(`^incomplete: interrupted by ${signal}`, 'm'));
    expect(Date.now() - started).toBeLessThan(25_000);
  });
});

describe('a run interrupted at the preflight', () => {
  test('stops the exchange under way at once, writes every report with the exchanges so far, and exits 3', async () => {
    // /health answers, /me never does: the preflight waits on it when the signal comes.
    let meAsked = false;
    const target = createServer((req, res) => {
      if (req.url === '/v1/health') return void res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok"}');
      meAsked = true;
    });
    await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
    const baseUrl = `http://127.0.0.1:${(target.address() as AddressInfo).port}/v1`;
    const out = mkdtempSync(join(tmpdir(), 'asi-interrupt-preflight-'));
    const run = startCli(['run', '--base-url', baseUrl, '-q', '--out', out], { env: { ASI_TOKEN: 'asi_live_00' } });
    await until(() => meAsked, 10_000);
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
    expect(readdirSync(dir).sort()).toEqual(['junit.xml', 'report.html', 'report.json', 'summary.md', 'transcript.har']);
    const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as Report;
    expect(report).toMatchObject({ outcome: 'incomplete', exitCode: 3, cutShort: 'interrupted by SIGINT during the preflight', stopped: { at: 'preflight' } });
    expect(report.stopped?.exchanges.map((e) => [e.request.url, e.response?.status ?? e.error?.code])).toEqual([
      [`${baseUrl}/health`, 200],
      [`${baseUrl}/me`, 'UND_ERR_DESTROYED'],
    ]);
    expect(readFileSync(join(dir, 'junit.xml'), 'utf8')).toContain('<failure message="interrupted by SIGINT during the preflight" type="interrupted">');
  });
});

