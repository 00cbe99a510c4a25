import type { Exchange } from '../model/exchange.ts';
import { fail, inconclusive, pass, type Finding } from '../model/finding.ts';
import { describeResponse } from './json-body.ts';
import { defaultWindowReadings } from './ledger-default-window.ts';
import type { LedgerSample } from './ledger-discovery.ts';
import { compareInstants, formatInstant, readBound, type Instant } from './ledger-instant.ts';
import { describeRows, duplicateKeys, uniqueByKey, type LedgerRow } from './ledger-page.ts';
import { isComplete, queryText, walkExchanges, type LedgerQuery, type Walk } from './ledger-walk.ts';
import { judged } from './judged.ts';

export const PARAMETER_COMBINATIONS = 'ledger/4.1/parameter-combinations';

/**
 * A stretch of time whose rows a walk listed to its end: every row stamped in [from, to) as the
 * ledger stood then. Rows are not removed from a ledger, so each must be listed by any later
 * window that holds its instant in every reading.
 */
export interface KnownRegion {
  from: Instant;
  to: Instant;
  rows: readonly LedgerRow[];
}

/** What the harness knows of the target's ledger: the regions discovery walked whole, and the server's clock. */
export interface QueryModel {
  regions: KnownRegion[];
  /** Server clock minus harness clock (Unix ms), for the default window. */
  clockOffsetMs: number;
}

/** A query as the model reads it and the harness sends it (`limit` a number, every key optional). */
export interface ModelQuery {
  from?: string;
  to?: string;
  feature?: string;
  limit?: number;
}

/**
 * The window of a query in every reading the spec allows: each lies inside [mayFrom, mayTo) and
 * covers [mustFrom, mustTo) (empty when mustFrom is not before mustTo).
 */
export interface ModelWindow {
  mayFrom: Instant;
  mayTo: Instant;
  mustFrom: Instant;
  mustTo: Instant;
  /** The window as a finding names it. */
  text: string;
}

function dated(rows: readonly LedgerRow[]): Array<LedgerRow & { instant: Instant }> {
  return uniqueByKey(rows).filter((r): r is LedgerRow & { instant: Instant } => r.instant !== undefined);
}

/**
 * The model of a discovery: the known window (rows before its newest instant), and the last 30
 * days written with bounds when discovery walked them to the end (rows before the newest it
 * listed: later ones may have been added since).
 */
export function queryModelOf(sample: LedgerSample): QueryModel {
  const regions: KnownRegion[] = [];
  if (sample.known !== undefined && sample.known.groups.length > 0) {
    regions.push({ from: sample.known.groups[0]!.instant, to: sample.known.stableBefore, rows: sample.known.rows });
  }
  if (isComplete(sample.explicitWalk)) {
    const rows = dated(sample.explicitWalk.rows);
    if (rows.length > 0) {
      const newest = rows.reduce((n, r) => (compareInstants(r.instant, n) > 0 ? r.instant : n), rows[0]!.instant);
      regions.push({ from: sample.explicitFrom, to: newest, rows: rows.filter((r) => compareInstants(r.instant, newest) < 0) });
    }
  }
  return { regions, clockOffsetMs: sample.clockOffsetMs };
}

/** Before and after every row a ledger can hold: the side a query leaves open. */
const OPEN_BEFORE: Instant = { seconds: -1e13, fraction: '' };
const OPEN_AFTER: Instant = { seconds: 1e13, fraction: '' };

/**
 * A window with one bound: the parameters are all optional (§4.1), so the query is valid, and each
 * bound keeps its meaning (the inclusive lower, the exclusive upper bound of the window). How far
 * the other side reaches (now, the last 30 days, all time) is not fixed: no row is required.
 */
function oneBoundWindow(query: LedgerQuery): ModelWindow | undefined {
  const text = query.from ?? query.to;
  const bound = text === undefined ? undefined : readBound(text);
  if (bound === undefined) return undefined;
  const exact = bound.form !== 'offsetless' && bound.form !== 'date';
  const zones = exact ? '' : ` read in any zone: ${query.from === undefined ? `before ${formatInstant(bound.latest)}` : `from ${formatInstant(bound.earliest)}`}`;
  if (query.from !== undefined) {
    return { mayFrom: bound.earliest, mayTo: OPEN_AFTER, mustFrom: bound.latest, mustTo: bound.latest, text: `[${query.from}, …) with no to${zones}` };
  }
  return { mayFrom: OPEN_BEFORE, mayTo: bound.latest, mustFrom: bound.earliest, mustTo: bound.earliest, text: `[…, ${text}) with no from${zones}` };
}

