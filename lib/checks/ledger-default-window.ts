import { fail, inconclusive, pass, type Finding } from '../model/finding.ts';
import { DEFAULT_WINDOW_DAYS } from '../spec-constants.ts';
import { describeResponse } from './json-body.ts';
import { DEFAULT_WINDOW_TOLERANCE_S, EXPLICIT_MARGIN_MS, type LedgerSample } from './ledger-discovery.ts';
import { compareInstants, formatInstant, instantFromMs, type Instant } from './ledger-instant.ts';
import { describeRows, uniqueByKey, type LedgerRow } from './ledger-page.ts';
import { isComplete, walkExchanges } from './ledger-walk.ts';
import { judged } from './judged.ts';

export const DEFAULT_WINDOW = 'ledger/4.1/default-window-30-days';
const DAY_MS = 86_400_000;
/**
 * "The last 30 days" read as calendar days, in any zone, starts within a day of 30 × 24 hours
 * before the request: today and the 29 days before it start up to a day later, the 30 days before
 * today (and today) up to a day earlier.
 */
const CALENDAR_SLACK_MS = DAY_MS;

function between(r: LedgerRow, from: Instant, to: Instant): boolean {
  return r.instant !== undefined && compareInstants(r.instant, from) >= 0 && compareInstants(r.instant, to) < 0;
}

/**
 * What "the last 30 days" can mean for a request the server received between `startMs` and
 * `endMs` (its clock, Unix ms): every reading of the window (calendar days in any zone, and
 * DEFAULT_WINDOW_TOLERANCE_S for the seconds requests take) lies inside [earliest, latest) and
 * covers [insideFrom, insideTo): from 29 days old to the request.
 */
export interface DefaultWindowReadings {
  earliest: Instant;
  latest: Instant;
  insideFrom: Instant;
  insideTo: Instant;
}

export function defaultWindowReadings(startMs: number, endMs: number): DefaultWindowReadings {
  const toleranceMs = DEFAULT_WINDOW_TOLERANCE_S * 1000;
  return {
    earliest: instantFromMs(startMs - DEFAULT_WINDOW_DAYS * DAY_MS - CALENDAR_SLACK_MS - toleranceMs),
    latest: instantFromMs(endMs + toleranceMs),
    insideFrom: instantFromMs(endMs - DEFAULT_WINDOW_DAYS * DAY_MS + CALENDAR_SLACK_MS + toleranceMs),
    insideTo: instantFromMs(startMs - toleranceMs),
  };
}

/**
 * > When neither bound is given, the window is the last 30 days.
 *
 * Judged at both edges on the server's clock (HTTP Date header), allowing any calendar reading of
 * "30 days" and DEFAULT_WINDOW_TOLERANCE_S for the seconds requests take:
 * - no row the default window lists, on any page the harness read, is older than 31 days or later
 *   than the request;
 * - every row from 29 days old to just before the request that an earlier walk listed (the last 30
 *   days written with bounds, when discovery walked it whole, and the recent known window) is in
 *   the default window, when the harness walked it whole.
 * A busy ledger's default window is not walked whole: its first pages are judged for rows out of
 * the window, and the recent known rows they list are counted.
 */
