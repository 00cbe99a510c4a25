import fc from 'fast-check';
import { describe } from 'vitest';
import { rowWindow, type RowWindow } from '../lib/arbitraries/row-window.ts';
import { notEnoughRows, pagesFor } from '../lib/checks/ledger-discovery.ts';
import { largestTie, rowsBetween, tiedGroupIndices, windowBounds } from '../lib/checks/ledger-known-rows.ts';
import { pageSchemaFailures } from '../lib/checks/ledger-page-schema.ts';
import { walkExchanges, walkLedger } from '../lib/checks/ledger-walk.ts';
import { NO_CURSOR_TO_EMPTY_PAGE, NULL_CURSOR_ON_LAST_PAGE, PAGE_SIZE_INDEPENDENT, pageLimitFindings, pageSizeFindings, tiesNotReachedFindings, walkCompleteFindings, walkEndFindings } from '../lib/checks/ledger-walk-findings.ts';
import { WALK_COMPLETE } from '../lib/checks/ledger-window-rows.ts';
import { inconclusive, type Finding } from '../lib/model/finding.ts';
import { LEDGER_LIMIT_MAX } from '../lib/spec-constants.ts';
import { checkProperty } from '../lib/suite/property.ts';
import { requirementTest } from '../lib/suite/requirement-test.ts';
import { fittingLimit, ledgerSample, pagesOf, readPool } from '../lib/suite/ledger-kit.ts';

/** Small limits make many page boundaries; 40 pages bound the walk of a window of a dozen rows. */
const SMALL_WALK_PAGES = 40;

describe('§4.1 GET /credits/operations: walking the cursors', () => {
  // > Returns a paginated raw ledger of credit operations for a time window.
  // > | next_cursor | string or null | yes | Opaque cursor for the next page. It is null when there is no further page. |
  requirementTest(
    [WALK_COMPLETE, PAGE_SIZE_INDEPENDENT, NULL_CURSOR_ON_LAST_PAGE, NO_CURSOR_TO_EMPTY_PAGE],
    'walks of windows of known rows at limits 1 to 7, against the known rows and a walk at limit=200',
    async (kit) => {
      const sample = await ledgerSample(kit);
      // The discovery walks (limit=200) that reached their end ended properly too.
      const walks = new Set([sample.explicitWalk, sample.defaultWalk, ...(sample.knownWalk === undefined ? [] : [sample.knownWalk])]);
      const discovered = [...walks].flatMap(walkEndFindings);
      const why = notEnoughRows(sample, 3);
      if (why !== undefined) return [...discovered, ...kit.ids.map((id) => inconclusive(id, why))];
      const known = sample.known!;
      const fetch = pagesOf(kit);
      // Up to stableBefore: a window can hold the newest known group, whose rows may share an instant too.
      const bounds = windowBounds(known);
      const probe = async ({ window, limit }: { window: RowWindow; limit: number }): Promise<Finding[]> => {
        const from = bounds[window.start]!;
        const to = bounds[window.end]!;
        const query = { from: from.text, to: to.text };
        const expected = rowsBetween(known, from.instant, to.instant);
        // The large walk first: a row the small walk then lacks was dropped, not recorded late.
        const large = await walkLedger(fetch, { ...query, limit: LEDGER_LIMIT_MAX }, { maxPages: pagesFor(sample, expected.length, LEDGER_LIMIT_MAX) });
        const small = await walkLedger(fetch, { ...query, limit: fittingLimit(limit, expected.length, SMALL_WALK_PAGES) }, { maxPages: SMALL_WALK_PAGES });
        return [
          ...walkEndFindings(small),
          ...walkCompleteFindings(small, expected),
          ...pageSizeFindings(small, large),
          ...pageLimitFindings(small),
          ...pageSchemaFailures([...walkExchanges(large), ...walkExchanges(small)], readPool(kit)),
        ];
      };
      const count = bounds.length;
      // First the instant most rows share, at limit 1: a page boundary falls between those rows. The
      // property's first input, walked beside the drawn ones: at limit 1 it is the longest walk.
      const tie = largestTie(known);
      const start = tie === undefined ? undefined : Math.min(tie, count - 2);
      const examples = start === undefined ? [] : [{ window: { start, end: Math.min(start + 2, count - 1) }, limit: 1 }];
      const arbitrary = fc.record({ window: rowWindow(count, { minSpan: 2, maxSpan: 8, focus: tiedGroupIndices(known) }), limit: fc.integer({ min: 1, max: 7 }) });
      const walked = await checkProperty(WALK_COMPLETE, arbitrary, probe, { numRuns: 8 + examples.length, maxShrinkRequests: 40, independent: true, examples });
      return [...discovered, ...walked, ...tiesNotReachedFindings(known)];
    },
  );
});