/**
 * The window a query names, in every reading: both bounds as `readBound` reads them (a date or a
 * date-time without offset in any zone), or, without bounds, the last 30 days of a request the
 * server received between `atMs.startMs` and `atMs.endMs` (its clock); with one bound, that side
 * only (oneBoundWindow). Undefined for a query with a bound no form reads.
 */
export function modelWindow(query: LedgerQuery, atMs: { startMs: number; endMs: number }): ModelWindow | undefined {
  if (query.from === undefined && query.to === undefined) {
    const d = defaultWindowReadings(atMs.startMs, atMs.endMs);
    return {
      mayFrom: d.earliest,
      mayTo: d.latest,
      mustFrom: d.insideFrom,
      mustTo: d.insideTo,
      text: `the last 30 days (no from or to) at ${formatInstant(d.insideTo)}`,
    };
  }
  if (query.from === undefined || query.to === undefined) return oneBoundWindow(query);
  const from = readBound(query.from);
  const to = readBound(query.to);
  if (from === undefined || to === undefined) return undefined;
  const exact = from.form !== 'offsetless' && from.form !== 'date' && to.form !== 'offsetless' && to.form !== 'date';
  const span = exact
    ? `[${query.from}, ${query.to})`
    : `[${query.from}, ${query.to}) read in any zone: within [${formatInstant(from.earliest)}, ${formatInstant(to.latest)})`;
  return { mayFrom: from.earliest, mayTo: to.latest, mustFrom: from.latest, mustTo: to.earliest, text: span };
}

function inRange(r: LedgerRow, from: Instant, to: Instant): boolean {
  return r.instant !== undefined && compareInstants(r.instant, from) >= 0 && compareInstants(r.instant, to) < 0;
}

function hasFeature(r: LedgerRow, feature: string | undefined): boolean {
  return feature === undefined || r.feature === feature;
}

/** Known rows every reading of the window holds, with the feature: a walk must list each. */
export function mustRows(model: QueryModel, window: ModelWindow, feature: string | undefined): LedgerRow[] {
  return uniqueByKey(model.regions.flatMap((g) => g.rows.filter((r) => inRange(r, window.mustFrom, window.mustTo) && hasFeature(r, feature))));
}

/** Known rows some reading of the window may hold, with the feature: what a walk is sized for. */
export function mayRowCount(model: QueryModel, window: ModelWindow, feature: string | undefined): number {
  return uniqueByKey(model.regions.flatMap((g) => g.rows.filter((r) => inRange(r, window.mayFrom, window.mayTo) && hasFeature(r, feature)))).length;
}

/** Exchanges up to and including page `index`, that page last: the curl line a finding prints is its own. */
function upTo(walk: Walk, index: number): Exchange[] {
  return walkExchanges(walk).slice(0, index + 1);
}

/**
 * > Query parameters (all optional): ... Parsed from `YYYY-MM-DD` or RFC 3339, with or without offset.
 * > ... Filter by feature. ... Pass back exactly the value returned earlier in `next_cursor`.
 * > When neither bound is given, the window is the last 30 days.
 *
 * One valid combination walked through its cursors, against the model: every page 200, each row
 * once, no row outside every reading of the window or of another feature, and, once the walk
 * ended, every known row that every reading holds. Rows the model does not know inside the
 * window (recorded late, or outside the regions discovery walked) are allowed. A 503 (an outage
 * the spec allows) or a 429 leaves the combination unjudged.
 */
