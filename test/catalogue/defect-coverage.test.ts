import { describe, expect, test } from 'vitest';
import { catalogue, requirementById } from '../../lib/catalogue/index.ts';
import { DEFECTS } from '../../lib/reference/defects/index.ts';

/**
 * INFO requirements that only observe: their checks say what the target does (pass, warn,
 * inconclusive) where the spec leaves the choice open, and never fail, so no defect can fail them.
 */
const OBSERVE_ONLY = ['conversation/6/framing', 'conversation/4.3/job-outcome', 'conversation/7/fault-code', 'conversation/7/fault-recovery', 'ratelimit/8.1/refused-consumes-points', 'ledger/4.1/open-query-forms'];

/** What the calibration (test/e2e/calibration.test.ts) then proves, switch by switch, against the reference. */
describe('defect switches', () => {
  test('name only catalogue requirements', () => {
    for (const d of DEFECTS) {
      expect(d.breaks.length, d.name).toBeGreaterThan(0);
      for (const id of d.breaks) expect(requirementById(id)?.level, `${d.name} → ${id}`).toMatch(/^(MUST|SHOULD|INFO)$/);
    }
  });

  test('cover every requirement whose check can fail: a check no defect can fail is itself a defect', () => {
    const broken = new Set(DEFECTS.flatMap((d) => d.breaks));
    const unproven = catalogue.filter((r) => !broken.has(r.id) && !OBSERVE_ONLY.includes(r.id)).map((r) => r.id);
    expect(unproven).toEqual([]);
  });

  test('the observe-only list holds INFO requirements no defect names, and nothing else', () => {
    const broken = new Set(DEFECTS.flatMap((d) => d.breaks));
    for (const id of OBSERVE_ONLY) {
      expect(requirementById(id)?.level, id).toBe('INFO');
      expect(broken.has(id), id).toBe(false);
    }
  });
});
