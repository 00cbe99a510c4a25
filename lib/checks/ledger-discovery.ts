import type { Exchange } from '../model/exchange.ts';
import { DEFAULT_WINDOW_DAYS, LEDGER_LIMIT_MAX } from '../spec-constants.ts';
import { compareInstants, formatInstant, instantFromMs, instantToMs, type Instant } from './ledger-instant.ts';
import { knownRowsOf, type KnownRows } from './ledger-known-rows.ts';
import { uniqueByKey, type LedgerRow } from './ledger-page.ts';
import { clockOffsetOf } from './pool-headers.ts';
import { isComplete, walkExchanges, walkLedger, type PageFetcher, type Walk } from './ledger-walk.ts';

const DAY_MS = 86_400_000;
/** Seconds of slack around "now" for the default window: clock skew and the time requests take. */
export const DEFAULT_WINDOW_TOLERANCE_S = 300;
/** How much wider than the last 30 days the explicit window reaches on each side. */
export const EXPLICIT_MARGIN_MS = 3_600_000;
/** The known window holds at least this many rows when the target has them... */
export const KNOWN_ROWS_MIN = 20;
/** ...and at most this many: every walk of it, or of a part of it, costs a bounded number of pages. */
export const KNOWN_ROWS_MAX = 200;
/** The count the time search aims at, well inside the two. */
const KNOWN_ROWS_AIM = 120;
/** Rows a survey of the default window or of the last 30 days lists before discovery stops it. */
const SURVEY_ROWS = 400;
/** Pages any one discovery walk may take, for targets that serve short pages (a page cap). */
const DISCOVERY_PAGES = 20;
/** Windows the time search may walk. */
const MAX_PROBES = 12;
const WIDE_WINDOW_DAYS = 365;
const FALLBACK_LIMIT = 100;

/**
 * What the harness learns about the target's ledger before it tests anything: nothing later may
 * rely on a particular server's data, so boundaries come from rows seen here.
 *
 * The contract: whatever the ledger's size and page size, discovery sends a bounded number of
 * requests (two surveys of at most SURVEY_ROWS rows, then a search over time windows each walked
 * for at most KNOWN_ROWS_MAX rows), and yields one recent window whose rows it has walked to the
 * end: KNOWN_ROWS_MIN to KNOWN_ROWS_MAX of them when the target has that many. Every ledger check
 * draws its windows from those known rows, so no check's cost grows with the ledger.
 */
export interface LedgerSample {
  /** GET without `from` and `to`, walked with `limit` until SURVEY_ROWS rows (its first pages, or all). */
  defaultWalk: Walk;
  /** Harness clock just before the first and just after the last page of that walk (Unix ms). */
  defaultStartedMs: number;
  defaultEndedMs: number;
  /** Server clock minus harness clock, from the first answer's Date header (0 without one). */
  clockOffsetMs: number;
  /** The last 30 days written as an explicit window (an hour wider on each side), walked first, as far. */
  explicitWalk: Walk;
  explicitFrom: Instant;
  explicitTo: Instant;
  /** The rows of a complete walk of a recent window (see KnownRows), or undefined (see `why`). */
  known: KnownRows | undefined;
  /** That walk. */
  knownWalk: Walk | undefined;
  why?: string;
  /** The page size discovery asked for: 200, or 100 when the target refused 200. */
  limit: number;
  /** Most rows one page of discovery held: below `limit`, a page cap shows here. */
  pageRows: number;
  /**
   * Rows of a page that led on, as a share of `limit`, on average: below 1 for a target that
   * serves short pages (a cap, or pages cut where it likes); 1 when no page led on.
   */
  pageFill: number;
  /** Every exchange discovery sent, for the schema checks. */
  exchanges: Exchange[];
}

function z(instant: Instant): string {
  return formatInstant(instant);
}

/** Rows of a walk with an instant, each once. */
function datedRows(walk: Walk): Array<LedgerRow & { instant: Instant }> {
  return uniqueByKey(walk.rows).filter((r): r is LedgerRow & { instant: Instant } => r.instant !== undefined);
}

