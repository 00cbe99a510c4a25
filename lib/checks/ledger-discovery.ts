import type { Exchange } from '../model/exchange.ts';
import { DEFAULT_WINDOW_DAYS, LEDGER_LIMIT_MAX } from '../spec-constants.ts';
import { formatInstant, instantFromMs, type Instant } from './ledger-instant.ts';
import { knownRowsOf, type KnownRows } from './ledger-known-rows.ts';
import { isComplete, walkExchanges, walkLedger, type PageFetcher, type Walk } from './ledger-walk.ts';

const DAY_MS = 86_400_000;
/** Seconds of slack around "now" for the default window: clock skew and the time requests take. */
export const DEFAULT_WINDOW_TOLERANCE_S = 300;
/** Fewer known rows than this and discovery looks further back. */
const MIN_KNOWN_ROWS = 40;
/** Pages a discovery walk may take before it settles for a narrower window. */
const DISCOVERY_PAGES = 6;
const WIDE_WINDOW_DAYS = 365;
const FALLBACK_LIMIT = 100;
/** How much wider than the last 30 days the explicit window reaches on each side. */
export const EXPLICIT_MARGIN_MS = 3_600_000;

/**
 * What the harness learns about the target's ledger before it tests anything: nothing later may
 * rely on a particular server's data, so boundaries come from rows seen here.
 */
export interface LedgerSample {
  /** GET without `from` and `to`, walked with limit 200. */
  defaultWalk: Walk;
  /** Harness clock just before the first and just after the last page of that walk (Unix ms). */
  defaultStartedMs: number;
  defaultEndedMs: number;
  /** Server clock minus harness clock, from the first answer's Date header (0 without one). */
  clockOffsetMs: number;
  /** The last 30 days written as an explicit window (an hour wider on each side), walked first with limit 200. */
  explicitWalk: Walk;
  explicitFrom: Instant;
  explicitTo: Instant;
  /** Rows of a complete walk of an explicit window, or undefined (see `why`). */
  known: KnownRows | undefined;
  why?: string;
  /** Every exchange discovery sent, for the schema checks. */
  exchanges: Exchange[];
}

/**
 * Server clock minus harness clock, read from the HTTP Date header (RFC 9110 §6.6.1: an origin
 * server with a clock sends it), to the second; 0 when the header is missing or unreadable.
 */
export function clockOffsetOf(exchange: Exchange): number {
  const date = exchange.response?.headers['date'];
  const serverMs = date === undefined ? Number.NaN : Date.parse(date);
  if (Number.isNaN(serverMs)) return 0;
  const offset = serverMs - (Date.parse(exchange.startedAt) + exchange.timings.totalMs / 2);
  // The header has whole seconds: an offset under two seconds is rounding, not skew.
  return Math.abs(offset) < 2000 ? 0 : offset;
}

function z(instant: Instant): string {
  return formatInstant(instant);
}

export async function discoverLedger(fetch: PageFetcher, now: () => number = Date.now): Promise<LedgerSample> {
  let limit: number = LEDGER_LIMIT_MAX;
  // The last 30 days with bounds first, wider by an hour on each side than any skew the default
  // window check accepts, then without bounds: a row the first walk listed and the second lacks
  // was dropped, not added late by a ledger that records some usage after the fact.
  const startedMs = now();
  const explicitFrom = instantFromMs(startedMs - DEFAULT_WINDOW_DAYS * DAY_MS - EXPLICIT_MARGIN_MS);
  const explicitTo = instantFromMs(startedMs + EXPLICIT_MARGIN_MS);
  const explicitQuery = { from: z(explicitFrom), to: z(explicitTo) };
  let explicitWalk = await walkLedger(fetch, { ...explicitQuery, limit }, { maxPages: DISCOVERY_PAGES });
  // A server that refuses the largest page still has a ledger to learn from (its limit is judged apart).
  if (explicitWalk.end === 'refused' && explicitWalk.pages[0]?.exchange.response?.status === 400) {
    limit = FALLBACK_LIMIT;
    explicitWalk = await walkLedger(fetch, { ...explicitQuery, limit }, { maxPages: DISCOVERY_PAGES * 2 });
  }
  const pages = Math.ceil((DISCOVERY_PAGES * LEDGER_LIMIT_MAX) / limit);
  const defaultStartedMs = now();
  const defaultWalk = await walkLedger(fetch, { limit }, { maxPages: pages });
  const defaultEndedMs = now();
  const first = explicitWalk.pages[0]?.exchange ?? defaultWalk.pages[0]?.exchange;
  const clockOffsetMs = first === undefined ? 0 : clockOffsetOf(first);
  const exchanges = [...walkExchanges(explicitWalk), ...walkExchanges(defaultWalk)];
  const sample: LedgerSample = { defaultWalk, defaultStartedMs, defaultEndedMs, clockOffsetMs, explicitWalk, explicitFrom, explicitTo, known: undefined, exchanges };

  let known: KnownRows | undefined;
  if (isComplete(explicitWalk)) {
    known = knownRowsOf(explicitWalk.rows);
    if (known === undefined || known.rows.length < MIN_KNOWN_ROWS) {
      // Few rows in the last 30 days: look back a year.
      const wideFrom = instantFromMs(startedMs - WIDE_WINDOW_DAYS * DAY_MS);
      const wide = await walkLedger(fetch, { from: z(wideFrom), to: z(explicitTo), limit }, { maxPages: pages });
      exchanges.push(...walkExchanges(wide));
      const wider = isComplete(wide) ? knownRowsOf(wide.rows) : undefined;
      if (wider !== undefined && wider.rows.length > (known?.rows.length ?? 0)) known = wider;
    }
  } else if (explicitWalk.end === 'page-cap') {
    // Too many rows for the budget: walk a narrower span of the rows seen so far, whole (the order
    // of rows is the server's, so the rows of a span are known only once the span is walked).
    const groups = knownRowsOf(explicitWalk.rows)?.groups ?? [];
    if (groups.length > 2) {
      const to = groups[groups.length - 1]!.instant;
      const from = groups[Math.max(0, groups.length - 1 - Math.floor(LEDGER_LIMIT_MAX * 0.75))]!.instant;
      const narrow = await walkLedger(fetch, { from: z(from), to: z(to), limit }, { maxPages: Math.ceil(pages / 2) });
      exchanges.push(...walkExchanges(narrow));
      if (isComplete(narrow)) known = knownRowsOf(narrow.rows);
    }
  }
  if (known === undefined) {
    sample.why = isComplete(explicitWalk)
      ? 'the ledger of the primary token has no dated rows in the last year'
      : `no window of the ledger could be walked to its end (the walk of the last 30 days ended: ${explicitWalk.end})`;
  } else {
    sample.known = known;
  }
  return sample;
}

/** Why a check that needs `count` distinct instants cannot run on this sample, or undefined when it can. */
export function notEnoughRows(sample: LedgerSample, count: number): string | undefined {
  if (sample.known === undefined) return sample.why ?? 'no known rows';
  if (sample.known.groups.length < count) {
    return `the target's ledger shows ${sample.known.groups.length} distinct timestamps before its newest row; this check needs ${count}`;
  }
  return undefined;
}
