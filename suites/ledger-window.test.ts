import fc from 'fast-check';
import { describe } from 'vitest';
import { boundSpelling, queryEncoding, spellBound, type BoundSpelling } from '../lib/arbitraries/bound-spelling.ts';
import { invalidInstantText } from '../lib/arbitraries/invalid-instant-text.ts';
import { COMMON_YEAR_LEAP_DAYS, LEAP_DAY_WINDOWS } from '../lib/arbitraries/leap-days.ts';
import { HISTORY_TILES, historyWindow } from '../lib/arbitraries/history-window.ts';
import { rowWindow } from '../lib/arbitraries/row-window.ts';
import { acceptedFinding, refusalFindings } from '../lib/checks/ledger-acceptance.ts';
import { additivityFindings, WINDOW_ADDITIVE } from '../lib/checks/ledger-additivity.ts';
import { acceptedFormFinding, DATE_ONLY_ACCEPTED, EQUAL_BOUNDS_EMPTY, equalBoundsFinding, OFFSET_INSTANT, OFFSETLESS_ACCEPTED, RFC3339_LENIENT, sameInstantFindings } from '../lib/checks/ledger-bound-forms.ts';
import { DEFAULT_WINDOW, defaultWindowFindings } from '../lib/checks/ledger-default-window.ts';
import { notEnoughRows, pagesFor, type LedgerSample } from '../lib/checks/ledger-discovery.ts';
import { addSeconds, formatInstant, instantFromMs, isUtcMidnight, utcDateOf, type Instant } from '../lib/checks/ledger-instant.ts';
import { boundInstants, knownDates, largestTie, rowsBetween, tiedGroupIndices, type KnownRows } from '../lib/checks/ledger-known-rows.ts';
import { pageSchemaFailures } from '../lib/checks/ledger-page-schema.ts';
import { walkExchanges, walkLedger, type LedgerQuery, type PageFetcher, type Walk } from '../lib/checks/ledger-walk.ts';
import { FROM_INCLUSIVE, TO_EXCLUSIVE, windowFindings } from '../lib/checks/ledger-window-rows.ts';
import { inconclusive, type Finding } from '../lib/model/finding.ts';
import { FRACTION_EDGES, LETTER_EDGES, OFFSET_EDGES, QUERY_ENCODINGS, type QueryEncoding } from '../lib/domains/ledger-query-domains.ts';
import { LEDGER_LIMIT_MAX } from '../lib/spec-constants.ts';
import { checkProperty } from '../lib/suite/property.ts';
import { requirementTest, type TestKit } from '../lib/suite/requirement-test.ts';
import { ledgerSample, pagesOf, readPool, spelledPagesOf } from '../lib/suite/ledger-kit.ts';

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
 * Windows where discovery never reads (older than the last 30 days): the 30 days before the
 * default window in tiles, then windows drawn over three years. Every row of a window's first page
 * must lie inside it. A window refused is left to the rules of accepted bounds, not judged here.
 */