export const defaultWindowFindings = judged('ledger-default-window/defaultWindowFindings', function defaultWindowFindings(sample: LedgerSample): Finding[] {
  const d = sample.defaultWalk;
  const first = d.pages[0]?.exchange;
  if (first === undefined) return [inconclusive(DEFAULT_WINDOW, 'no request without bounds was sent')];
  if (d.end === 'refused') return [fail(DEFAULT_WINDOW, '200 with a page for GET /credits/operations without bounds', describeResponse(first), [first])];
  const toleranceMs = DEFAULT_WINDOW_TOLERANCE_S * 1000;
  if (Math.abs(sample.clockOffsetMs) > EXPLICIT_MARGIN_MS - toleranceMs) {
    return [inconclusive(DEFAULT_WINDOW, `the server's clock (Date header) is ${Math.round(sample.clockOffsetMs / 1000)} s off the harness's: too far to compare windows`, [first])];
  }
  const start = sample.defaultStartedMs + sample.clockOffsetMs;
  const end = sample.defaultEndedMs + sample.clockOffsetMs;
  const { earliest: oldestAllowed, latest: newestAllowed, insideFrom, insideTo } = defaultWindowReadings(start, end);
  const listed = uniqueByKey(d.rows);
  const tooOld = listed.filter((r) => r.instant !== undefined && compareInstants(r.instant, oldestAllowed) < 0);
  const future = listed.filter((r) => r.instant !== undefined && compareInstants(r.instant, newestAllowed) >= 0);
  const ex = walkExchanges(d).slice(0, 3);
  const findings: Finding[] = [];
  if (tooOld.length > 0) {
    findings.push(fail(DEFAULT_WINDOW, `rows of the last 30 days only (none before ${formatInstant(oldestAllowed)}: 31 days, allowing calendar days and ${DEFAULT_WINDOW_TOLERANCE_S} s)`, `${tooOld.length} older rows: ${describeRows(tooOld)}`, ex));
  }
  if (future.length > 0) {
    findings.push(fail(DEFAULT_WINDOW, `no row after the time of the request (${formatInstant(newestAllowed)}, allowing ${DEFAULT_WINDOW_TOLERANCE_S} s)`, `${future.length} later rows: ${describeRows(future)}`, ex));
  }

  // Rows an earlier walk listed well inside every reading of the window.
  const known = [...(isComplete(sample.explicitWalk) ? sample.explicitWalk.rows : []), ...(sample.known?.rows ?? [])];
  const expected = uniqueByKey(known.filter((r) => between(r, insideFrom, insideTo)));
  const keys = new Set(listed.map((r) => r.key));
  const missing = expected.filter((r) => !keys.has(r.key));
  const whole = isComplete(d);
  if (whole && missing.length > 0) {
    findings.push(
      fail(
        DEFAULT_WINDOW,
        `every row of ${formatInstant(insideFrom)} .. ${formatInstant(insideTo)} (29 days old to the request) in the default window`,
        `${missing.length} rows an earlier walk with bounds listed are missing from the default window: ${describeRows(missing)}`,
        ex,
      ),
    );
  }
  if (findings.length > 0) return findings;
  if (listed.length === 0 && expected.length === 0) return [inconclusive(DEFAULT_WINDOW, 'the ledger shows no row in the last 30 days: nothing to tell the windows apart', [first])];
  // Pages that stop short of an edge leave it unseen: say which edges they reach, never imply both.
  const nearOldEdge = instantFromMs(end - (DEFAULT_WINDOW_DAYS - 1) * DAY_MS);
  const nearNewEdge = instantFromMs(start - DAY_MS);
  const reachedOld = listed.some((r) => r.instant !== undefined && compareInstants(r.instant, nearOldEdge) < 0);
  const reachedNew = listed.some((r) => r.instant !== undefined && compareInstants(r.instant, nearNewEdge) >= 0);
  const edgeNames = [reachedOld ? 'the old edge (rows over 29 days old)' : undefined, reachedNew ? 'the new edge (rows under a day old)' : undefined].filter((e) => e !== undefined);
  const edges =
    edgeNames.length === 2
      ? 'they reach both edges of the window'
      : `they reach ${edgeNames[0] ?? 'neither edge'} only (the order of rows is not fixed), so only that edge was judged`;
  const note = whole
    ? `${listed.length} rows, walked whole; ${expected.length} rows known from walks with bounds all listed`
    : `the first ${d.pages.length} pages (${listed.length} rows) hold no row out of the window; ${edges}; the rest was not walked (request budget), so a missing row is not judged; ` +
      `${expected.length - missing.length} of ${expected.length} rows known from walks with bounds were among them`;
  return [pass(DEFAULT_WINDOW, [first], note)];
});