/**
 * Rows per millisecond near where a walk looked: exact for a complete walk of `spanMs`; for one
 * stopped at its budget, the rows seen over the time they spread across (a listing in time order
 * shows a dense stretch; any other order only makes the guess lower).
 */
export function densityOf(walk: Walk, spanMs: number): number {
  const rows = datedRows(walk);
  if (isComplete(walk)) return rows.length / Math.max(1, spanMs);
  if (rows.length < 2) return 0;
  let oldest = rows[0]!.instant;
  let newest = oldest;
  for (const r of rows) {
    if (compareInstants(r.instant, oldest) < 0) oldest = r.instant;
    if (compareInstants(r.instant, newest) > 0) newest = r.instant;
  }
  return rows.length / Math.max(1, instantToMs(newest) - instantToMs(oldest));
}

/**
 * The next span to try: the one that should hold KNOWN_ROWS_AIM rows at `density`, kept strictly
 * between the spans known to hold too few (`small`) and too many (`big`) rows; bisected (in log
 * scale) when the guess falls outside, so the search narrows whatever the guesses.
 */
export function nextSpan(density: number, small: number, big: number): number {
  const guess = density > 0 ? KNOWN_ROWS_AIM / density : Number.NaN;
  if (guess > small * 1.25 && guess < big * 0.8) return Math.round(guess);
  return Math.round(small > 0 ? Math.sqrt(small * big) : big / 16);
}

export interface SearchBounds {
  /** Harness ms the spans are counted back from (the server's present). */
  anchorMs: number;
  /** Exclusive end of every window: past the anchor, so that the newest rows are in. */
  to: Instant;
  limit: number;
  /** A span known to hold fewer than KNOWN_ROWS_MIN rows (0 when none is known)... */
  small: number;
  /** ...and one known to hold more than KNOWN_ROWS_MAX, or the widest to look at. */
  big: number;
  /** Rows per ms to start from (0 when unknown). */
  density: number;
  /** The span of the first window, instead of one guessed from `density`. */
  firstSpan?: number;
}

/**
 * Time search for a recent window of KNOWN_ROWS_MIN to KNOWN_ROWS_MAX rows (see bisectRecentWindow).
 * A batch of more rows at one instant than a known window may hold, with few rows after it, defeats
 * any window that ends at the present: then it looks again among the rows before the batch, in
 * windows that end where the narrowest window with too many rows began to list. Returns the first
 * window in range, or else the complete walk with the most rows, or undefined.
 */
export async function searchRecentWindow(fetch: PageFetcher, bounds: SearchBounds, exchanges: Exchange[]): Promise<Walk | undefined> {
  const recent = await bisectRecentWindow(fetch, bounds, exchanges);
  if (recent.found !== undefined && datedRows(recent.found).length >= KNOWN_ROWS_MIN) return recent.found;
  const crowd = recent.crowded === undefined ? undefined : oldestInstant(recent.crowded);
  const floorMs = bounds.anchorMs - bounds.big;
  if (crowd === undefined || instantToMs(crowd) <= floorMs) return recent.found;
  // Any window that ends at or before the oldest row the crowded walk listed leaves the batch out.
  const crowdMs = instantToMs(crowd);
  const earlier = await bisectRecentWindow(fetch, { anchorMs: crowdMs, to: crowd, limit: bounds.limit, small: 0, big: crowdMs - floorMs, density: 0 }, exchanges);
  return mostRows(recent.found, earlier.found);
}

function oldestInstant(walk: Walk): Instant | undefined {
  let oldest: Instant | undefined;
  for (const r of datedRows(walk)) if (oldest === undefined || compareInstants(r.instant, oldest) < 0) oldest = r.instant;
  return oldest;
}

function mostRows(a: Walk | undefined, b: Walk | undefined): Walk | undefined {
  if (a === undefined || b === undefined) return a ?? b;
  return datedRows(b).length > datedRows(a).length ? b : a;
}

