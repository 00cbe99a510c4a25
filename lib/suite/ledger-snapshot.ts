import { clockOffsetOf } from '../checks/pool-headers.ts';
import { ledgerPage, type Background, type LedgerCount } from '../checks/rate-limit-ledger.ts';
import { sleep, type HttpClient } from '../http/client.ts';
import type { Exchange } from '../model/exchange.ts';
import { LEDGER_LIMIT_MAX, LEDGER_PATH } from '../spec-constants.ts';

/** Pages followed at most for one count: far more rows than a run adds. */
const MAX_PAGES = 10;

/**
 * How far before the first count the counted window opens: rows the run adds are all later, and
 * the rows of a big ledger before it are left out, so a count costs the same on any ledger.
 */
const LOOK_BACK_MS = 10 * 60_000;
const LOOK_AHEAD_MS = 24 * 3_600_000;

interface Window {
  from: string;
  to: string;
}

/**
 * One window for every count of a run (of this worker): counts compared with each other must
 * cover the same rows, and a window sliding with the clock would drop old rows at its lower edge
 * between two counts. It opens on the target's clock (its Date header), fixed by the first count.
 */
let counted: Window | undefined;

function windowAt(targetNowMs: number): Window {
  return { from: new Date(targetNowMs - LOOK_BACK_MS).toISOString(), to: new Date(targetNowMs + LOOK_AHEAD_MS).toISOString() };
}

async function walk(client: HttpClient, w: Window): Promise<LedgerCount> {
  const startedMs = Date.now();
  const pages: Exchange[] = [];
  let rows = 0;
  let cursor: string | null = null;
  for (let i = 0; i < MAX_PAGES; i++) {
    const query: Record<string, string | number> = { from: w.from, to: w.to, limit: LEDGER_LIMIT_MAX };
    // > Pass back exactly the value returned earlier in `next_cursor`.
    if (cursor !== null) query['cursor'] = cursor;
    const exchange = await client.send({ path: LEDGER_PATH, query, token: 'primary' });
    pages.push(exchange);
    const page = ledgerPage(exchange);
    if (!page.ok) return { ok: false, why: page.why, pages };
    rows += page.rows;
    cursor = page.nextCursor;
    if (cursor === null) return { ok: true, rows, pages, startedMs, endedMs: Date.now() };
  }
  return { ok: false, why: `the ledger still had a next_cursor after ${MAX_PAGES} pages`, pages };
}

/**
 * Counts the ledger rows of the primary token's workspace (§4.1) by following next_cursor; the
 * secondary token shares that workspace, so its messages show here without spending its points.
 */
export async function countLedgerRows(client: HttpClient): Promise<LedgerCount> {
  if (counted !== undefined) return walk(client, counted);
  const provisional = windowAt(Date.now());
  const first = await walk(client, provisional);
  const offsetMs = first.pages[0] === undefined ? 0 : clockOffsetOf(first.pages[0]);
  // A target whose clock is off the harness's: open the window on its clock and count again.
  counted = offsetMs === 0 ? provisional : windowAt(Date.now() + offsetMs);
  return offsetMs === 0 ? first : walk(client, counted);
}

/**
 * Counts again until the ledger shows at least `atLeast` rows or the tries run out: a ledger may
 * record a served message a moment after answering it.
 */
export async function countLedgerRowsSettled(client: HttpClient, atLeast: number, tries = 3, pauseMs = 300): Promise<LedgerCount> {
  let count = await countLedgerRows(client);
  for (let i = 1; i < tries && count.ok && count.rows < atLeast; i++) {
    await sleep(pauseMs);
    count = await countLedgerRows(client);
  }
  return count;
}

/** Bounds of the pause over which other clients' rows are measured. */
const BACKGROUND_MIN_MS = 1_000;
const BACKGROUND_MAX_MS = 6_000;

/**
 * Rows other clients of the workspace add while the harness sends nothing that leaves one: two
 * counts at least twice `intervalMs` apart (the interval being judged), so the rate is known
 * better than the interval's own share of it. Undefined when the ledger cannot be counted.
 */
export async function measureBackground(client: HttpClient, intervalMs: number): Promise<Background | undefined> {
  const first = await countLedgerRows(client);
  if (!first.ok) return undefined;
  await sleep(Math.min(BACKGROUND_MAX_MS, Math.max(BACKGROUND_MIN_MS, 2 * intervalMs)));
  const second = await countLedgerRows(client);
  if (!second.ok) return undefined;
  // The narrowest span the rows can have come in: a rate read high, never low.
  return { rows: Math.max(0, second.rows - first.rows), spanMs: Math.max(1, second.startedMs - first.endedMs) };
}
