import { describe, expect, test } from 'vitest';
import { defaultWindowFindings } from '../../lib/checks/ledger-default-window.ts';
import { discoverLedger, notEnoughRows } from '../../lib/checks/ledger-discovery.ts';
import { clockOffsetOf } from '../../lib/checks/pool-headers.ts';
import { sharedLedgerSample } from '../../lib/suite/ledger-kit.ts';
import { compareInstants, formatInstant, instantFromMs } from '../../lib/checks/ledger-instant.ts';
import { boundInstants, filterableFeatures, knownDates, knownRowsOf, largestTie, prefixProbe, rowsBetween, tiedGroupIndices, windowBounds, type KnownRows } from '../../lib/checks/ledger-known-rows.ts';
import { rowOf } from '../../lib/checks/ledger-page.ts';
import type { LedgerQuery } from '../../lib/checks/ledger-walk.ts';
import type { Exchange } from '../../lib/model/exchange.ts';
import { ledgerExchange, page, pagedServer, readHeaders, row } from './ledger-fixtures.ts';

const DAY = 86_400_000;
const NOW = Date.parse('2025-03-01T12:00:00Z');

/** A server over fixed rows (ms instants) with its own default window: [now - days, now). */
function fakeServer(instants: number[], days = 30): (q: LedgerQuery, c: string | undefined) => Promise<Exchange> {
  const rows = instants.map((ms, i) => row(i, { timestamp: new Date(ms).toISOString() }));
  return async (q) => {
    const from = q.from === undefined ? NOW - days * DAY : Date.parse(q.from);
    const to = q.to === undefined ? NOW : Date.parse(q.to);
    const inside = rows.filter((r) => Date.parse(r['timestamp'] as string) >= from && Date.parse(r['timestamp'] as string) < to);
    return ledgerExchange(page(inside, null), { headers: { ...readHeaders(), date: new Date(NOW).toUTCString() } });
  };
}

const INSTANTS = [NOW - 40 * DAY, NOW - 29 * DAY, NOW - 10 * DAY, NOW - 10 * DAY, NOW - 2 * DAY, NOW - 3_600_000, NOW - 60_000];

