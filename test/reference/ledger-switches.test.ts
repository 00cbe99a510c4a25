import { describe, expect, test } from 'vitest';
import { ledgerDefects, ledgerVariants } from '../../lib/reference/defects/ledger.ts';
import { ledgerBehaviour } from '../../lib/reference/ledger-behaviour.ts';
import { ReferenceState } from '../../lib/reference/state.ts';
import { requirementById } from '../../lib/catalogue/index.ts';

const baseline = new ReferenceState({});

/** What a switch may change: how a listing behaves, the ledger's shape and how it stamps rows, the server's pace and clock. */
function observable(state: ReferenceState): unknown {
  return { behaviour: ledgerBehaviour(state), shape: state.ledgerShape, distinctInstants: state.ledger.distinctInstants, latencyMs: state.latencyMs, clockSkewMs: state.clockSkewMs };
}

describe('ledger switches', () => {
  test.each([...ledgerDefects.map((d) => ['defect', d.name] as const), ...ledgerVariants.map((v) => ['variant', v.name] as const)])('%s %s changes the ledger', (kind, name) => {
    const state = new ReferenceState(kind === 'defect' ? { defects: [name] } : { variants: [name] });
    expect(observable(state)).not.toEqual(observable(baseline));
  });

  test('the calendar readings of the default window start at their zone\'s midnight, 30 or 29 days before today\'s', async () => {
    const { defaultWindow } = await import('../../lib/reference/ledger-query.ts');
    const now = Date.parse('2026-11-29T20:00:00Z');
    const startOf = (variant: string): string => new Date(defaultWindow(now, ledgerBehaviour(new ReferenceState({ variants: [variant] }))).fromMs!).toISOString();
    // 08:00 on the 29th at UTC-12: its midnight is 12:00Z; 30 days before.
    expect(startOf('ledger-default-window-calendar-early')).toBe('2026-10-30T12:00:00.000Z');
    // 10:00 on the 30th at UTC+14: its midnight is 10:00Z on the 29th; 29 days before.
    expect(startOf('ledger-default-window-calendar-late')).toBe('2026-10-31T10:00:00.000Z');
    expect(new Date(defaultWindow(now, ledgerBehaviour(baseline)).fromMs!).toISOString()).toBe('2026-10-30T20:00:00.000Z');
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
