import type { SwitchSet } from './switches.ts';

/**
 * How a reference's ledger looks from outside, beyond the seeded rows: the shapes of a vendor's
 * staging ledger that the variant switches give it, or the bench asks for directly.
 */
export interface LedgerShape {
  /** Rows generated over the last 30 days in workspace ws_1 (a tenth of that in ws_2); 0 for none. */
  generatedRows: number;
  /** At most this many rows on any page, whatever `limit` says; null for no cap. */
  pageCap: number | null;
  /** Background writers append rows, stamped with the server's clock, while the server runs (variants `ledger-background-writers`, `ratelimit-background-writers`). */
  writers: boolean;
  /** Two frequent features of the seed carry names no filter can name (variant `ledger-long-features`). */
  longFeatures: boolean;
  /** Rows of one batch import, all at one instant 20 minutes before the seed instant, in ws_1; 0 for none (variant `ledger-recent-batch-import`). */
  recentBatch: number;
}

/** Variant `ledger-busy-100k`: a busy ledger. */
export const BUSY_LEDGER_ROWS = 100_000;
/** Variant `ledger-page-cap-25`. */
export const PAGE_CAP = 25;
/** Variant `ledger-recent-batch-import`: far more rows at one instant than a walk of the known window may list. */
export const RECENT_BATCH_ROWS = 3_000;

/** The shape asked for: explicit options win over the variant switches. */
export function ledgerShapeOf(options: Partial<LedgerShape> | undefined, variants: SwitchSet): LedgerShape {
  return {
    generatedRows: options?.generatedRows ?? (variants.has('ledger-busy-100k') ? BUSY_LEDGER_ROWS : 0),
    pageCap: options?.pageCap ?? (variants.has('ledger-page-cap-25') ? PAGE_CAP : null),
    writers: options?.writers ?? (variants.has('ledger-background-writers') || variants.has('ratelimit-background-writers')),
    longFeatures: options?.longFeatures ?? variants.has('ledger-long-features'),
    recentBatch: options?.recentBatch ?? (variants.has('ledger-recent-batch-import') ? RECENT_BATCH_ROWS : 0),
  };
}