describe('discoverLedger', () => {
  test('walks the default window and the same 30 days with bounds, and keeps the rows before the newest', async () => {
    const sample = await discoverLedger(fakeServer(INSTANTS), () => NOW);
    expect(sample.defaultWalk.end).toBe('last-page');
    expect(sample.explicitWalk.query.from).toBe(formatInstant(instantFromMs(NOW - 30 * DAY - 3_600_000)));
    // Few rows: it also looked back a year, so the row 40 days old is known too.
    expect(sample.known?.rows.length).toBe(INSTANTS.length - 1);
    expect(sample.known?.stableBefore).toEqual(instantFromMs(NOW - 60_000));
    expect(notEnoughRows(sample, 3)).toBeUndefined();
    expect(notEnoughRows(sample, 50)).toContain('distinct timestamps');
  });

  test('the default window check passes a 30-day server and fails a 32-day and a 7-day one', async () => {
    expect(defaultWindowFindings(await discoverLedger(fakeServer(INSTANTS), () => NOW)).map((f) => f.verdict)).toEqual(['pass']);
    const longer = [...INSTANTS, NOW - 31.5 * DAY];
    expect(defaultWindowFindings(await discoverLedger(fakeServer(longer, 32), () => NOW))[0]?.actual).toContain('older rows');
    expect(defaultWindowFindings(await discoverLedger(fakeServer(INSTANTS, 7), () => NOW))[0]?.actual).toContain('missing');
  });

  test('rows at the edges of the window, within a day (calendar days) or the tolerance, are not judged', async () => {
    const edges = [...INSTANTS, NOW - 30 * DAY - 100_000, NOW - 30 * DAY + 100_000, NOW - 30.8 * DAY, NOW - 29.2 * DAY];
    expect(defaultWindowFindings(await discoverLedger(fakeServer(edges, 30), () => NOW))[0]?.verdict).toBe('pass');
    expect(defaultWindowFindings(await discoverLedger(fakeServer(edges, 31), () => NOW))[0]?.verdict).toBe('pass');
    expect(defaultWindowFindings(await discoverLedger(fakeServer(edges, 29), () => NOW))[0]?.verdict).toBe('pass');
  });

  test('clockOffsetOf reads the Date header and ignores rounding', () => {
    const ex = ledgerExchange(page([], null), { headers: { date: new Date(NOW + 90_000).toUTCString() } });
    ex.startedAt = new Date(NOW).toISOString();
    expect(clockOffsetOf(ex)).toBe(90_000 - 1);
    const close = ledgerExchange(page([], null), { headers: { date: new Date(NOW + 1000).toUTCString() } });
    close.startedAt = new Date(NOW).toISOString();
    expect(clockOffsetOf(close)).toBe(0);
  });

  test('clockOffsetOf is whole milliseconds, so that an instant placed by it can be written as a bound', () => {
    // Headers 3 ms after the send: the midpoint falls on a half millisecond.
    const ex = ledgerExchange(page([], null), { headers: { date: new Date(NOW - 83_000).toUTCString() } });
    ex.startedAt = new Date(NOW).toISOString();
    ex.timings = { ...ex.timings, headersMs: 3, totalMs: 3 };
    const offset = clockOffsetOf(ex);
    expect(Number.isInteger(offset)).toBe(true);
    expect(Math.abs(offset - (-83_000 - 1.5))).toBeLessThanOrEqual(0.5);
    expect(formatInstant(instantFromMs(NOW + offset))).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,3})?Z$/);
  });

  test('sharedLedgerSample discovers once per key', async () => {
    let calls = 0;
    const discover = async () => (calls++, discoverLedger(fakeServer(INSTANTS), () => NOW));
    const [a, b] = await Promise.all([sharedLedgerSample('k', discover), sharedLedgerSample('k', discover)]);
    expect(a).toBe(b);
    expect(calls).toBe(1);
  });
});

describe('filterableFeatures', () => {
  test('keeps the features a filter can name in every reading of length, the most frequent first', () => {
    const long = 'x'.repeat(70);
    const wide = `recherche_web_${'é'.repeat(30)}`; // 44 characters, 74 UTF-8 bytes
    const edge = 'é'.repeat(32); // 32 characters, 64 bytes
    const rows = [long, long, long, wide, wide, wide, 'deal_agent', 'deal_agent', edge, 'enrichment'].map((feature) => ({ feature }));
    expect(filterableFeatures(rows)).toEqual(['deal_agent', 'enrichment', edge]);
    expect(filterableFeatures([{ feature: '' }, { feature: undefined }])).toEqual([]);
  });
});

