import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import type { CalibrationResult } from '../../lib/calibration/calibrate.ts';
import { DEFECTS, VARIANTS } from '../../lib/reference/defects/index.ts';
import { catalogue, requirementById } from '../../lib/catalogue/index.ts';
import { runCli } from '../support/cli.ts';

/**
 * A check that cannot fail is a defect. One `calibrate --all` run starts the reference once per
 * switch: each defect must make every requirement it names fail, each variant must fail nothing.
 */
let results: Map<string, CalibrationResult>;

beforeAll(async () => {
  const file = join(mkdtempSync(join(tmpdir(), 'asi-calibration-')), 'calibration.json');
  const run = await runCli(['calibrate', '--all', '--json', file, '-q'], { timeoutMs: 14 * 60_000 });
  const list = JSON.parse(readFileSync(file, 'utf8')) as CalibrationResult[];
  results = new Map(list.map((r) => [`${r.kind}:${r.name}`, r]));
  expect(run.stderr).not.toContain('internal error');
}, 15 * 60_000);

describe('defect switches', () => {
  test('name only catalogue requirements', () => {
    for (const d of DEFECTS) {
      expect(d.breaks.length, d.name).toBeGreaterThan(0);
      for (const id of d.breaks) expect(requirementById(id)?.level, `${d.name} → ${id}`).toMatch(/^(MUST|SHOULD|INFO)$/);
    }
  });

  test('cover every MUST and SHOULD requirement: a check no defect can fail is itself a defect', () => {
    const broken = new Set(DEFECTS.flatMap((d) => d.breaks));
    const unproven = catalogue.filter((r) => r.level !== 'INFO' && !broken.has(r.id)).map((r) => r.id);
    expect(unproven).toEqual([]);
  });

  test.each(DEFECTS.map((d) => [d.name, d.breaks.join(', ')]))('%s makes %s fail', (name) => {
    const r = results.get(`defect:${name}`);
    expect(r?.problems ?? ['not calibrated']).toEqual([]);
    expect(r?.ok).toBe(true);
  });
});

describe('variant switches', () => {
  test.each(VARIANTS.map((v) => [v.name]))('%s passes its suites', (name) => {
    const r = results.get(`variant:${name}`);
    expect(r?.problems ?? ['not calibrated']).toEqual([]);
    expect(r?.ok).toBe(true);
  });
});
