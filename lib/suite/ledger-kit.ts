import { discoverLedger, pagesFor, type LedgerSample } from '../checks/ledger-discovery.ts';
import type { ReadPool } from '../checks/ledger-page-schema.ts';
import { advanceWalk, walkLedger, type LedgerQuery, type PageFetcher, type Walk } from '../checks/ledger-walk.ts';
import type { Exchange } from '../model/exchange.ts';
import type { Finding } from '../model/finding.ts';
import { LEDGER_LIMIT_DEFAULT, LEDGER_LIMIT_MAX, LEDGER_PATH } from '../spec-constants.ts';
import { keptForDocumentChecks } from '../model/evidence-trim.ts';
import type { TestKit } from './requirement-test.ts';

/** What the HTTP client offers, as far as a page fetcher needs it. */
export interface LedgerSender {
  send(options: { method?: string; path: string; query?: string | Record<string, string | number | undefined>; token?: string | null }): Promise<Exchange>;
}

/**
 * Page requests with the token of `role`. The cursor goes back as the exact string returned; the
 * client percent-encodes it as encodeURIComponent does (all but letters, digits and `-_.!~*'()`),
 * so the server decodes exactly those characters. `from`, `to`, `feature` and `limit` are
 * repeated with every cursor. Pages are read as JSON and may be kept for the run (discovery's
 * sample): a cut one keeps only what the transcript does.
 */
export function ledgerFetcher(client: LedgerSender, role: string): PageFetcher {
  return async (query, cursor) =>
    keptForDocumentChecks(await client.send({ path: LEDGER_PATH, query: { from: query.from, to: query.to, feature: query.feature, limit: query.limit, cursor }, token: role }));
}

export function pagesOf(kit: TestKit, role = 'primary'): PageFetcher {
  return ledgerFetcher(kit.client, role);
}

/**
 * Page requests whose `from` and `to` go percent-encoded by `encode` (an encoding of the domain
 * table: `:` unencoded, lower-case hex, a raw `+`), the other parameters as `ledgerFetcher` writes
 * them. The query is sent as written: the client adds no encoding of its own.
 */
export function spelledPagesOf(kit: TestKit, encode: (value: string) => string, role = 'primary'): PageFetcher {
  return async (query, cursor) => {
    const parts = [
      ...(['from', 'to'] as const).flatMap((k) => (query[k] === undefined ? [] : [`${k}=${encode(query[k])}`])),
      ...(['feature', 'limit'] as const).flatMap((k) => (query[k] === undefined ? [] : [`${k}=${encodeURIComponent(String(query[k]))}`])),
      ...(cursor === undefined ? [] : [`cursor=${encodeURIComponent(cursor)}`]),
    ];
    return keptForDocumentChecks(await kit.client.send({ path: LEDGER_PATH, query: parts.join('&'), token: role }));
  };
}

/** One request of GET /credits/operations with a query string sent exactly as written (a parameter given twice, say). */
export async function rawLedgerQuery(kit: TestKit, query: string, role = 'primary'): Promise<Exchange> {
  return kit.client.send({ path: LEDGER_PATH, query, token: role });
}

export function readPool(kit: TestKit): ReadPool {
  return { limit: kit.context.profile.limits.read, windowS: kit.context.profile.limits.windowS };
}

const shared = new Map<string, Promise<LedgerSample>>();

/** One discovery per key, shared by every ledger suite of the run (suites share one worker). */
export function sharedLedgerSample(key: string, discover: () => Promise<LedgerSample>): Promise<LedgerSample> {
  let pending = shared.get(key);
  if (pending === undefined) {
    pending = discover();
    shared.set(key, pending);
  }
  return pending;
}

/** The target's ledger as seen by the primary token, discovered once per run by whichever ledger test comes first. */
export function ledgerSample(kit: TestKit): Promise<LedgerSample> {
  return sharedLedgerSample(`${kit.context.runId} ${kit.context.baseUrl}`, () => discoverLedger(pagesOf(kit)));
}

/**
 * The page size for walking a window of `knownRows` rows within `maxPages` pages: the drawn
 * limit when it fits, else the smallest that does. Small limits make many page boundaries, but
 * a window denser than its sampler expected (rows other suites added, a busy ledger) must not
 * turn a walk into a page cap and an inconclusive verdict. One page of slack is kept for rows
 * recorded after discovery and for an empty final page.
 */
export function fittingLimit(limit: number, knownRows: number, maxPages: number): number {
  return Math.min(LEDGER_LIMIT_MAX, Math.max(limit, Math.ceil((knownRows + 1) / Math.max(1, maxPages - 2))));
}

/**
 * A walk of a window of `rows` known rows that is to reach its end: budgeted by `pagesFor`, and,
 * when it stops there while every page held rows (short pages are legal, and a server that cuts
 * them where it likes may cut many in a row), carried on up to a page per known row.
 */
export async function walkWhole(fetch: PageFetcher, query: LedgerQuery, sample: Pick<LedgerSample, 'pageFill'>, rows: number): Promise<Walk> {
  const limit = typeof query.limit === 'number' ? query.limit : LEDGER_LIMIT_DEFAULT;
  const walk = await walkLedger(fetch, query, { maxPages: pagesFor(sample, rows, limit) });
  if (walk.end === 'page-cap' && walk.pages.every((p) => p.rows.length > 0)) await advanceWalk(fetch, walk, { maxPages: Math.max(0, rows + 2 - walk.pages.length) });
  return walk;
}

/** The findings of one requirement. */
export function only(requirement: string, findings: readonly Finding[]): Finding[] {
  return findings.filter((f) => f.requirement === requirement);
}
