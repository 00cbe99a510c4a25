import { afterAll, describe, expect, test } from 'vitest';
import { aftermath, FAULT, launch, linkedProject, ROOT, RUN_FILES, scene, until, userEnv, type Ended, type Scene } from '../support/interrupted-run.ts';

/**
 * The documented wrappers, as npm 11 runs them: `npm start` runs `exec node bin/asi-conformance.js run`
 * (the shell replaced: npm's child is the harness), `npx asi-conformance` runs `/bin/sh -c
 * asi-conformance` (a shell npm does not let us replace). Measured on this machine:
 *
 * - npm forwards SIGINT and SIGTERM to its child and waits for it, then exits with the child's
 *   code, or re-raises the signal the child died of.
 * - under npx the child is /bin/sh (dash). SIGINT: dash waits for the harness, then dies of SIGINT,
 *   and npx with it: 130 once the harness has finished. SIGTERM: dash dies at once, npx returns 143
 *   within milliseconds, and the harness goes on orphaned: with the signal when it went to the
 *   process group, without any when it went to npx alone (then it sees its parent gone).
 *
 * Each test asserts, once every process of the group has ended: the fault's disable ran exactly
 * once, the fault is off, the reports of the interrupted run exist, no working file is left.
 */

const scenes: Scene[] = [];
afterAll(async () => {
  for (const s of scenes) await s.target.close();
});

/** Runs the wrapped command against a fresh scene and sends the signal once the fault is on. */
async function interrupted(wrapper: (s: Scene) => [string, string[], string], signal: NodeJS.Signals, to: 'process' | 'group'): Promise<{ s: Scene; r: Ended }> {
  const s = await scene();
  scenes.push(s);
  const [command, args, cwd] = wrapper(s);
  const run = launch(command, args, { cwd, env: userEnv(s.target.env) });
  await until(() => s.target.reference.state.faults.has(FAULT), 30_000, 'the fault switched on');
  run.signal([signal], to);
  return { s, r: await run.ended };
}

// --ignore-scripts skips prestart's build (the tests run on the build npm test made), not start itself.
const npmStart = (s: Scene): [string, string[], string] => ['npm', ['start', '--ignore-scripts', '--', ...s.args], ROOT];

function expectCleanedUp(s: Scene, cause: string, output: string): void {
  const { calls, report, runFiles } = aftermath(s);
  expect(s.target.reference.state.faults.has(FAULT), output).toBe(false);
  expect(calls).toEqual(['enable', 'disable']);
  expect(report.outcome).toBe('incomplete');
  expect(report.exitCode).toBe(3);
  expect(report.cutShort).toBe(`interrupted by ${cause}`);
  expect(runFiles.sort()).toEqual(RUN_FILES);
}

describe('npm start (exec: npm forwards the signal and waits)', () => {
  test.each([
    ['SIGINT to npm alone', 'SIGINT', 'process'],
    ['Ctrl-C: SIGINT to the process group', 'SIGINT', 'group'],
    ['SIGTERM to npm alone', 'SIGTERM', 'process'],
  ] as const)('%s: npm returns the harness\'s 3 after its cleanup', async (_what, signal, to) => {
    const { s, r } = await interrupted(npmStart, signal, to);
    expect(r.code, r.stdout + r.stderr).toBe(3);
    expect(r.groupOutlivedIt).toBe(false);
    expectCleanedUp(s, signal, r.stdout + r.stderr);
  });
});

describe('npx asi-conformance (npm exec runs it under /bin/sh)', () => {
  const project = linkedProject();
  const npx = (s: Scene): [string, string[], string] => ['npx', ['--no-install', 'asi-conformance', 'run', ...s.args], project];

  test('Ctrl-C (SIGINT to the process group): npx returns 130 after the harness has finished its cleanup', async () => {
    const { s, r } = await interrupted(npx, 'SIGINT', 'group');
    expect(r.code === 130 || r.signal === 'SIGINT', `npx ended with ${r.code ?? r.signal}\n${r.stderr}`).toBe(true);
    expect(r.groupOutlivedIt).toBe(false);
    expectCleanedUp(s, 'SIGINT', r.stdout + r.stderr);
  });

  test.each([
    ['SIGTERM to the process group', 'group', 'SIGTERM'],
    ['SIGTERM to npx alone', 'process', 'the end of npm or npx, which started the run'],
  ] as const)('%s: npx ends at once; the orphaned harness still switches the fault off once and writes its reports', async (_what, to, cause) => {
    const { s, r } = await interrupted(npx, 'SIGTERM', to);
    // npx dies of the signal it re-raises: 143 to a shell.
    expect(r.signal === 'SIGTERM' || r.code === 143, `npx ended with ${r.code ?? r.signal}\n${r.stderr}`).toBe(true);
    expect(r.groupOutlivedIt).toBe(true);
    expectCleanedUp(s, cause, r.stdout + r.stderr);
    expect(r.stdout).toContain(`incomplete: interrupted by ${cause}`);
  });
});

