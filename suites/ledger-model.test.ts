import { describe } from 'vitest';
import { ledgerQuery } from '../lib/arbitraries/ledger-query.ts';
import { EXPLICIT_MARGIN_MS, DEFAULT_WINDOW_TOLERANCE_S, notEnoughRows, pagesFor } from '../lib/checks/ledger-discovery.ts';
import { pageSchemaFailures } from '../lib/checks/ledger-page-schema.ts';
import { mayRowCount, modelFindings, modelWindow, notDrawnFinding, PARAMETER_COMBINATIONS, queryModelOf, type ModelQuery, type QueryModel } from '../lib/checks/ledger-query-model.ts';
import { BOUND_FORMS, coveringQueries, querySpaceOf } from '../lib/checks/ledger-query-space.ts';
import { isComplete, walkExchanges, walkLedger } from '../lib/checks/ledger-walk.ts';
import { pageLimitFindings, walkEndFindings } from '../lib/checks/ledger-walk-findings.ts';
import { inconclusive } from '../lib/model/finding.ts';
import { LEDGER_LIMIT_DEFAULT } from '../lib/spec-constants.ts';
import { checkProperty } from '../lib/suite/property.ts';
import { requirementTest } from '../lib/suite/requirement-test.ts';
import { fittingLimit, ledgerSample, pagesOf, readPool } from '../lib/suite/ledger-kit.ts';

/** Pages a walk's limit is fitted to: small limits make page boundaries, and every walk stays short. */
const FIT_PAGES = 5;
/** Pages any one walk may take (a page cap or short pages make more than planned; a walk stopped here judges the pages it read). */
const MAX_PAGES = 12;
/** Rows a window may gain after discovery (other suites' messages, other clients), on top of those the model knows. */
const ROWS_SINCE = 10;
/**
 * Pages of a default window discovery could not walk whole (a busy ledger): it is judged on its
 * first pages (no row outside the window), and a missing row is not judged.
 */
const BUSY_DEFAULT_PAGES = 2;
/** Random combinations after the covering ones. */
const RANDOM_RUNS = 12;

/**
 * The query sent for a drawn one: its limit raised where the window holds more known rows than
 * FIT_PAGES pages of it list, so that any drawn limit keeps the walk short on any ledger.
 */
function fitted(model: QueryModel, query: ModelQuery, nowMs: number): ModelQuery {
  if (query.limit === undefined) return query;
  const window = modelWindow(query, { startMs: nowMs, endMs: nowMs });
  const rows = window === undefined ? 0 : mayRowCount(model, window, query.feature);
  return { ...query, limit: fittingLimit(query.limit, rows, FIT_PAGES) };
}

describe('§4.1 GET /credits/operations: the valid query space against a model', () => {
  // > Query parameters (all optional): ... | from | ... | Parsed from `YYYY-MM-DD` or RFC 3339, with or without offset. |
  // > | feature | ... | Filter by feature. | cursor | ... | Pass back exactly the value returned earlier in `next_cursor`. |
  // > When neither bound is given, the window is the last 30 days.
  requirementTest(
    PARAMETER_COMBINATIONS,
    'from and to in each accepted form (Z, ±hh:mm, without offset, YYYY-MM-DD), each alone, or neither, with and without feature and limit, each walked through its cursors against a model of the known rows',
    async (kit) => {
      const sample = await ledgerSample(kit);
      const why = notEnoughRows(sample, 3);
      if (why !== undefined) return [inconclusive(PARAMETER_COMBINATIONS, why)];
      const model = queryModelOf(sample);
      // The default window is placed on the server's clock; one too far off the harness's is left out.
      const clockUsable = Math.abs(sample.clockOffsetMs) <= EXPLICIT_MARGIN_MS - DEFAULT_WINDOW_TOLERANCE_S * 1000;
      const space = querySpaceOf(model, { defaultWindow: clockUsable });
      const now = (): number => Date.now() + model.clockOffsetMs;
      const fetch = pagesOf(kit);
      const examples = coveringQueries(space, model).map((q) => fitted(model, q, now()));
      const arbitrary = ledgerQuery(space).map((q) => fitted(model, q, now()));
      const findings = await checkProperty(
        PARAMETER_COMBINATIONS,
        arbitrary,
        async (query) => {
          const planned = modelWindow(query, { startMs: now(), endMs: now() });
          const rows = planned === undefined ? 0 : mayRowCount(model, planned, query.feature);
          const unbounded = query.from === undefined && !isComplete(sample.explicitWalk);
          const maxPages = unbounded ? BUSY_DEFAULT_PAGES : Math.min(MAX_PAGES, pagesFor(sample, rows + ROWS_SINCE, query.limit ?? LEDGER_LIMIT_DEFAULT));
          const startMs = now();
          const walk = await walkLedger(fetch, query, { maxPages });
          const window = modelWindow(query, { startMs, endMs: now() })!;
          return [...modelFindings(walk, window, model), ...walkEndFindings(walk), ...pageLimitFindings(walk), ...pageSchemaFailures(walkExchanges(walk), readPool(kit))];
        },
        { numRuns: examples.length + RANDOM_RUNS, maxShrinkRequests: 30, independent: true, examples },
      );
      const missing = BOUND_FORMS.filter((f) => !space.pairs.some(([a, b]) => a === f || b === f));
      if (missing.length === 0 && space.defaultWindow) return findings;
      // Say which parts of the space this target's known rows could not reach.
      const left = [
        ...(missing.length > 0 ? [`bounds written ${missing.join(', ')} (the known rows span too little time for a window valid in every zone)`] : []),
        ...(space.defaultWindow ? [] : ["the default window (the server's clock is too far off the harness's)"]),
      ];
      return [...findings, notDrawnFinding(PARAMETER_COMBINATIONS, left)];
    },
  );
});
