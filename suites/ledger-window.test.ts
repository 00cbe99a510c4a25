import fc from 'fast-check';
import { describe } from 'vitest';
import { boundText } from '../lib/arbitraries/bound-text.ts';
import { invalidInstantText } from '../lib/arbitraries/invalid-instant-text.ts';
import { rowWindow } from '../lib/arbitraries/row-window.ts';
import { acceptedFinding, refusalFindings } from '../lib/checks/ledger-acceptance.ts';
import { additivityFindings, WINDOW_ADDITIVE } from '../lib/checks/ledger-additivity.ts';
import { acceptedFormFinding, DATE_ONLY_ACCEPTED, EQUAL_BOUNDS_EMPTY, equalBoundsFinding, OFFSET_INSTANT, OFFSETLESS_ACCEPTED, sameInstantFindings } from '../lib/checks/ledger-bound-forms.ts';
import { DEFAULT_WINDOW, defaultWindowFindings } from '../lib/checks/ledger-default-window.ts';
import { notEnoughRows, pagesFor, type LedgerSample } from '../lib/checks/ledger-discovery.ts';
import { addSeconds, formatInstant, isUtcMidnight, utcDateOf, type Instant } from '../lib/checks/ledger-instant.ts';
import { boundInstants, knownDates, largestTie, rowsBetween, tiedGroupIndices, type KnownRows } from '../lib/checks/ledger-known-rows.ts';
import { pageSchemaFailures } from '../lib/checks/ledger-page-schema.ts';
import { walkExchanges, walkLedger, type LedgerQuery, type PageFetcher, type Walk } from '../lib/checks/ledger-walk.ts';
import { FROM_INCLUSIVE, TO_EXCLUSIVE, windowFindings } from '../lib/checks/ledger-window-rows.ts';
import { inconclusive, type Finding } from '../lib/model/finding.ts';
import { LEDGER_LIMIT_MAX } from '../lib/spec-constants.ts';
import { checkProperty } from '../lib/suite/property.ts';
import { requirementTest, type TestKit } from '../lib/suite/requirement-test.ts';
import { ledgerSample, pagesOf, readPool } from '../lib/suite/ledger-kit.ts';

const REVERSED = 'ledger/4.1/reversed-window-400';
const INVALID_DATE = 'ledger/4.1/invalid-date-400';

/**
 * A walk at limit=200 of a window of `rows` known rows, with the pages that takes on this target;
 * a window whose rows are not known (whole days) gets three pages: its first page is what counts.
 */
function walkOf(fetch: PageFetcher, query: LedgerQuery, sample: LedgerSample, rows?: number): Promise<Walk> {
  return walkLedger(fetch, { ...query, limit: LEDGER_LIMIT_MAX }, { maxPages: rows === undefined ? 3 : pagesFor(sample, rows, LEDGER_LIMIT_MAX) });
}

/**
 * Two known instants less than 12 hours apart, a few instants apart: written with offsets of
 * opposite sign, their texts sort the other way round from their instants. Undefined when no two
 * known instants are that close.
 */
function closePair(known: KnownRows): [Instant, Instant] | undefined {
  for (let i = Math.floor(known.groups.length / 2); i + 1 < known.groups.length; i++) {
    const a = known.groups[i]!.instant;
    const b = known.groups[Math.min(known.groups.length - 1, i + 3)]!.instant;
    if (b.seconds - a.seconds < 12 * 3600 && b.seconds > a.seconds) return [a, b];
  }
  return undefined;
}

/** The known rows, or findings saying why the test cannot judge this target. */
async function knownRows(kit: TestKit, instants: number): Promise<KnownRows | Finding[]> {
  const sample = await ledgerSample(kit);
  const why = notEnoughRows(sample, instants);
  return why === undefined ? sample.known! : kit.ids.map((id) => inconclusive(id, why));
}

