import { fail, inconclusive, pass, type Finding } from '../model/finding.ts';
import { describeResponse } from './json-body.ts';
import { describeRows, rowSetDifference, type LedgerRow } from './ledger-page.ts';
import { isComplete, queryText, walkExchanges, type Walk } from './ledger-walk.ts';
import { walkTrouble } from './ledger-window-rows.ts';
import { judged } from './judged.ts';

export const FEATURE_FILTER = 'ledger/4.1/feature-filter';

/**
 * > feature | string | Length 1 to 64. | Filter by feature.
 * Every row of every page has exactly that feature, and (when the rows of the window are known)
 * every row of the window with that feature is listed.
 */
export const featureFilterFindings = judged('ledger-feature-filter/featureFilterFindings', function featureFilterFindings(walk: Walk, feature: string, expected: readonly LedgerRow[] | undefined): Finding[] {
  const ex = walkExchanges(walk);
  const wrongPage = walk.pages.findIndex((p) => p.rows.some((r) => r.feature !== feature));
  if (wrongPage !== -1) {
    const wrong = walk.pages[wrongPage]!.rows.filter((r) => r.feature !== feature);
    return [fail(FEATURE_FILTER, `only rows with feature exactly ${JSON.stringify(feature)}`, `page ${wrongPage + 1} lists ${wrong.length} other rows: ${describeRows(wrong)}`, ex)];
  }
  // A valid filter refused is not served: that fails too (a 503 is an outage the spec allows, and
  // a 429 one the pacer could not wait out: both leave the walk unjudged, as in the other walks).
  const status = ex[0]?.response?.status;
  if (walk.end === 'refused' && status !== 503 && status !== 429) {
    return [fail(FEATURE_FILTER, `200 with the rows of feature ${JSON.stringify(feature)} (${queryText(walk.query)})`, describeResponse(ex[0]!), ex)];
  }
  if (!isComplete(walk)) return [inconclusive(FEATURE_FILTER, walkTrouble(walk)!, ex)];
  if (expected === undefined) return [pass(FEATURE_FILTER, ex)];
  const { missing } = rowSetDifference(walk.rows, expected);
  if (missing.length > 0) {
    return [fail(FEATURE_FILTER, `every row of the window with feature ${JSON.stringify(feature)} (${expected.length} rows)`, `missing ${missing.length}: ${describeRows(missing)}`, ex)];
  }
  return [pass(FEATURE_FILTER, ex)];
});
