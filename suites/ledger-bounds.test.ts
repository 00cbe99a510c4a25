import fc from 'fast-check';
import { describe } from 'vitest';
import { featureEdge } from '../lib/arbitraries/feature-edge.ts';
import { invalidLimit } from '../lib/arbitraries/invalid-limit.ts';
import { rowWindow } from '../lib/arbitraries/row-window.ts';
import { validLimit } from '../lib/arbitraries/valid-limit.ts';
import { acceptedFinding, observedFindings, refusalFindings } from '../lib/checks/ledger-acceptance.ts';
import { notEnoughRows, pagesFor } from '../lib/checks/ledger-discovery.ts';
import { FEATURE_FILTER, featureFilterFindings } from '../lib/checks/ledger-feature-filter.ts';
import { formatInstant } from '../lib/checks/ledger-instant.ts';
import { boundInstants, prefixProbe, rowsBetween, type KnownRows } from '../lib/checks/ledger-known-rows.ts';
import { uniqueByKey } from '../lib/checks/ledger-page.ts';
import { pageSchemaFailures } from '../lib/checks/ledger-page-schema.ts';
import { walkExchanges, walkLedger, type LedgerQuery, type PageFetcher, type Walk } from '../lib/checks/ledger-walk.ts';
import { defaultPageFindings, LIMIT_DEFAULT, PAGE_WITHIN_LIMIT, pageLimitFindings, walkCompleteFindings } from '../lib/checks/ledger-walk-findings.ts';
import { inconclusive, type Finding } from '../lib/model/finding.ts';
import { FEATURE_EDGES, LIMIT_EDGES, QUERY_ENCODINGS, type EdgeValue } from '../lib/domains/ledger-query-domains.ts';
import { LEDGER_LIMIT_DEFAULT, LEDGER_LIMIT_MAX, LEDGER_LIMIT_MIN } from '../lib/spec-constants.ts';
import { checkProperty } from '../lib/suite/property.ts';
import { requirementTest, type TestKit } from '../lib/suite/requirement-test.ts';
import { fittingLimit, ledgerSample, pagesOf, rawLedgerQuery, readPool, walkWhole } from '../lib/suite/ledger-kit.ts';

const LIMIT_BOUNDS = 'ledger/8.3/limit-bounds';
const LIMIT_INVALID = 'ledger/8.3/limit-invalid-400';
const FEATURE_BOUNDS = 'ledger/8.3/feature-bounds';
const FEATURE_INVALID = 'ledger/8.3/feature-invalid-400';
const FEATURE_EMPTY = 'ledger/8.3/feature-empty-400';
const OPEN_FORMS = 'ledger/4.1/open-query-forms';

/** The domain's edges of one fix, as the examples a property runs first. */
function edgesOf(table: readonly EdgeValue[], fix: EdgeValue['fix']): EdgeValue[] {
  return table.filter((e) => e.fix === fix);
}

async function knownRows(kit: TestKit, instants: number): Promise<KnownRows | Finding[]> {
  const sample = await ledgerSample(kit);
  const why = notEnoughRows(sample, instants);
  return why === undefined ? sample.known! : kit.ids.map((id) => inconclusive(id, why));
}

/** All known rows as one window: [oldest known instant, stableBefore). */
function wholeWindow(known: KnownRows): LedgerQuery {
  return { from: known.groups[0]!.text, to: formatInstant(known.stableBefore) };
}

/** Pages of the default window walked to compare its pages with and without limit. */
const DEFAULT_WINDOW_PAGES = 3;

/** The first page only, as a walk of one page (its limit and its schema are judged). */
function onePage(fetch: PageFetcher, query: LedgerQuery): Promise<Walk> {
  return walkLedger(fetch, query, { maxPages: 1 });
}

