import { fail, inconclusive, pass, type Finding } from '../model/finding.ts';
import { describeRows, rowSetDifference } from './ledger-page.ts';
import { isComplete, walkExchanges, type Walk } from './ledger-walk.ts';
import { walkTrouble } from './ledger-window-rows.ts';
import { judged } from './judged.ts';

export const WINDOW_ADDITIVE = 'ledger/4.1/window-additive';

/**
 * > from | Inclusive lower bound of the window. | to | Exclusive upper bound of the window.
 * The rows of [a, c) are the rows of [a, b) and of [b, c), and no row is in both: a row stamped
 * exactly b belongs to the right window only.
 */
export const additivityFindings = judged('ledger-additivity/additivityFindings', function additivityFindings(whole: Walk, left: Walk, right: Walk): Finding[] {
  const ex = [...walkExchanges(whole), ...walkExchanges(left), ...walkExchanges(right)];
  const broken = [whole, left, right].find((w) => !isComplete(w));
  if (broken !== undefined) return [inconclusive(WINDOW_ADDITIVE, walkTrouble(broken)!, ex)];
  const leftKeys = new Set(left.rows.map((r) => r.key));
  const both = right.rows.filter((r) => leftKeys.has(r.key));
  const { missing, extra } = rowSetDifference([...left.rows, ...right.rows], whole.rows);
  const problems = [
    ...(both.length > 0 ? [`${both.length} rows in both halves: ${describeRows(both)}`] : []),
    ...(missing.length > 0 ? [`${missing.length} rows of the whole window in neither half: ${describeRows(missing)}`] : []),
    ...(extra.length > 0 ? [`${extra.length} rows of the halves not in the whole window: ${describeRows(extra)}`] : []),
  ];
  const q = (w: Walk): string => `[${w.query.from ?? ''}, ${w.query.to ?? ''})`;
  if (problems.length > 0) return [fail(WINDOW_ADDITIVE, `rows of ${q(whole)} = rows of ${q(left)} + rows of ${q(right)}, none in both`, problems.join('; '), ex)];
  return [pass(WINDOW_ADDITIVE, ex)];
});
