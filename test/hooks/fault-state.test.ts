import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { describe, expect, test } from 'vitest';
import {
  claimDisable,
  faultWorkingFiles,
  forgetFault,
  isStopping,
  markStopping,
  readClaim,
  readFaultState,
  recordDisable,
  writeFaultState,
} from '../../lib/hooks/fault-state.ts';

function transcript(): string {
  return join(mkdtempSync(join(tmpdir(), 'asi-fault-state-')), '.transcript.jsonl');
}

describe('the claim on a fault\'s disable', () => {
  test('goes to the first caller only; the outcome is read back by the others', () => {
    const t = transcript();
    expect(readClaim(t, 'spend_cap_reached')).toBeUndefined();
    expect(claimDisable(t, 'spend_cap_reached', 'interrupt')).toBe(true);
    expect(claimDisable(t, 'spend_cap_reached', 'drill')).toBe(false);
    expect(claimDisable(t, 'spend_cap_reached', 'interrupt')).toBe(false);
    expect(readClaim(t, 'spend_cap_reached')).toEqual({ by: 'interrupt' });
    recordDisable(t, 'spend_cap_reached', { by: 'interrupt', outcome: { ok: true, text: 'faults.spend_cap_reached.disable exited 0' } });
    expect(readClaim(t, 'spend_cap_reached')?.outcome?.ok).toBe(true);
    // Another fault is claimed on its own.
    expect(claimDisable(t, 'upstream_unavailable', 'drill')).toBe(true);
  });

  // The drill claims from vitest's worker thread, an interrupt from the main thread: threads of one
  // process, as here. They run the build (npm test builds dist/ first): a thread has no TypeScript.
  test('of twelve threads released at once, exactly one wins it', async () => {
    const module = new URL('../../dist/hooks/fault-state.js', import.meta.url).href;
    const code = `
      import { workerData, parentPort } from 'node:worker_threads';
      const { claimDisable } = await import(workerData.module);
      parentPort.postMessage('ready');
      Atomics.wait(new Int32Array(workerData.gate), 0, 0);
      parentPort.postMessage(claimDisable(workerData.t, 'limiter_store_down', 'drill'));
    `;
    for (let round = 0; round < 5; round += 1) {
      const t = transcript();
      const gate = new SharedArrayBuffer(4);
      const workers = Array.from({ length: 12 }, () => new Worker(new URL(`data:text/javascript,${encodeURIComponent(code)}`), { workerData: { module, gate, t } }));
      const said = (w: Worker, what: (m: unknown) => boolean): Promise<unknown> =>
        new Promise((resolve, reject) => {
          w.on('message', (m: unknown) => what(m) && resolve(m));
          w.once('error', reject);
        });
      const wins = workers.map((w) => said(w, (m) => typeof m === 'boolean'));
      await Promise.all(workers.map((w) => said(w, (m) => m === 'ready')));
      Atomics.store(new Int32Array(gate), 0, 1);
      Atomics.notify(new Int32Array(gate), 0);
      const claimed = await Promise.all(wins);
      await Promise.all(workers.map((w) => w.terminate()));
      expect(claimed.filter((won) => won === true)).toHaveLength(1);
      expect(readClaim(t, 'limiter_store_down')).toEqual({ by: 'drill' });
    }
  });
});

describe('the fault state and the stop mark', () => {
  test('the state is read back whole; forgetting clears the state and the claim of the last round', () => {
    const t = transcript();
    expect(readFaultState(t, 'limiter_store_down')).toBeUndefined();
    writeFaultState(t, 'limiter_store_down', { phase: 'enabling', pid: 4242 });
    expect(readFaultState(t, 'limiter_store_down')).toEqual({ phase: 'enabling', pid: 4242 });
    claimDisable(t, 'limiter_store_down', 'drill');
    forgetFault(t, 'limiter_store_down');
    expect(readFaultState(t, 'limiter_store_down')).toBeUndefined();
    expect(readClaim(t, 'limiter_store_down')).toBeUndefined();
  });

  test('every file left beside the transcript is among the working files the run removes', () => {
    const t = transcript();
    expect(isStopping(t)).toBe(false);
    markStopping(t);
    expect(isStopping(t)).toBe(true);
    for (const name of ['limiter_store_down', 'upstream_unavailable', 'spend_cap_reached'] as const) {
      writeFaultState(t, name, { phase: 'on' });
      claimDisable(t, name, 'interrupt');
      recordDisable(t, name, { by: 'interrupt', outcome: { ok: false, text: 'exited 1' } });
    }
    for (const f of faultWorkingFiles(t)) rmSync(f, { force: true });
    expect(readdirSync(join(t, '..'))).toEqual([]);
    expect(existsSync(t)).toBe(false);
  });
});