describe('§8.3 Parameter bounds: limit', () => {
  // > `limit` on the ledger: integer 1 to 200, default 50.
  requirementTest([LIMIT_BOUNDS, PAGE_WITHIN_LIMIT], 'limit=1, limit=200 and integers between over all known rows', async (kit) => {
    const known = (await ledgerSample(kit)).known;
    const fetch = pagesOf(kit);
    // Acceptance needs no known rows: without them the default window serves.
    const window = known === undefined ? {} : wholeWindow(known);
    const findings: Finding[] = [];
    const probe = async (limit: number): Promise<Finding[]> => {
      const walk = await onePage(fetch, { ...window, limit });
      return [acceptedFinding(LIMIT_BOUNDS, walk.pages[0]!.exchange, `limit=${limit}`), ...pageLimitFindings(walk), ...pageSchemaFailures(walkExchanges(walk), readPool(kit))];
    };
    findings.push(...(await Promise.all([LEDGER_LIMIT_MIN, LEDGER_LIMIT_MAX].map(probe))).flat());
    findings.push(...(await checkProperty(LIMIT_BOUNDS, validLimit({ min: 2, max: 120 }), probe, { numRuns: 4, maxShrinkRequests: 10, independent: true })));
    return findings;
  });

  // > `limit` on the ledger: integer 1 to 200, default 50. | 400 | Error envelope (validation failed). |
  requirementTest(LIMIT_INVALID, 'limit=0, limit=201, negatives, fractions, words and out-of-range spellings (0.0, -0, 201.0, 2e3)', async (kit) => {
    const fetch = pagesOf(kit);
    const probe = async (limit: string): Promise<Finding[]> => refusalFindings(LIMIT_INVALID, await fetch({ limit }, undefined));
    // Every refused edge of the domain first, then random ones.
    const examples = edgesOf(LIMIT_EDGES, 'refuse').map((e) => e.text);
    return checkProperty(LIMIT_INVALID, invalidLimit(), probe, { numRuns: examples.length + 4, maxShrinkRequests: 10, independent: true, examples });
  });

  // > `limit` on the ledger: integer 1 to 200, default 50.
  requirementTest(LIMIT_DEFAULT, 'no limit: the known rows walked whole, twice, against two walks at limit=50; or else the first pages of the default window so', async (kit) => {
    const sample = await ledgerSample(kit);
    const known = sample.known;
    const fetch = pagesOf(kit);
    // Two walks at limit=50 around two without: a default equals its explicit form, by comparison.
    const compared = async (window: LedgerQuery, maxPages: number, whole?: number): Promise<{ walk: Walk; findings: Finding[] }> => {
      const at50 = (): Promise<Walk> => walkLedger(fetch, { ...window, limit: LEDGER_LIMIT_DEFAULT }, { maxPages });
      const before = await at50();
      const walk = whole === undefined ? await walkLedger(fetch, window, { maxPages }) : await walkWhole(fetch, window, sample, whole);
      const again = await walkLedger(fetch, window, { maxPages });
      const after = await at50();
      const exchanges = [before, walk, again, after].flatMap(walkExchanges);
      return { walk, findings: [...pageLimitFindings(walk), ...pageLimitFindings(again), ...defaultPageFindings([walk, again], [before, after]), ...pageSchemaFailures(exchanges, readPool(kit))] };
    };
    if (known !== undefined && known.groups.length >= 2 && known.rows.length > LEDGER_LIMIT_DEFAULT) {
      // A walk without limit behaves as one with limit=50: no page above 50, every known row once.
      const { walk, findings } = await compared(wholeWindow(known), pagesFor(sample, known.rows.length, LEDGER_LIMIT_DEFAULT), known.rows.length);
      return [...findings, ...walkCompleteFindings(walk, known.rows, LIMIT_DEFAULT)];
    }
    // Fewer known rows than a page holds: the default window's first pages, when it holds more.
    if (uniqueByKey(sample.defaultWalk.rows).length > LEDGER_LIMIT_DEFAULT) return (await compared({}, DEFAULT_WINDOW_PAGES)).findings;
    return [inconclusive(LIMIT_DEFAULT, `the ledger shows ${sample.defaultWalk.rows.length} rows in the last 30 days; a page of more than ${LEDGER_LIMIT_DEFAULT} cannot show with fewer`)];
  });

  // > | limit | integer | 1 to 200, default 50. | Page size. |
  requirementTest(PAGE_WITHIN_LIMIT, 'random limits over all known rows', async (kit) => {
    const known = await knownRows(kit, 2);
    if (Array.isArray(known)) return known;
    const fetch = pagesOf(kit);
    const window = wholeWindow(known);
    const most = Math.max(LEDGER_LIMIT_MIN, Math.min(LEDGER_LIMIT_MAX, known.rows.length - 1));
    return checkProperty(PAGE_WITHIN_LIMIT, validLimit({ max: most }), async (limit) => pageLimitFindings(await onePage(fetch, { ...window, limit })), {
      numRuns: 5,
      maxShrinkRequests: 10,
      independent: true,
    });
  });
});

describe('§8.3 Parameter bounds: feature', () => {
  // > `feature` on the ledger: length 1 to 64.
  // Length in every reading (graphemes, code points, UTF-16 units, bytes): up to 64 bytes, all agree.
  requirementTest(FEATURE_BOUNDS, 'features of length 1, 2, 63 and 64, and multi-byte, right-to-left, astral and combining ones of 64 bytes', async (kit) => {
    const fetch = pagesOf(kit);
    const probe = async (e: EdgeValue): Promise<Finding[]> => [acceptedFinding(FEATURE_BOUNDS, await fetch({ feature: e.text }, undefined), `feature ${e.edge}`)];
    const examples = edgesOf(FEATURE_EDGES, 'accept');
    return checkProperty(FEATURE_BOUNDS, featureEdge('accept'), probe, { numRuns: examples.length + 2, maxShrinkRequests: 6, independent: true, examples });
  });

  // > `feature` on the ledger: length 1 to 64. | 400 | Error envelope (validation failed). |
  requirementTest(FEATURE_INVALID, 'features of 65 characters in ASCII, two-byte, astral and combining text, and longer ones', async (kit) => {
    const fetch = pagesOf(kit);
    const probe = async (e: EdgeValue): Promise<Finding[]> => refusalFindings(FEATURE_INVALID, await fetch({ feature: e.text }, undefined));
    const examples = edgesOf(FEATURE_EDGES, 'refuse');
    return checkProperty(FEATURE_INVALID, featureEdge('refuse'), probe, { numRuns: examples.length + 2, maxShrinkRequests: 6, independent: true, examples });
  });

  // > `feature` on the ledger: length 1 to 64. | 400 | Error envelope (validation failed). |
  // A SHOULD: many HTTP stacks read `feature=` as no parameter (docs/ambiguity-register.md).
  requirementTest(FEATURE_EMPTY, 'an empty feature (feature=)', async (kit) => refusalFindings(FEATURE_EMPTY, await pagesOf(kit)({ feature: '' }, undefined)));
});

