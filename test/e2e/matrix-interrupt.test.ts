import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import type { Matrix } from '../../lib/matrix/matrix-model.ts';
import type { ReferenceFault } from '../../lib/reference/state.ts';
import { startCli } from '../support/cli.ts';
import { referenceTarget, type ReferenceTarget } from '../support/reference-target.ts';

const work = mkdtempSync(join(tmpdir(), 'asi-matrix-interrupt-'));
const targets: ReferenceTarget[] = [];
afterAll(async () => {
  for (const t of targets) await t.close();
  rmSync(work, { recursive: true, force: true });
});

async function until(condition: () => boolean, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** A vendor's server with its own token variables (PREFIX_TOKEN, ...) and a fault hook that can be made to hang. */
async function vendor(prefix: string, fault: ReferenceFault, enableTail: string): Promise<{ target: ReferenceTarget; env: Record<string, string> }> {
  const target = await referenceTarget({ tokenSecret: prefix }, (yaml) =>
    yaml.replaceAll('{ env: ASI_TOKEN', `{ env: ${prefix}_TOKEN`).replace(new RegExp(`(${fault}:\\n\\s+enable: ".*)"`), `$1${enableTail}"`),
  );
  targets.push(target);
  copyFileSync(target.profile, join(work, `${prefix.toLowerCase()}.yaml`));
  return { target, env: Object.fromEntries(Object.entries(target.env).map(([k, v]) => [k.replace(/^ASI_TOKEN/, `${prefix}_TOKEN`), v])) };
}

/**
 * Ctrl-C on a matrix reaches every run under way once (each run leads a process group of its own),
 * and each does what an interrupted run does: switches its fault hooks off, writes its reports. The
 * matrix waits for them, writes its page with what they wrote, and exits 3.
 */
test('SIGINT to a matrix is passed to every run under way: each switches its fault off and writes its reports; the rest never start', async () => {
  // Both enable hooks switch their fault on and then hang, so both runs are in a drill when the
  // signal comes, whatever else each run does first (interrupt.test.ts covers a drill under way).
  const acme = await vendor('ACME', 'spend_cap_reached', ' ; sleep 30');
  const globex = await vendor('GLOBEX', 'limiter_store_down', ' ; sleep 30');
  writeFileSync(
    join(work, 'targets.yaml'),
    [
      'targets:',
      '  - name: acme',
      '    profile: acme.yaml',
      '    suite: [conversation-faults]',
      '  - name: globex',
      '    profile: globex.yaml',
      '    suite: [ratelimit-limiter-fault]',
      '  - name: later',
      '    reference: {}',
      '    suite: [auth]',
      '',
    ].join('\n'),
  );
  const started = Date.now();
  const matrix = startCli(['matrix', join(work, 'targets.yaml'), '--out', work], { env: { ...acme.env, ...globex.env } });
  await until(() => acme.target.reference.state.faults.has('spend_cap_reached') && globex.target.reference.state.faults.has('limiter_store_down'), 40_000);
  matrix.child.kill('SIGINT');
  const r = await matrix.done;

  expect(r.code, r.stdout + r.stderr).toBe(3);
  expect(acme.target.reference.state.faults.has('spend_cap_reached')).toBe(false);
  expect(globex.target.reference.state.faults.has('limiter_store_down')).toBe(false);
  expect(r.stderr).toContain('SIGINT: passing it to 2 running targets (each stops, switches its fault hooks off and writes its reports); 1 not started');
  expect(r.stderr).not.toContain('later            started');
  expect(r.stdout).toMatch(/^interrupted by SIGINT: the targets that ran wrote their reports; the others did not start$/m);

  const dir = join(work, readdirSync(work).find((d) => d.startsWith('matrix-'))!);
  const m = JSON.parse(readFileSync(join(dir, 'matrix.json'), 'utf8')) as Matrix;
  expect(m.interrupted).toBe('SIGINT');
  expect(m.exitCode).toBe(3);
  expect(m.columns.map((c) => [c.id, c.state, c.outcome])).toEqual([
    ['acme', 'verified', 'incomplete'],
    ['globex', 'verified', 'incomplete'],
    ['later', 'not-started', undefined],
  ]);
  for (const [name, fault] of [['acme', 'spend_cap_reached'], ['globex', 'limiter_store_down']] as const) {
    const log = readFileSync(join(dir, name, 'run.log'), 'utf8');
    expect(log).toContain('SIGINT: stopping the run');
    // Once: a run leads its own process group, so the terminal's Ctrl-C does not reach it twice.
    expect(log).not.toContain('SIGINT again');
    expect(log).toContain(`switched fault ${fault} off (faults.${fault}.disable exited 0)`);
    expect(log).toMatch(/^incomplete: interrupted by SIGINT/m);
  }
  expect(Date.now() - started).toBeLessThan(60_000);
}, 90_000);