function historyWindowFindings(kit: TestKit, fetch: PageFetcher): Promise<Finding[]> {
  // Keyed by the other id of the test than the property of rows seen, so that each replays alone.
  return checkProperty(
    TO_EXCLUSIVE,
    historyWindow(),
    async (w) => {
      const to = instantFromMs(Date.now() - w.toDaysBack * 86_400_000);
      const from = addSeconds(to, -w.hours * 3600);
      const walk = await walkLedger(fetch, { from: formatInstant(from), to: formatInstant(to), limit: LEDGER_LIMIT_MAX }, { maxPages: 1 });
      if (walk.end === 'refused') return [];
      return [...windowFindings(walk, { from, to }, []), ...pageSchemaFailures(walkExchanges(walk), readPool(kit))];
    },
    { numRuns: 8, maxShrinkRequests: 12, independent: true, examples: HISTORY_TILES },
  );
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

/** A window written at edges of the bound domain: its two spellings and the query encoding. */
interface SpelledWindow {
  start: number;
  end: number;
  from: BoundSpelling;
  to: BoundSpelling;
  encoding: QueryEncoding;
}

const UPPER = LETTER_EDGES.find((l) => l.fix === 'accept')!;

/**
 * One window per pair of edges, so that every accepted offset, fraction length and encoding of the
 * domain table is sent once before the random draws: offsets two by two, fractions and encodings
 * in turn, windows spread over the known rows.
 */
function edgeWindows(known: KnownRows): SpelledWindow[] {
  const offsets = OFFSET_EDGES.filter((o) => o.fix === 'accept');
  const fractions = FRACTION_EDGES.filter((f) => f.fix === 'accept');
  const encodings = QUERY_ENCODINGS.filter((e) => e.fix === 'accept');
  const count = Math.max(Math.ceil(offsets.length / 2), fractions.length, encodings.length);
  const groups = known.groups.length;
  return Array.from({ length: count }, (_, i) => {
    const start = Math.floor((i * (groups - 2)) / count);
    const end = Math.min(groups - 1, start + 1 + (i % 3));
    return {
      start,
      end,
      from: spellBound(known.groups[start]!.instant, offsets[(2 * i) % offsets.length]!, fractions[i % fractions.length]!, UPPER),
      to: spellBound(known.groups[end]!.instant, offsets[(2 * i + 1) % offsets.length]!, fractions[(i + 3) % fractions.length]!, UPPER, 'up'),
      encoding: encodings[i % encodings.length]!,
    };
  });
}

/** The same window written with `Z` and milliseconds, which every server reads: the walk a spelling is compared with. */
function withZQuery(from: BoundSpelling, to: BoundSpelling): LedgerQuery {
  return { from: formatInstant(from.instant, { minFractionDigits: 3 }), to: formatInstant(to.instant, { minFractionDigits: 3 }) };
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
  requirementTest([FROM_INCLUSIVE, TO_EXCLUSIVE], 'windows whose from and to are timestamps of rows seen, written as returned; and windows older than the last 30 days (their first page)', async (kit) => {
    const fetch = pagesOf(kit);
    const history = await historyWindowFindings(kit, fetch);
    const known = await knownRows(kit, 3);
    if (Array.isArray(known)) return [...known, ...history];
    const sample = await ledgerSample(kit);
    const midnights = known.groups.flatMap((g, i) => (isUtcMidnight(g.instant) ? [i] : []));
    const seen = await checkProperty(
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
    return [...seen, ...history];
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
    // February 29 of leap years (2000 among them) is a date: a window from it is taken.
    const leapDays = [];
    for (const window of LEAP_DAY_WINDOWS) leapDays.push(acceptedFinding(DATE_ONLY_ACCEPTED, await pagesOf(kit)(window, undefined), `from=${window.from}&to=${window.to} (a leap day)`));
    return [acceptedFormFinding(DATE_ONLY_ACCEPTED, walk, utcRows, 'a date alone'), ...leapDays, ...pageSchemaFailures(walkExchanges(walk), readPool(kit))];
  });

  // > Parsed from `YYYY-MM-DD` or RFC 3339, with or without offset.
  requirementTest(OFFSET_INSTANT, 'one window written with Z and again at the edges of the bound domain (±hh:mm, -00:00, none to nine fraction digits, : unencoded, lower-case hex); and one whose from text, at +14:00, sorts after its to', async (kit) => {
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
    const arbitrary = rowWindow(known.groups.length, { maxSpan: 6 }).chain((w) =>
      fc.record({
        start: fc.constant(w.start),
        end: fc.constant(w.end),
        from: boundSpelling(known.groups[w.start]!.instant),
        to: boundSpelling(known.groups[w.end]!.instant, { rounding: 'up' }),
        encoding: queryEncoding(),
      }),
    );
    const examples = edgeWindows(known);
    return checkProperty(
      OFFSET_INSTANT,
      arbitrary,
      async ({ start, end, from, to, encoding }) => {
        const rows = rowsBetween(known, known.groups[start]!.instant, known.groups[end]!.instant).length;
        const withZ = await walkOf(fetch, withZQuery(from, to), sample, rows);
        const written = await walkOf(spelledPagesOf(kit, encoding.encode), { from: from.text, to: to.text }, sample, rows);
        return [...sameInstantFindings(written, withZ), ...pageSchemaFailures(walkExchanges(written), readPool(kit))];
      },
      { numRuns: examples.length + 6, maxShrinkRequests: 20, independent: true, examples },
    ).then((found) => [...crossed, ...found]);
  });

  // > Parsed from `YYYY-MM-DD` or RFC 3339, with or without offset.
  // RFC 3339 allows these; §5.6 lets a specification limit the letters, and libraries cap offsets and fractions: a SHOULD.
  requirementTest(RFC3339_LENIENT, 'one window written with lower-case t and z, offsets ±23:59 and +18:01, and twelve fraction digits, against the same with Z', async (kit) => {
    const known = await knownRows(kit, 3);
    if (Array.isArray(known)) return known;
    const sample = await ledgerSample(kit);
    const start = Math.floor(known.groups.length / 2) - 1;
    const end = Math.min(known.groups.length - 1, start + 2);
    const [a, b] = [known.groups[start]!.instant, known.groups[end]!.instant];
    const rows = rowsBetween(known, a, b).length;
    const plain = { offset: 'Z' as const, fraction: FRACTION_EDGES.find((f) => f.digits === 3)!, letters: UPPER };
    // Each should-accept edge of the domain on its own, the rest of the spelling plain.
    const spellings = [
      ...OFFSET_EDGES.filter((o) => o.fix === 'should-accept').map((offset) => ({ ...plain, offset })),
      ...FRACTION_EDGES.filter((f) => f.fix === 'should-accept').map((fraction) => ({ ...plain, fraction })),
      ...LETTER_EDGES.filter((l) => l.fix === 'should-accept').map((letters) => ({ ...plain, letters })),
    ];
    // Both windows on the instants written with three digits, `from` rounded down and `to` up.
    const [a3, b3] = [spellBound(a, 'Z', plain.fraction, UPPER).instant, spellBound(b, 'Z', plain.fraction, UPPER, 'up').instant];
    const spell = (i: Instant, s: (typeof spellings)[number]): BoundSpelling => spellBound(i, s.offset, s.fraction, s.letters);
    const withZ = await walkOf(pagesOf(kit), withZQuery(spell(a3, plain), spell(b3, plain)), sample, rows);
    const findings: Finding[] = [];
    for (const s of spellings) {
      const written = await walkOf(pagesOf(kit), { from: spell(a3, s).text, to: spell(b3, s).text }, sample, rows);
      findings.push(...sameInstantFindings(written, withZ, RFC3339_LENIENT));
    }
    return findings;
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
    // February 29 of years without one, sent every run: the leap-year rule's edges.
    const examples = COMMON_YEAR_LEAP_DAYS.map((text, i) => ({ text, side: i % 2 === 0 ? ('from' as const) : ('to' as const) }));
    return checkProperty(
      INVALID_DATE,
      arbitrary,
      async ({ text, side }) => refusalFindings(INVALID_DATE, await fetch(side === 'from' ? { from: text, to: late } : { from: early, to: text }, undefined)),
      { numRuns: examples.length + 10, maxShrinkRequests: 15, independent: true, examples },
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