describe('known rows', () => {
  const rows = [
    row(1, { timestamp: '2025-02-01T00:00:00Z', feature: 'deal_agent' }),
    row(2, { timestamp: '2025-02-02T10:00:00Z', feature: 'deal_agent_batch' }),
    row(3, { timestamp: '2025-02-02T10:00:00Z', feature: 'deal_agent' }),
    row(4, { timestamp: '2025-02-06T10:00:00.25+00:00', feature: 'enrichment' }),
    row(5, { timestamp: '2025-02-09T00:00:00Z', feature: 'deal_agent' }),
  ].map(rowOf);

  test('groups rows by instant, drops the newest instant and orders features by frequency', () => {
    const known = knownRowsOf(rows)!;
    expect(known.groups.map((g) => g.rows.length)).toEqual([1, 2, 1]);
    expect(known.groups[2]?.text).toBe('2025-02-06T10:00:00.25Z');
    expect(known.features).toEqual(['deal_agent', 'deal_agent_batch', 'enrichment']);
    expect(largestTie(known)).toBe(1);
    expect(tiedGroupIndices(known)).toEqual([1]);
    expect(rowsBetween(known, known.groups[0]!.instant, known.groups[2]!.instant)).toHaveLength(3);
  });

  test('window bounds end at stableBefore: a window can hold the newest known group, and only a tie there', () => {
    // The only tie is the newest kept instant: a window that ends at a group's instant never holds it.
    const tiedLast = knownRowsOf(
      [
        row(1, { timestamp: '2025-02-01T10:00:00Z' }),
        row(2, { timestamp: '2025-02-02T10:00:00Z' }),
        row(3, { timestamp: '2025-02-06T10:00:00.25Z' }),
        row(4, { timestamp: '2025-02-06T10:00:00.250Z' }),
        row(5, { timestamp: '2025-02-09T00:00:00Z' }),
      ].map(rowOf),
    )!;
    expect(tiedGroupIndices(tiedLast)).toEqual([2]);
    const bounds = windowBounds(tiedLast);
    expect(bounds.map((b) => b.text)).toEqual([...tiedLast.groups.map((g) => g.text), '2025-02-09T00:00:00Z']);
    expect(rowsBetween(tiedLast, bounds[2]!.instant, bounds[3]!.instant).map((r) => r.key)).toEqual(tiedLast.groups[2]!.rows.map((r) => r.key));
    expect(tiedLast.groups[2]!.rows).toHaveLength(2);
  });

  test('with a row budget, only the newest instants are kept, never half of a shared one', () => {
    const known = knownRowsOf(rows, 2)!;
    // Five rows, the newest dropped; of the four left, the newest two are a lone row and a pair.
    expect(known.groups.map((g) => g.rows.length)).toEqual([1]);
    expect(known.rows).toHaveLength(1);
    expect(knownRowsOf(rows, 3)!.groups.map((g) => g.rows.length)).toEqual([2, 1]);
  });

  test('knownDates picks whole UTC days well inside the known rows, a midnight day first', () => {
    const known = knownRowsOf(rows)!;
    // No midnight row inside: the latest days that end 14 hours before the newest row.
    expect(knownDates(known, 2)!.map((d) => formatInstant(d))).toEqual(['2025-02-06T00:00:00Z', '2025-02-07T00:00:00Z', '2025-02-08T00:00:00Z']);
    const withMidnight = knownRowsOf([...rows, rowOf(row(6, { timestamp: '2025-02-03T00:00:00Z' }))])!;
    expect(knownDates(withMidnight, 2)!.map((d) => formatInstant(d))).toEqual(['2025-02-03T00:00:00Z', '2025-02-04T00:00:00Z', '2025-02-05T00:00:00Z']);
    expect(knownDates(known, 9)).toBeUndefined();
  });

  test('boundInstants spreads over known instants, or counts whole days back without rows', () => {
    const known = knownRowsOf(rows)!;
    expect(boundInstants(known, NOW, 2).map((i) => formatInstant(i))).toEqual(['2025-02-02T10:00:00Z', '2025-02-06T10:00:00.25Z']);
    expect(boundInstants(undefined, NOW, 2).map((i) => formatInstant(i))).toEqual(['2025-02-27T12:00:00Z', '2025-02-28T12:00:00Z']);
  });

  test('prefixProbe prefers a seen feature that prefixes another', () => {
    expect(prefixProbe(knownRowsOf(rows)!)).toEqual({ filter: 'deal_agent', longer: 'deal_agent_batch' });
    const plain = knownRowsOf([row(1, { feature: 'enrichment' }), row(2, { feature: 'x', timestamp: '2025-03-01T00:00:00Z' })].map(rowOf))!;
    expect(prefixProbe(plain)).toEqual({ filter: 'enrichmen', longer: 'enrichment' });
  });
});