describe('§4.1 GET /credits/operations: values whose reading the spec leaves open', () => {
  // > Query parameters (all optional):
  // Noted, never required (docs/ambiguity-register.md: `limit` spellings, `feature` length,
  // repeated parameters, a raw `+`, an empty `cursor=`); run-wide rules judge each answer.
  requirementTest(OPEN_FORMS, 'limit=007, +5, 5.0, 1e2, with spaces, empty; features whose length readings straddle 64; limit and feature given twice; a raw + offset; cursor=', async (kit) => {
    const fetch = pagesOf(kit);
    const sent: Array<Promise<Finding[]>> = [];
    for (const e of edgesOf(LIMIT_EDGES, 'open')) sent.push(fetch({ limit: e.text }, undefined).then((x) => observedFindings(OPEN_FORMS, x, `limit ${JSON.stringify(e.text)} (${e.edge})`)));
    for (const e of edgesOf(FEATURE_EDGES, 'open')) sent.push(fetch({ feature: e.text }, undefined).then((x) => observedFindings(OPEN_FORMS, x, `feature ${e.edge}`)));
    const twice = ['limit=5&limit=7', `feature=${encodeURIComponent(FEATURE_EDGES[0]!.text)}&feature=${encodeURIComponent(FEATURE_EDGES[1]!.text)}`];
    for (const q of twice) sent.push(rawLedgerQuery(kit, q).then((x) => observedFindings(OPEN_FORMS, x, `given twice: ${q}`)));
    const [early, late] = boundInstants((await ledgerSample(kit)).known, Date.now(), 2).map((i) => formatInstant(i, { zone: 60 }));
    const plus = QUERY_ENCODINGS.find((e) => e.name === 'plus-raw')!;
    const raw = `from=${plus.encode(early!)}&to=${plus.encode(late!)}`;
    sent.push(rawLedgerQuery(kit, raw).then((x) => observedFindings(OPEN_FORMS, x, `an offset with a raw +: ${raw}`)));
    sent.push(fetch({}, '').then((x) => observedFindings(OPEN_FORMS, x, 'an empty cursor=')));
    return (await Promise.all(sent)).flat();
  });
});

/** Pages one walk of the feature-filter property may take. */
const FILTER_WALK_PAGES = 12;

describe('§4.1 GET /credits/operations: the feature filter', () => {
  // > | feature | string | Length 1 to 64. | Filter by feature. |
  requirementTest(FEATURE_FILTER, 'each seen feature over windows of known rows, walked at limits 1 to 3; and a prefix of a feature', async (kit) => {
    const known = await knownRows(kit, 3);
    if (Array.isArray(known)) return known;
    if (known.features.length === 0) return [inconclusive(FEATURE_FILTER, 'no row with a feature a filter can name was seen (a string of 1 to 64 in every reading of length)')];
    const fetch = pagesOf(kit);
    const arbitrary = fc.record({
      window: rowWindow(known.groups.length, { minSpan: 8, maxSpan: 30 }),
      feature: fc.constantFrom(...known.features.slice(0, 6)),
      limit: fc.integer({ min: 1, max: 3 }),
    });
    const findings = await checkProperty(
      FEATURE_FILTER,
      arbitrary,
      async ({ window, feature, limit }) => {
        const from = known.groups[window.start]!;
        const to = known.groups[window.end]!;
        const expected = rowsBetween(known, from.instant, to.instant).filter((r) => r.feature === feature);
        const walk = await walkLedger(fetch, { from: from.text, to: to.text, feature, limit: fittingLimit(limit, expected.length, FILTER_WALK_PAGES) }, { maxPages: FILTER_WALK_PAGES });
        return [...featureFilterFindings(walk, feature, expected), ...pageLimitFindings(walk), ...pageSchemaFailures(walkExchanges(walk), readPool(kit))];
      },
      { numRuns: 6, maxShrinkRequests: 24, independent: true },
    );
    // Exact match: a filter that is a proper prefix of another feature lists none of that feature's rows.
    const probe = prefixProbe(known);
    if (probe !== undefined) {
      const expected = known.rows.filter((r) => r.feature === probe.filter);
      const walk = await walkLedger(fetch, { ...wholeWindow(known), feature: probe.filter, limit: LEDGER_LIMIT_MAX }, { maxPages: pagesFor(await ledgerSample(kit), expected.length, LEDGER_LIMIT_MAX) });
      findings.push(...featureFilterFindings(walk, probe.filter, expected));
    }
    return findings;
  });
});
