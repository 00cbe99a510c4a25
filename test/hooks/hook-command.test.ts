import { describe, expect, test } from 'vitest';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hookOutcome, runDisableHook, runHook, stopHook } from '../../lib/hooks/hook-command.ts';
import { groupAlive } from '../support/interrupted-run.ts';

/** True once no process of the group is left; an orphan of it is reaped by init, which may take a moment. */
async function groupEnds(pid: number): Promise<boolean> {
  const end = Date.now() + 2_000;
  while (groupAlive(pid) && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
  return !groupAlive(pid);
}

describe('runHook', () => {
  test('a command that exits 0 says so, and nothing more', async () => {
    const run = await runHook('echo switched; echo noted >&2');
    expect(run.exitCode).toBe(0);
    expect(hookOutcome(run)).toBe('exited 0');
  });

  test('a failing node shows the whole end of its stderr on one line, the loader frame and the real error both', async () => {
    const run = await runHook(`'${process.execPath}' /nonexistent/bin/asi-conformance.js fault spend_cap_reached on`);
    const text = hookOutcome(run);
    expect(run.exitCode).toBe(1);
    // The CommonJS loader's frame, or the ES module resolver's when NODE_OPTIONS loads a module first (--import).
    expect(text).toMatch(/^exited 1; stderr: node:internal\/modules\/(?:cjs\/loader|esm\/resolve)/);
    expect(text).toMatch(/Error(?: \[ERR_MODULE_NOT_FOUND\])?: Cannot find module '\/nonexistent\/bin\/asi-conformance\.js'/);
    expect(text).toContain(`Node.js ${process.version}`);
    expect(text).not.toContain('\n');
  });

  test('a long stderr is cut at its start, its last words kept', async () => {
    const run = await runHook(`i=0; while [ $i -lt 500 ]; do echo "line $i of noise" >&2; i=$((i+1)); done; echo 'the real reason' >&2; exit 4`);
    const text = hookOutcome(run);
    expect(text).toMatch(/^exited 4; stderr: …/);
    expect(text).toMatch(/the real reason$/);
    // 2000 characters of stderr, each line break shown as ` | `.
    expect(text.length).toBeLessThan(3000);
  });

  test('stdout stands in when stderr is empty; silence is said', async () => {
    expect(hookOutcome(await runHook('echo "admin answered 500"; exit 2'))).toBe('exited 2; stdout: admin answered 500');
    expect(hookOutcome(await runHook('exit 3'))).toBe('exited 3, saying nothing');
  });

  test('runs with the environment it is given', async () => {
    const run = await runHook('echo "$BASE_URL"', { env: { ...process.env, BASE_URL: 'http://127.0.0.1:9/v1' } });
    expect(run.stdout.trim()).toBe('http://127.0.0.1:9/v1');
  });

  test('a command that leaves a process running in the background ends when its shell exits, that process left alone', async () => {
    let pid = 0;
    // The background sleep keeps the hook's output open: a fault injector started with `&` does.
    const run = await runHook('echo enabling; (sleep 30 &); echo enabled', { timeoutMs: 60_000, onStart: (p) => (pid = p) });
    try {
      expect(run.problem).toBeUndefined();
      expect(run.exitCode).toBe(0);
      expect(run.stdout).toBe('enabling\nenabled\n');
      expect(groupAlive(pid)).toBe(true);
    } finally {
      process.kill(-pid, 'SIGKILL');
    }
    expect(await groupEnds(pid)).toBe(true);
  });

  test('a command past its time is stopped with its whole process group', async () => {
    let pid = 0;
    const run = await runHook('sleep 30 & sleep 30; wait', { timeoutMs: 300, onStart: (p) => (pid = p) });
    expect(run.exitCode).toBeNull();
    expect(hookOutcome(run)).toMatch(/^stopped after 0.3 s/);
    expect(await groupEnds(pid)).toBe(true);
  });
});

describe('stopHook', () => {
  test('waits until the group is gone, and kills a group that ignores SIGTERM', async () => {
    let pid = 0;
    const running = runHook(`trap '' TERM; sleep 30`, { onStart: (p) => (pid = p) });
    await new Promise((r) => setTimeout(r, 200));
    const started = Date.now();
    await stopHook(pid);
    await running;
    expect(await groupEnds(pid)).toBe(true);
    expect(Date.now() - started).toBeGreaterThanOrEqual(2_900);
  });
});

describe('runDisableHook', () => {
  // A group signal that reaches a hook between its fork and its setsid kills it before its command
  // runs; here the command signals itself, the first time only.
  test('a disable ended by a signal the harness never sent runs once more', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'asi-disable-'));
    const command = `if [ ! -f '${dir}/signalled' ]; then : > '${dir}/signalled'; kill -INT $$; fi; echo off >> '${dir}/calls'`;
    const run = await runDisableHook(command);
    expect(hookOutcome(run)).toBe('exited 0');
    expect(readFileSync(join(dir, 'calls'), 'utf8')).toBe('off\n');
  });

  test('a disable that fails, or runs out of time, is not run again', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'asi-disable-'));
    expect((await runDisableHook(`echo x >> '${dir}/calls'; exit 3`)).exitCode).toBe(3);
    const slow = await runDisableHook(`echo y >> '${dir}/calls'; sleep 5`, { timeoutMs: 200 });
    expect(slow.problem).toBe('stopped after 0.2 s');
    expect(readFileSync(join(dir, 'calls'), 'utf8')).toBe('x\ny\n');
  });
});