describe('the default window on a ledger too big to walk whole', () => {
  /** 200,000 rows, 100 a minute... over 50 days, so that some are older than any default window. */
  const busy = (i: number): number => NOW - 50 * DAY + Math.floor((i * 50 * DAY) / 200_000);
  const calendarDays = (now: number): number => Math.floor(now / DAY) * DAY - 30 * DAY;

  test('a server reading 30 calendar days passes; its first pages are judged, the rest noted', async () => {
    for (const order of ['desc', 'asc'] as const) {
      const server = pagedServer({ instantOf: busy, count: 200_000, now: NOW, order, defaultFrom: calendarDays });
      const [finding] = defaultWindowFindings(await discoverLedger(server, () => NOW));
      expect(finding).toMatchObject({ verdict: 'pass', note: expect.stringContaining('the rest was not walked') });
    }
  });

  test('32 days fails when the listing shows its old edge first; newest first it cannot be seen and passes', async () => {
    const longer = (now: number): number => now - 32 * DAY;
    const asc = pagedServer({ instantOf: busy, count: 200_000, now: NOW, order: 'asc', defaultFrom: longer });
    expect(defaultWindowFindings(await discoverLedger(asc, () => NOW))[0]?.actual).toContain('older rows');
    const desc = pagedServer({ instantOf: busy, count: 200_000, now: NOW, order: 'desc', defaultFrom: longer });
    expect(defaultWindowFindings(await discoverLedger(desc, () => NOW))[0]).toMatchObject({ verdict: 'pass', note: expect.stringContaining('they reach the new edge (rows under a day old) only') });
  });

  test('the pass note says whether the pages read reached the old edge', async () => {
    const asc = pagedServer({ instantOf: busy, count: 200_000, now: NOW, order: 'asc', defaultFrom: calendarDays });
    expect(defaultWindowFindings(await discoverLedger(asc, () => NOW))[0]?.note).toContain('they reach the old edge (rows over 29 days old) only');
  });
});

describe('a recent batch of more rows at one instant than a known window holds', () => {
  // 300 older rows about 2 hours apart, a batch of 3,000 at one instant 20 minutes ago, 3 after it.
  const BATCH_AT = NOW - 20 * 60_000;
  const older = Array.from({ length: 300 }, (_, i) => NOW - 25 * DAY + i * 1.9 * 3_600_000 + 1_000);
  const instants = [...older, ...Array.from({ length: 3000 }, () => BATCH_AT), NOW - 12 * 60_000, NOW - 5 * 60_000, NOW - 2 * 60_000];
  const beforeBatch = (known: KnownRows | undefined): boolean => known !== undefined && compareInstants(known.stableBefore, instantFromMs(BATCH_AT)) <= 0;

  test('a server that lists it in one page: the known rows are those before the batch', async () => {
    const sample = await discoverLedger(fakeServer(instants), () => NOW);
    expect(sample.known?.stableBefore).toEqual(instantFromMs(BATCH_AT));
    expect(sample.known?.rows.length).toBe(200);
    expect(notEnoughRows(sample, 5)).toBeUndefined();
  });

  test('a paginating server, in any order: the search looks before the batch', async () => {
    for (const order of ['desc', 'asc', 'scattered'] as const) {
      const server = pagedServer({ instantOf: (i) => instants[i]!, count: instants.length, now: NOW, order });
      const sample = await discoverLedger(server, () => NOW);
      expect(beforeBatch(sample.known), order).toBe(true);
      expect(sample.known!.rows.length, order).toBeGreaterThanOrEqual(20);
      expect(notEnoughRows(sample, 5), order).toBeUndefined();
    }
  });

  test('with enough rows after the batch, those are kept', () => {
    const after = Array.from({ length: 30 }, (_, i) => BATCH_AT + (i + 1) * 1000);
    const rows = [...older, ...Array.from({ length: 3000 }, () => BATCH_AT), ...after].map((ms, i) => rowOf(row(i, { timestamp: new Date(ms).toISOString() })));
    const known = knownRowsOf(rows, 200, 20)!;
    expect(known.rows.length).toBe(29);
    expect(compareInstants(known.groups[0]!.instant, instantFromMs(BATCH_AT))).toBeGreaterThan(0);
    // Without a floor, the rows after the batch are kept however few.
    expect(knownRowsOf(rows.slice(0, 3303), 200)!.rows.length).toBe(2);
    expect(knownRowsOf(rows.slice(0, 3303), 200, 20)!.rows.length).toBe(200);
  });
});

test('an empty ledger leaves the default window inconclusive', async () => {
  expect(defaultWindowFindings(await discoverLedger(fakeServer([]), () => NOW))[0]?.verdict).toBe('inconclusive');
});
