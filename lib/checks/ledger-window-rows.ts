import type { Exchange } from '../model/exchange.ts';
import { fail, inconclusive, pass, type Finding } from '../model/finding.ts';
import { describeResponse } from './json-body.ts';
import { compareInstants, formatInstant, type Instant } from './ledger-instant.ts';
import { describeRows, rowSetDifference, type LedgerRow } from './ledger-page.ts';
import { isComplete, walkExchanges, type Walk } from './ledger-walk.ts';
import { judged } from './judged.ts';

export const FROM_INCLUSIVE = 'ledger/4.1/from-inclusive';
export const TO_EXCLUSIVE = 'ledger/4.1/to-exclusive';
export const WALK_COMPLETE = 'ledger/4.1/walk-complete';

export interface ExactWindow {
  from: Instant;
  to: Instant;
}

function windowText(w: ExactWindow): string {
  return `[${formatInstant(w.from)}, ${formatInstant(w.to)})`;
}

/** A short reason a walk could not be judged, or undefined when it reached its last page. */
export function walkTrouble(walk: Walk): string | undefined {
  if (isComplete(walk)) return undefined;
  const last = walk.pages[walk.pages.length - 1]?.exchange;
  return `the walk ended with ${walk.end}${last === undefined ? '' : ` (${describeResponse(last)})`}`;
}

/**
 * The window rules of §4.1 on a walk of [from, to) whose bounds were written with `Z`, against the
 * known rows of that window: a row at `from` must be there and nothing before it
 * (from-inclusive); nothing at or after `to` (to-exclusive); every known row in between, and no
 * other (walk-complete).
 */
export const windowFindings = judged('ledger-window-rows/windowFindings', function windowFindings(walk: Walk, window: ExactWindow, expected: readonly LedgerRow[]): Finding[] {
  const ex = walkExchanges(walk);
  const trouble = walkTrouble(walk);
  if (walk.end === 'refused') {
    const first = ex[0]!;
    const why = `200 with the rows of ${windowText(window)}`;
    return [fail(FROM_INCLUSIVE, why, describeResponse(first), ex), fail(TO_EXCLUSIVE, why, describeResponse(first), ex)];
  }
  const before = walk.rows.filter((r) => r.instant !== undefined && compareInstants(r.instant, window.from) < 0);
  const atOrAfter = walk.rows.filter((r) => r.instant !== undefined && compareInstants(r.instant, window.to) >= 0);
  const listed = new Set(walk.rows.map((r) => r.key));
  const atFromMissing = expected.filter((r) => r.instant !== undefined && compareInstants(r.instant, window.from) === 0 && !listed.has(r.key));
  const findings: Finding[] = [];

  if (before.length > 0) {
    findings.push(fail(FROM_INCLUSIVE, `no row before from=${formatInstant(window.from)}`, `${before.length} earlier rows: ${describeRows(before)}`, ex));
  } else if (atFromMissing.length > 0 && trouble === undefined) {
    findings.push(fail(FROM_INCLUSIVE, `the rows stamped exactly from=${formatInstant(window.from)} listed (inclusive bound)`, `missing: ${describeRows(atFromMissing)}`, ex));
  } else if (atFromMissing.length > 0) {
    findings.push(inconclusive(FROM_INCLUSIVE, trouble!, ex));
  } else {
    findings.push(pass(FROM_INCLUSIVE, ex));
  }

  if (atOrAfter.length > 0) {
    const atTo = atOrAfter.filter((r) => compareInstants(r.instant!, window.to) === 0);
    const what = atTo.length > 0 ? `${atTo.length} rows stamped exactly to: ${describeRows(atTo)}` : `${atOrAfter.length} later rows: ${describeRows(atOrAfter)}`;
    findings.push(fail(TO_EXCLUSIVE, `no row at or after to=${formatInstant(window.to)} (exclusive bound)`, what, ex));
  } else {
    findings.push(pass(TO_EXCLUSIVE, ex));
  }

  if (trouble === undefined) {
    // Rows inside the window that an earlier walk listed must be here too (rows are not removed).
    const inside = (r: LedgerRow): boolean => r.instant !== undefined && compareInstants(r.instant, window.from) > 0 && compareInstants(r.instant, window.to) < 0;
    const { missing } = rowSetDifference(walk.rows.filter(inside), expected.filter(inside));
    if (missing.length > 0) findings.push(gapFinding(window, missing, ex));
  }
  return findings;
});

function gapFinding(window: ExactWindow, missing: LedgerRow[], ex: Exchange[]): Finding {
  return fail(WALK_COMPLETE, `every row of ${windowText(window)} that an earlier walk listed`, `missing ${missing.length}: ${describeRows(missing)}`, ex);
}