describe('§4.1 GET /credits/operations: window rules', () => {
  // > | from | ... | Inclusive lower bound of the window. |
  // > | to | ... | Exclusive upper bound of the window. |
  requirementTest([FROM_INCLUSIVE, TO_EXCLUSIVE], 'windows whose from and to are timestamps of rows seen, written as returned', async (kit) => {
    const known = await knownRows(kit, 3);
    if (Array.isArray(known)) return known;
    const fetch = pagesOf(kit);
    const sample = await ledgerSample(kit);
    const midnights = known.groups.flatMap((g, i) => (isUtcMidnight(g.instant) ? [i] : []));
    return checkProperty(
      FROM_INCLUSIVE,
      rowWindow(known.groups.length, { maxSpan: 6, focus: [...tiedGroupIndices(known), ...midnights] }),
      async (w) => {
        const from = known.groups[w.start]!;
        const to = known.groups[w.end]!;
        const expected = rowsBetween(known, from.instant, to.instant);
        const walk = await walkOf(fetch, { from: from.text, to: to.text }, sample, expected.length);
        return [...windowFindings(walk, { from: from.instant, to: to.instant }, expected), ...pageSchemaFailures(walkExchanges(walk), readPool(kit))];
      },
      { numRuns: 10, maxShrinkRequests: 20, independent: true },
    );
  });

  // > | to | ... | Same accepted formats. Must be >= `from`. | Exclusive upper bound of the window. |
  requirementTest(EQUAL_BOUNDS_EMPTY, 'from and to both equal to the timestamp most rows share', async (kit) => {
    const { known } = await ledgerSample(kit);
    const tie = known === undefined ? undefined : largestTie(known);
    const group = known === undefined ? undefined : known.groups[tie ?? Math.floor(known.groups.length / 2)];
    const text = group?.text ?? formatInstant(boundInstants(known, Date.now(), 1)[0]!);
    const exchange = await pagesOf(kit)({ from: text, to: text, limit: LEDGER_LIMIT_MAX }, undefined);
    return [equalBoundsFinding(exchange, group?.rows.length ?? 0)];
  });

  // > When `to` is earlier than `from`, the response is 400.
  requirementTest(REVERSED, 'to earlier than from: as row timestamps, as dates two days apart, and with offsets whose texts sort the other way', async (kit) => {
    const { known } = await ledgerSample(kit);
    const fetch = pagesOf(kit);
    const [early, late] = boundInstants(known, Date.now(), 2) as [Instant, Instant];
    const findings = refusalFindings(REVERSED, await fetch({ from: formatInstant(late), to: formatInstant(early) }, undefined));
    const dates = (known === undefined ? undefined : knownDates(known, 2)) ?? [early, addSeconds(early, 86_400), addSeconds(early, 2 * 86_400)];
    findings.push(...refusalFindings(REVERSED, await fetch({ from: utcDateOf(dates[2]!), to: utcDateOf(dates[0]!) }, undefined)));
    // Compared as instants, never as text: `from` written at -12:00 reads as an earlier text than
    // `to` written with Z, though it is the later instant.
    const [a, b] = (known === undefined ? undefined : closePair(known)) ?? [early, addSeconds(early, 3600)];
    findings.push(...refusalFindings(REVERSED, await fetch({ from: formatInstant(b, { zone: -12 * 60 }), to: formatInstant(a) }, undefined)));
    return findings;
  });

  // > | from | string (date or datetime) | Parsed from `YYYY-MM-DD` or RFC 3339, with or without offset. |
  requirementTest(DATE_ONLY_ACCEPTED, 'from and to written YYYY-MM-DD, one day apart', async (kit) => {
    const sample = await ledgerSample(kit);
    const { known } = sample;
    const dates = known === undefined ? undefined : knownDates(known, 1);
    const start = dates?.[0] ?? boundInstants(known, Date.now(), 1)[0]!;
    const from = utcDateOf(start);
    const to = utcDateOf({ seconds: start.seconds + 86_400, fraction: '' });
    const utcRows = dates === undefined || known === undefined ? undefined : rowsBetween(known, dates[0], dates[1]);
    const walk = await walkOf(pagesOf(kit), { from, to }, sample, utcRows?.length);
    return [acceptedFormFinding(DATE_ONLY_ACCEPTED, walk, utcRows, 'a date alone'), ...pageSchemaFailures(walkExchanges(walk), readPool(kit))];
  });

  // > Parsed from `YYYY-MM-DD` or RFC 3339, with or without offset.
  requirementTest(OFFSET_INSTANT, 'one window written with Z and again with ±hh:mm offsets; and one whose from text, at +14:00, sorts after its to', async (kit) => {
    const known = await knownRows(kit, 3);
    if (Array.isArray(known)) return known;
    const fetch = pagesOf(kit);
    const sample = await ledgerSample(kit);
    // `from` at +14:00 reads as a later text than `to` with Z, though it is the earlier instant.
    const pair = closePair(known);
    const crossed: Finding[] = [];
    if (pair !== undefined) {
      const [a, b] = pair;
      const written = await walkOf(fetch, { from: formatInstant(a, { zone: 14 * 60 }), to: formatInstant(b) }, sample, rowsBetween(known, a, b).length);
      const withZ = await walkOf(fetch, { from: formatInstant(a), to: formatInstant(b) }, sample, rowsBetween(known, a, b).length);
      crossed.push(...sameInstantFindings(written, withZ));
    } else {
      const [a] = boundInstants(known, Date.now(), 1) as [Instant];
      const exchange = await fetch({ from: formatInstant(a, { zone: 14 * 60 }), to: formatInstant(addSeconds(a, 3600)) }, undefined);
      crossed.push(acceptedFinding(OFFSET_INSTANT, exchange, 'from at +14:00 an hour before to with Z'));
    }
    const arbitrary = rowWindow(known.groups.length, { maxSpan: 6 })
      .chain((w) => {
        const exact = { forms: ['z', 'offset'] as const };
        return fc.record({ w: fc.constant(w), from: boundText(known.groups[w.start]!.instant, exact), to: boundText(known.groups[w.end]!.instant, exact) });
      })
      .filter(({ from, to }) => from.form === 'offset' || to.form === 'offset');
    return checkProperty(
      OFFSET_INSTANT,
      arbitrary,
      async ({ w, from, to }) => {
        const rows = rowsBetween(known, known.groups[w.start]!.instant, known.groups[w.end]!.instant).length;
        const withZ = await walkOf(fetch, { from: known.groups[w.start]!.text, to: known.groups[w.end]!.text }, sample, rows);
        const written = await walkOf(fetch, { from: from.text, to: to.text }, sample, rows);
        return [...sameInstantFindings(written, withZ), ...pageSchemaFailures(walkExchanges(written), readPool(kit))];
      },
      { numRuns: 8, maxShrinkRequests: 20, independent: true },
    ).then((found) => [...crossed, ...found]);
  });

  // > Parsed from `YYYY-MM-DD` or RFC 3339, with or without offset.
  requirementTest(OFFSETLESS_ACCEPTED, 'from and to written as RFC 3339 date-times without offset', async (kit) => {
    const sample = await ledgerSample(kit);
    const { known } = sample;
    const [a, b] = boundInstants(known, Date.now(), 2) as [Instant, Instant];
    const utcRows = known === undefined ? undefined : rowsBetween(known, a, b);
    const walk = await walkOf(pagesOf(kit), { from: formatInstant(a, { zone: 'none' }), to: formatInstant(b, { zone: 'none' }) }, sample, utcRows?.length);
    return [acceptedFormFinding(OFFSETLESS_ACCEPTED, walk, utcRows, 'a date-time without offset')];
  });

  // > Parsed from `YYYY-MM-DD` or RFC 3339 ... | 400 | Error envelope (validation failed). |
  requirementTest(INVALID_DATE, 'impossible dates, times and offsets and garbage as from or to', async (kit) => {
    const { known } = await ledgerSample(kit);
    const fetch = pagesOf(kit);
    const [early, late] = boundInstants(known, Date.now(), 2).map((i) => formatInstant(i)) as [string, string];
    const arbitrary = fc.record({ text: invalidInstantText(), side: fc.constantFrom<'from' | 'to'>('from', 'to') });
    return checkProperty(
      INVALID_DATE,
      arbitrary,
      async ({ text, side }) => refusalFindings(INVALID_DATE, await fetch(side === 'from' ? { from: text, to: late } : { from: early, to: text }, undefined)),
      { numRuns: 10, maxShrinkRequests: 15, independent: true },
    );
  });

  // > When neither bound is given, the window is the last 30 days.
  requirementTest(DEFAULT_WINDOW, 'no bounds, at both edges of the last 30 days: its first pages (all of it when small) against walks with bounds', async (kit) =>
    defaultWindowFindings(await ledgerSample(kit)),
  );

  // > | from | ... | Inclusive lower bound of the window. | ... | to | ... | Exclusive upper bound of the window. |
  requirementTest(WINDOW_ADDITIVE, '[a, c) against [a, b) and [b, c), b a row timestamp; and three days written YYYY-MM-DD', async (kit) => {
    const known = await knownRows(kit, 3);
    if (Array.isArray(known)) return known;
    const fetch = pagesOf(kit);
    const sample = await ledgerSample(kit);
    const arbitrary = rowWindow(known.groups.length, { minSpan: 2, maxSpan: 10, focus: tiedGroupIndices(known) }).chain((w) =>
      fc.integer({ min: w.start + 1, max: w.end - 1 }).map((split) => ({ ...w, split })),
    );
    const found = await checkProperty(
      WINDOW_ADDITIVE,
      arbitrary,
      async ({ start, split, end }) => {
        const [a, b, c] = [known.groups[start]!.text, known.groups[split]!.text, known.groups[end]!.text];
        const rows = rowsBetween(known, known.groups[start]!.instant, known.groups[end]!.instant).length;
        const walk = (from: string, to: string): Promise<Walk> => walkOf(fetch, { from, to }, sample, rows);
        return additivityFindings(await walk(a, c), await walk(a, b), await walk(b, c));
      },
      { numRuns: 6, maxShrinkRequests: 24, independent: true },
    );
    // Dates alone: whatever zone the server reads them in, the days tile.
    const dates = knownDates(known, 2);
    if (dates === undefined) return found;
    const [d0, d1, d2] = dates.map(utcDateOf) as [string, string, string];
    // Whatever zone the server reads dates in, these days lie inside the known rows, give or take 14 hours.
    const rows = rowsBetween(known, addSeconds(dates[0]!, -14 * 3600), addSeconds(dates[2]!, 14 * 3600)).length;
    const day = (from: string, to: string): Promise<Walk> => walkOf(fetch, { from, to }, sample, rows);
    return [...found, ...additivityFindings(await day(d0, d2), await day(d0, d1), await day(d1, d2))];
  });
});
