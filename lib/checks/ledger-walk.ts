import type { Exchange } from '../model/exchange.ts';
import { readPage, type LedgerPage, type LedgerRow } from './ledger-page.ts';

/** The parameters of one listing. The same ones go along with every cursor of its walk. */
export interface LedgerQuery {
  from?: string;
  to?: string;
  feature?: string;
  limit?: number | string;
}

/** `from=… to=… feature=… limit=…`, the parameters given, for a finding. */
export function queryText(query: LedgerQuery): string {
  const parts = (['from', 'to', 'feature', 'limit'] as const).flatMap((k) => (query[k] === undefined ? [] : [`${k}=${String(query[k])}`]));
  return parts.length === 0 ? 'no parameters' : parts.join(' ');
}

/**
 * Sends one page request. Walks get it injected, so that this module does no I/O of its own and
 * is tested on constructed exchanges.
 */
export type PageFetcher = (query: LedgerQuery, cursor: string | undefined) => Promise<Exchange>;

/**
 * How a walk ended: on a page with `next_cursor` null, on a refused first page, on a refused
 * cursor, on a cursor returned twice (it would never end), on a page without a usable
 * `next_cursor`, or at the page or row budget the caller set (`page-cap`).
 */
export type WalkEnd = 'last-page' | 'refused' | 'cursor-refused' | 'cursor-repeated' | 'no-cursor-field' | 'page-cap';

export interface Walk {
  query: LedgerQuery;
  pages: LedgerPage[];
  /** Rows in the order the pages gave them, duplicates kept. */
  rows: LedgerRow[];
  end: WalkEnd;
  /** Cursors followed, in order. */
  cursors: string[];
}

export interface WalkOptions {
  maxPages: number;
  /** Stop once this many rows were listed and a cursor leads on: a walk bounded by count, not pages. */
  maxRows?: number;
  /** Called between two page requests, after page `index` (0-based within this call) was read. */
  between?: (index: number, page: LedgerPage) => Promise<void>;
}

/** A walk that has not sent anything yet. */
export function startWalk(query: LedgerQuery): Walk {
  return { query, pages: [], rows: [], end: 'page-cap', cursors: [] };
}

/**
 * Sends up to `maxPages` more page requests of a walk, following `next_cursor` from where it
 * stands, and records them in `walk` (which it returns). A walk that has ended is left as it is;
 * one stopped at the page cap can be advanced again, so that two walks can be interleaved.
 */
export async function advanceWalk(fetch: PageFetcher, walk: Walk, options: WalkOptions): Promise<Walk> {
  if (walk.end !== 'page-cap') return walk;
  // Every cursor this walk was given so far; the one to follow next is the last page's.
  const returned = new Set(walk.pages.flatMap((p) => (typeof p.nextCursor === 'string' ? [p.nextCursor] : [])));
  const last = walk.pages[walk.pages.length - 1];
  let cursor = last === undefined ? undefined : (last.nextCursor ?? undefined);
  for (let i = 0; i < options.maxPages; i++) {
    if (cursor !== undefined) walk.cursors.push(cursor);
    const page = readPage(await fetch(walk.query, cursor));
    walk.pages.push(page);
    if (!page.ok) {
      walk.end = cursor === undefined ? 'refused' : 'cursor-refused';
      return walk;
    }
    walk.rows.push(...page.rows);
    const next = page.nextCursor;
    if (next === null) {
      walk.end = 'last-page';
      return walk;
    }
    if (next === undefined) {
      walk.end = 'no-cursor-field';
      return walk;
    }
    // The same cursor asks the same question again: following it would never end.
    if (returned.has(next)) {
      walk.end = 'cursor-repeated';
      return walk;
    }
    returned.add(next);
    if (options.maxRows !== undefined && walk.rows.length >= options.maxRows) break;
    if (i + 1 < options.maxPages && options.between !== undefined) await options.between(i, page);
    cursor = next;
  }
  walk.end = 'page-cap';
  return walk;
}

export function walkLedger(fetch: PageFetcher, query: LedgerQuery, options: WalkOptions): Promise<Walk> {
  return advanceWalk(fetch, startWalk(query), options);
}

export function walkExchanges(walk: Walk): Exchange[] {
  return walk.pages.map((p) => p.exchange);
}

export function isComplete(walk: Walk): boolean {
  return walk.end === 'last-page';
}