export const modelFindings = judged('ledger-query-model/modelFindings', function modelFindings(walk: Walk, window: ModelWindow, model: QueryModel): Finding[] {
  const ex = walkExchanges(walk);
  const query = queryText(walk.query);
  const feature = walk.query.feature;
  const last = walk.pages[walk.pages.length - 1];
  if ((walk.end === 'refused' || walk.end === 'cursor-refused') && last !== undefined) {
    const status = last.exchange.response?.status;
    if (status === 503 || status === 429) return [inconclusive(PARAMETER_COMBINATIONS, `${query}: ${describeResponse(last.exchange)}`, ex)];
    const which = walk.end === 'refused' ? 'the first page' : `page ${walk.pages.length} (a next_cursor passed back)`;
    return [fail(PARAMETER_COMBINATIONS, `200 on every page for a valid combination: ${query}`, `${which}: ${describeResponse(last.exchange)}`, ex)];
  }
  const dupes = duplicateKeys(walk.rows).map((k) => walk.rows.find((r) => r.key === k)!);
  // A window without `to` reaches now and grows while it is walked (other clients write): an
  // offset cursor then repeats a row, which is the SHOULD no-repeat-under-growth, not this MUST.
  const growing = walk.query.to === undefined;
  if (dupes.length > 0 && !growing) {
    return [fail(PARAMETER_COMBINATIONS, `each row of ${window.text} once (${query})`, `${dupes.length} rows listed more than once: ${describeRows(dupes)}`, ex)];
  }
  for (let i = 0; i < walk.pages.length; i++) {
    const rows = walk.pages[i]!.rows;
    const outside = rows.filter((r) => r.instant !== undefined && !inRange(r, window.mayFrom, window.mayTo));
    if (outside.length > 0) {
      return [fail(PARAMETER_COMBINATIONS, `only rows of ${window.text} (${query})`, `page ${i + 1} lists ${outside.length} rows outside it: ${describeRows(outside)}`, upTo(walk, i))];
    }
    const other = rows.filter((r) => !hasFeature(r, feature));
    if (other.length > 0) {
      return [fail(PARAMETER_COMBINATIONS, `only rows with feature ${JSON.stringify(feature)} (${query})`, `page ${i + 1} lists ${other.length} rows of other features: ${describeRows(other)}`, upTo(walk, i))];
    }
  }
  if (!isComplete(walk)) {
    if (walk.end !== 'page-cap') return [inconclusive(PARAMETER_COMBINATIONS, `${query}: the walk ended with ${walk.end}, judged under its own requirement`, ex)];
    return [pass(PARAMETER_COMBINATIONS, ex, `${query}: the first ${walk.pages.length} pages (the request budget) hold only rows of the window; a missing row is not judged`)];
  }
  const expected = mustRows(model, window, feature);
  const listed = new Set(walk.rows.map((r) => r.key));
  const missing = expected.filter((r) => !listed.has(r.key));
  if (missing.length > 0) {
    return [
      fail(
        PARAMETER_COMBINATIONS,
        `every row of ${window.text}${feature === undefined ? '' : ` with feature ${JSON.stringify(feature)}`} (${query}): ${expected.length} known rows`,
        `missing ${missing.length}: ${describeRows(missing)}`,
        ex,
      ),
    ];
  }
  // Rows inside a known region that discovery did not list: recorded late, with an earlier timestamp.
  const known = new Set(model.regions.flatMap((g) => g.rows.map((r) => r.key)));
  const late = walk.rows.filter((r) => !known.has(r.key) && model.regions.some((g) => inRange(r, g.from, g.to)));
  const repeated = dupes.length > 0 ? `; ${dupes.length} rows listed twice while the window grew (no-repeat-under-growth's to judge): ${describeRows(dupes)}` : '';
  const note = `${query}: ${walk.rows.length} rows over ${walk.pages.length} pages, the ${expected.length} known rows among them${late.length > 0 ? `; ${late.length} rows discovery did not list (recorded since?): ${describeRows(late)}` : ''}${repeated}`;
  return [pass(PARAMETER_COMBINATIONS, ex, note)];
});

/**
 * What of the valid query space the run could not draw from on this target (bound forms its known
 * rows span too little time for, the default window when the clocks are too far apart): said as a
 * finding of its own, so that verify re-derives it like any other.
 */
export const notDrawnFinding = judged('ledger-query-model/notDrawnFinding', function notDrawnFinding(requirement: string, left: readonly string[]): Finding {
  return pass(requirement, [], `not drawn: ${left.join('; ')}`);
});