/**
 * Time bisection: windows [anchor - span, to) are walked until they end or list more than
 * KNOWN_ROWS_MAX rows (a page or two), and the span shrinks or grows by what each walk saw.
 * `found` is the first window in range, or else the complete walk with the most rows; `crowded`
 * the narrowest window that listed too many.
 */
async function bisectRecentWindow(fetch: PageFetcher, bounds: SearchBounds, exchanges: Exchange[]): Promise<{ found?: Walk; crowded?: Walk }> {
  let { small, big, density } = bounds;
  let best: Walk | undefined;
  let crowded: Walk | undefined;
  for (let probe = 0; probe < MAX_PROBES && big - small > 1; probe++) {
    const span = Math.max(1, probe === 0 && bounds.firstSpan !== undefined ? bounds.firstSpan : nextSpan(density, small, big));
    const walk = await walkLedger(fetch, { from: z(instantFromMs(bounds.anchorMs - span)), to: z(bounds.to), limit: bounds.limit }, { maxPages: DISCOVERY_PAGES, maxRows: KNOWN_ROWS_MAX + 1 });
    exchanges.push(...walkExchanges(walk));
    const rows = datedRows(walk).length;
    if (isComplete(walk) && rows <= KNOWN_ROWS_MAX) {
      if (best === undefined || rows > datedRows(best).length) best = walk;
      if (rows >= KNOWN_ROWS_MIN) return { found: walk };
      small = span;
    } else if (isComplete(walk) || walk.end === 'page-cap') {
      big = span;
      crowded = walk;
    } else {
      // A refused page or a broken cursor: other checks judge that; there is nothing to learn here.
      return { found: best };
    }
    density = densityOf(walk, span);
  }
  return { found: best, crowded };
}

export async function discoverLedger(fetch: PageFetcher, now: () => number = Date.now): Promise<LedgerSample> {
  let limit: number = LEDGER_LIMIT_MAX;
  const survey = { maxPages: DISCOVERY_PAGES, maxRows: SURVEY_ROWS };
  // The last 30 days with bounds first, wider by an hour on each side than any skew the default
  // window check accepts, and the recent known window; the default window last: a row the earlier
  // walks listed and it lacks was dropped, not added late by a ledger that records some usage
  // after the fact.
  const startedMs = now();
  const explicitFrom = instantFromMs(startedMs - DEFAULT_WINDOW_DAYS * DAY_MS - EXPLICIT_MARGIN_MS);
  const explicitTo = instantFromMs(startedMs + EXPLICIT_MARGIN_MS);
  const explicitQuery = { from: z(explicitFrom), to: z(explicitTo) };
  let explicitWalk = await walkLedger(fetch, { ...explicitQuery, limit }, survey);
  // A server that refuses the largest page still has a ledger to learn from (its limit is judged apart).
  if (explicitWalk.end === 'refused' && explicitWalk.pages[0]?.exchange.response?.status === 400) {
    limit = FALLBACK_LIMIT;
    explicitWalk = await walkLedger(fetch, { ...explicitQuery, limit }, survey);
  }
  const first = explicitWalk.pages[0]?.exchange;
  const clockOffsetMs = first === undefined ? 0 : clockOffsetOf(first);
  const exchanges = walkExchanges(explicitWalk);

  // Then a recent window small enough to walk whole, still before the default window is walked.
  const anchorMs = startedMs + clockOffsetMs;
  const lastMonthMs = anchorMs - instantToMs(explicitFrom);
  const yearMs = WIDE_WINDOW_DAYS * DAY_MS;
  let knownWalk: Walk | undefined;
  const explicitRows = datedRows(explicitWalk).length;
  if (isComplete(explicitWalk) && explicitRows >= KNOWN_ROWS_MIN) {
    knownWalk = explicitWalk;
  } else if (isComplete(explicitWalk)) {
    // Few rows in the last 30 days: look back a year, and narrow down if that is too many.
    const found = await searchRecentWindow(fetch, { anchorMs, to: explicitTo, limit, small: lastMonthMs, big: yearMs + 1, density: 0, firstSpan: yearMs }, exchanges);
    knownWalk = found !== undefined && datedRows(found).length > explicitRows ? found : explicitWalk;
  } else if (explicitWalk.end === 'page-cap') {
    // More rows in the last 30 days than a survey lists: narrow down in time from what it saw.
    const density = densityOf(explicitWalk, lastMonthMs);
    knownWalk = await searchRecentWindow(fetch, { anchorMs, to: explicitTo, limit, small: 0, big: lastMonthMs, density }, exchanges);
  }

  const defaultStartedMs = now();
  const defaultWalk = await walkLedger(fetch, { limit }, survey);
  const defaultEndedMs = now();
  exchanges.push(...walkExchanges(defaultWalk));
  const sample: LedgerSample = {
    defaultWalk,
    defaultStartedMs,
    defaultEndedMs,
    clockOffsetMs,
    explicitWalk,
    explicitFrom,
    explicitTo,
    known: undefined,
    knownWalk: undefined,
    limit,
    pageRows: 0,
    pageFill: 1,
    exchanges,
  };
  const pages = [explicitWalk, defaultWalk, ...(knownWalk === undefined ? [] : [knownWalk])].flatMap((w) => w.pages);
  sample.pageRows = Math.max(0, ...pages.map((p) => p.rows.length));
  const leading = pages.filter((p) => typeof p.nextCursor === 'string').map((p) => p.rows.length);
  if (leading.length > 0) sample.pageFill = Math.min(1, leading.reduce((n, r) => n + r, 0) / leading.length / limit);
  const known = knownWalk === undefined ? undefined : knownRowsOf(knownWalk.rows, KNOWN_ROWS_MAX, KNOWN_ROWS_MIN);
  if (known === undefined || knownWalk === undefined) {
    sample.why = isComplete(explicitWalk)
      ? 'the ledger of the primary token has no dated rows in the last year'
      : `no recent window of the ledger could be walked to its end (the walk of the last 30 days ended: ${explicitWalk.end})`;
  } else {
    sample.known = known;
    sample.knownWalk = knownWalk;
  }
  return sample;
}

