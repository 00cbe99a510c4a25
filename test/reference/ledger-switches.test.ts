import { describe, expect, test } from 'vitest';
import { ledgerDefects, ledgerVariants } from '../../lib/reference/defects/ledger.ts';
import { ledgerBehaviour } from '../../lib/reference/ledger-behaviour.ts';
import { ReferenceState } from '../../lib/reference/state.ts';
import { requirementById } from '../../lib/catalogue/index.ts';

const baseline = ledgerBehaviour(new ReferenceState({}));

describe('ledger switches', () => {
  test.each([...ledgerDefects.map((d) => ['defect', d.name] as const), ...ledgerVariants.map((v) => ['variant', v.name] as const)])('%s %s changes the ledger', (kind, name) => {
    const state = new ReferenceState(kind === 'defect' ? { defects: [name] } : { variants: [name] });
    expect(ledgerBehaviour(state)).not.toEqual(baseline);
  });

  test('every defect names ledger requirements of the catalogue and a ledger suite', () => {
    for (const d of ledgerDefects) {
      expect(d.name.startsWith('ledger-'), d.name).toBe(true);
      for (const id of d.breaks) expect(requirementById(id)?.area, `${d.name} → ${id}`).toBe('ledger');
      for (const s of d.suites) expect(s.startsWith('ledger'), d.name).toBe(true);
    }
  });

  test('every MUST and SHOULD of the ledger area has a defect that breaks it', async () => {
    const { ledgerRequirements } = await import('../../lib/catalogue/ledger.ts');
    const broken = new Set(ledgerDefects.flatMap((d) => d.breaks));
    for (const r of ledgerRequirements) if (r.level !== 'INFO') expect(broken.has(r.id), r.id).toBe(true);
  });
});
