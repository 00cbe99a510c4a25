import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import type { ReferenceFault } from '../../lib/reference/state.ts';
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