/**
 * The time search again, later in the run: a recent window of KNOWN_ROWS_MIN to KNOWN_ROWS_MAX
 * rows as the ledger stands now (other clients may have added many since discovery), ending a day
 * ahead so that rows added from now on fall inside it. Undefined when none could be walked whole.
 */
export async function findRecentWindow(fetch: PageFetcher, sample: LedgerSample, now: () => number = Date.now): Promise<Walk | undefined> {
  const anchorMs = now() + sample.clockOffsetMs;
  const known = sample.known;
  const spread = known === undefined || known.groups.length < 2 ? 0 : instantToMs(known.stableBefore) - instantToMs(known.groups[0]!.instant);
  const density = known === undefined || spread <= 0 ? 0 : known.rows.length / spread;
  const big = anchorMs - instantToMs(sample.explicitFrom);
  // Only windows that reach the present: a row added from now on must fall inside.
  return (await bisectRecentWindow(fetch, { anchorMs, to: instantFromMs(anchorMs + DAY_MS), limit: sample.limit, small: 0, big, density }, [])).found;
}

/** Why a check that needs `count` distinct instants cannot run on this sample, or undefined when it can. */
export function notEnoughRows(sample: LedgerSample, count: number): string | undefined {
  if (sample.known === undefined) return sample.why ?? 'no known rows';
  if (sample.known.groups.length < count) {
    return `the target's ledger shows ${sample.known.groups.length} distinct timestamps before its newest row; this check needs ${count}`;
  }
  return undefined;
}

/**
 * Pages a walk of `rows` rows takes at `limit` on this target: the target's own page size counts
 * (short pages or a cap make more pages), with as many again for pages that vary (a short walk
 * of pages of any size between 1 and `limit` may meet a run of small ones), and room for an empty
 * last page and a few rows recorded since. An upper bound: a walk ends on its own.
 */
export function pagesFor(sample: Pick<LedgerSample, 'pageFill'>, rows: number, limit: number): number {
  const perPage = Math.max(1, limit * sample.pageFill);
  return Math.ceil((2 * (rows + 1)) / perPage) + 4;
}
