import { ledgerPage, type LedgerCount } from '../checks/rate-limit-ledger.ts';
import type { HttpClient } from '../http/client.ts';
import type { Exchange } from '../model/exchange.ts';
import { LEDGER_LIMIT_MAX, LEDGER_PATH } from '../spec-constants.ts';

/** Pages followed at most for one count: far more rows than a run adds. */
const MAX_PAGES = 10;

/**
 * One window for every count of a run, fixed when this module loads: counts compared with each
 * other must cover the same rows, and a window sliding with the clock would drop old rows at its
 * lower edge between two counts. An hour of slack either side absorbs clock skew with the target.
 */
const loadedAt = Date.now();
const WINDOW = { from: new Date(loadedAt - 3_600_000).toISOString(), to: new Date(loadedAt + 86_400_000).toISOString() };

/**
 * Counts the ledger rows of the primary token's workspace (§4.1) by following next_cursor; the
 * secondary token shares that workspace, so its messages show here without spending its points.
 */
export async function countLedgerRows(client: HttpClient): Promise<LedgerCount> {
  const pages: Exchange[] = [];
  let rows = 0;
  let cursor: string | null = null;
  for (let i = 0; i < MAX_PAGES; i++) {
    const query: Record<string, string | number> = { from: WINDOW.from, to: WINDOW.to, limit: LEDGER_LIMIT_MAX };
    // > Pass back exactly the value returned earlier in `next_cursor`.
    if (cursor !== null) query['cursor'] = cursor;
    const exchange = await client.send({ path: LEDGER_PATH, query, token: 'primary' });
    pages.push(exchange);
    const page = ledgerPage(exchange);
    if (!page.ok) return { ok: false, why: page.why, pages };
    rows += page.rows;
    cursor = page.nextCursor;
    if (cursor === null) return { ok: true, rows, pages };
  }
  return { ok: false, why: `the ledger still had a next_cursor after ${MAX_PAGES} pages`, pages };
}

/**
 * Counts again until the ledger shows at least `atLeast` rows or the tries run out: a ledger may
 * record a served message a moment after answering it.
 */
export async function countLedgerRowsSettled(client: HttpClient, atLeast: number, tries = 3, pauseMs = 300): Promise<LedgerCount> {
  let count = await countLedgerRows(client);
  for (let i = 1; i < tries && count.ok && count.rows < atLeast; i++) {
    await new Promise((r) => setTimeout(r, pauseMs));
    count = await countLedgerRows(client);
  }
  return count;
}
