import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import type { CalibrationResult } from '../../lib/calibration/calibrate.ts';
import { DEFECTS, VARIANTS } from '../../lib/reference/defects/index.ts';
import { runCli } from '../support/cli.ts';

/**
 * A check that cannot fail is a defect. `calibrate --all` starts the reference once per switch:
 * each defect must make every requirement it names fail, each variant must fail nothing. The list
 * runs as SHARDS processes side by side: most of a switch's time is spent waiting on the
 * reference (windows healing, streams pacing), not computing.
 */
const SHARDS = 4;
let results: Map<string, CalibrationResult>;

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'asi-calibration-'));
  const runs = await Promise.all(
    Array.from({ length: SHARDS }, (_, i) => runCli(['calibrate', '--all', '--shard', `${i + 1}/${SHARDS}`, '--json', join(dir, `shard-${i + 1}.json`), '-q'], { timeoutMs: 14 * 60_000 })),
  );
  const list = runs.flatMap((_, i) => JSON.parse(readFileSync(join(dir, `shard-${i + 1}.json`), 'utf8')) as CalibrationResult[]);
  results = new Map(list.map((r) => [`${r.kind}:${r.name}`, r]));
  for (const run of runs) expect(run.stderr).not.toContain('internal error');
}, 15 * 60_000);

describe('defect switches', () => {
  // Which requirements the switches name is checked without running them: test/catalogue/defect-coverage.test.ts.
  test.each(DEFECTS.map((d) => [d.name, d.breaks.join(', ')]))('%s makes %s fail', (name) => {
    const r = results.get(`defect:${name}`);
    // Joined, so that a failure prints what went wrong rather than an array's length.
    expect((r?.problems ?? ['not calibrated']).join('\n')).toBe('');
    expect(r?.ok).toBe(true);
  });
});

describe('variant switches', () => {
  test.each(VARIANTS.map((v) => [v.name]))('%s passes its suites', (name) => {
    const r = results.get(`variant:${name}`);
    expect((r?.problems ?? ['not calibrated']).join('\n')).toBe('');
    expect(r?.ok).toBe(true);
  });
});
