import { describe, expect, test } from 'vitest';
import { ledgerDefects, ledgerVariants } from '../../lib/reference/defects/ledger.ts';
import { ledgerBehaviour } from '../../lib/reference/ledger-behaviour.ts';
import { ReferenceState } from '../../lib/reference/state.ts';
import { requirementById } from '../../lib/catalogue/index.ts';

const baseline = new ReferenceState({});

/** What a switch may change: how a listing behaves, or the ledger's shape and the server's pace. */
function observable(state: ReferenceState): unknown {
  return { behaviour: ledgerBehaviour(state), shape: state.ledgerShape, latencyMs: state.latencyMs };
}

describe('ledger switches', () => {
  test.each([...ledgerDefects.map((d) => ['defect', d.name] as const), ...ledgerVariants.map((v) => ['variant', v.name] as const)])('%s %s changes the ledger', (kind, name) => {
    const state = new ReferenceState(kind === 'defect' ? { defects: [name] } : { variants: [name] });
    expect(observable(state)).not.toEqual(observable(baseline));
  });

  test('every defect names ledger requirements of the catalogue (or the §7 rule a ledger refusal breaks) and a ledger suite', () => {
    for (const d of ledgerDefects) {
      expect(d.name.startsWith('ledger-'), d.name).toBe(true);
      for (const id of d.breaks) expect(['ledger', 'errors'], `${d.name} → ${id}`).toContain(requirementById(id)?.area);
      for (const s of d.suites) expect(s.startsWith('ledger'), d.name).toBe(true);
    }
  });

  test('every MUST and SHOULD of the ledger area has a defect that breaks it', async () => {
    const { ledgerRequirements } = await import('../../lib/catalogue/ledger.ts');
    const broken = new Set(ledgerDefects.flatMap((d) => d.breaks));
    for (const r of ledgerRequirements) if (r.level !== 'INFO') expect(broken.has(r.id), r.id).toBe(true);
  });

  test('the staging variants set the shape, and explicit options win', () => {
    expect(new ReferenceState({ variants: ['ledger-busy-100k', 'ledger-page-cap-25', 'ledger-background-writers', 'latency-150ms'] })).toMatchObject({
      ledgerShape: { generatedRows: 100_000, pageCap: 25, writers: true },
      latencyMs: 150,
    });
    expect(new ReferenceState({ variants: ['ledger-busy-100k'], ledger: { generatedRows: 1_000_000 }, latencyMs: 0 })).toMatchObject({
      ledgerShape: { generatedRows: 1_000_000, pageCap: null, writers: false },
      latencyMs: 0,
    });
  });
});
