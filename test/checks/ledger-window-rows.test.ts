import { describe, expect, test } from 'vitest';
import { additivityFindings } from '../../lib/checks/ledger-additivity.ts';
import { acceptedFormFinding, equalBoundsFinding, sameInstantFindings } from '../../lib/checks/ledger-bound-forms.ts';
import { parseRfc3339 } from '../../lib/checks/ledger-instant.ts';
import { rowOf } from '../../lib/checks/ledger-page.ts';
import { walkLedger } from '../../lib/checks/ledger-walk.ts';
import { FROM_INCLUSIVE, TO_EXCLUSIVE, WALK_COMPLETE, windowFindings } from '../../lib/checks/ledger-window-rows.ts';
import { errorExchange, ledgerExchange, page, row, tableFetcher } from './ledger-fixtures.ts';

const T1 = '2025-02-20T10:00:00Z';
const T2 = '2025-02-20T11:00:00.5Z';
const T3 = '2025-02-20T12:00:00Z';
const atFrom = row(1, { timestamp: T1 });
const inside = row(2, { timestamp: T2 });
const atTo = row(3, { timestamp: T3 });
const window = { from: parseRfc3339(T1)!, to: parseRfc3339(T3)! };
const expected = [atFrom, inside].map(rowOf);

async function walkOf(rows: unknown[]) {
  return walkLedger(tableFetcher({ '': page(rows, null) }), { from: T1, to: T3 }, { maxPages: 2 });
}

function verdicts(findings: { requirement: string; verdict: string }[]): Record<string, string> {
  return Object.fromEntries(findings.map((f) => [f.requirement, f.verdict]));
}

describe('windowFindings', () => {
  test('the rows at from and inside, none at to: both bounds pass', async () => {
    expect(verdicts(windowFindings(await walkOf([inside, atFrom]), window, expected))).toEqual({ [FROM_INCLUSIVE]: 'pass', [TO_EXCLUSIVE]: 'pass' });
  });

  test('the row at to listed: to-exclusive fails', async () => {
    expect(verdicts(windowFindings(await walkOf([atFrom, inside, atTo]), window, expected))[TO_EXCLUSIVE]).toBe('fail');
  });

  test('the row at from missing: from-inclusive fails', async () => {
    expect(verdicts(windowFindings(await walkOf([inside]), window, expected))[FROM_INCLUSIVE]).toBe('fail');
  });

  test('a row before from: from-inclusive fails', async () => {
    const early = row(4, { timestamp: '2025-02-20T09:00:00Z' });
    expect(verdicts(windowFindings(await walkOf([early, atFrom, inside]), window, expected))[FROM_INCLUSIVE]).toBe('fail');
  });

  test('a row missing inside: walk-complete fails', async () => {
    expect(verdicts(windowFindings(await walkOf([atFrom]), window, expected))[WALK_COMPLETE]).toBe('fail');
  });

  test('a refused window fails both bounds', async () => {
    const walk = await walkLedger(tableFetcher({ '': errorExchange(400) }), {}, { maxPages: 1 });
    expect(verdicts(windowFindings(walk, window, expected))).toEqual({ [FROM_INCLUSIVE]: 'fail', [TO_EXCLUSIVE]: 'fail' });
  });
});

describe('bound forms', () => {
  test('equal bounds: 200 with no row passes; rows or 400 fail', () => {
    expect(equalBoundsFinding(ledgerExchange(page([], null)), 2).verdict).toBe('pass');
    expect(equalBoundsFinding(ledgerExchange(page([atFrom], null)), 2).verdict).toBe('fail');
    expect(equalBoundsFinding(errorExchange(400), 2).verdict).toBe('fail');
  });

  test('offsets: the same rows as the Z form pass, others or a refusal fail', async () => {
    const withZ = await walkOf([atFrom, inside]);
    expect(sameInstantFindings(await walkOf([inside, atFrom]), withZ)[0]?.verdict).toBe('pass');
    expect(sameInstantFindings(await walkOf([inside]), withZ)[0]?.verdict).toBe('fail');
    const refused = await walkLedger(tableFetcher({ '': errorExchange(400) }), { from: '2025-02-20T15:30:00+05:30' }, { maxPages: 1 });
    expect(sameInstantFindings(refused, withZ)[0]?.verdict).toBe('fail');
  });

  test('accepted forms pass whatever instant they were read as, and say which', async () => {
    expect(acceptedFormFinding('ledger/4.1/date-only-accepted', await walkOf([atFrom, inside]), expected, 'a date').note).toContain('read as UTC');
    expect(acceptedFormFinding('ledger/4.1/date-only-accepted', await walkOf([inside]), expected, 'a date')).toMatchObject({ verdict: 'pass' });
    const refused = await walkLedger(tableFetcher({ '': errorExchange(400) }), {}, { maxPages: 1 });
    expect(acceptedFormFinding('ledger/4.1/date-only-accepted', refused, expected, 'a date').verdict).toBe('fail');
  });

  test('a row outside every zone reading of a date window fails: the bound was dropped', async () => {
    const dates = { from: '2025-02-20', to: '2025-02-21' };
    // 13 hours before the first date: inside its reading at UTC+14.
    const early = row(5, { timestamp: '2025-02-19T11:00:00Z' });
    const inZone = await walkLedger(tableFetcher({ '': page([early, inside], null) }), dates, { maxPages: 1 });
    expect(acceptedFormFinding('ledger/4.1/date-only-accepted', inZone, undefined, 'a date').verdict).toBe('pass');
    const served = await walkLedger(tableFetcher({ '': page([inside], 'c'), c: page([row(6, { timestamp: '2025-01-30T10:00:00Z' })], null) }), dates, { maxPages: 2 });
    const f = acceptedFormFinding('ledger/4.1/date-only-accepted', served, undefined, 'a date');
    expect(f).toMatchObject({ verdict: 'fail', actual: expect.stringContaining('1 rows outside every reading') });
    expect(f.exchanges).toHaveLength(2);
  });
});

describe('additivityFindings', () => {
  test('a row at the split belongs to the right half only', async () => {
    const whole = await walkOf([atFrom, inside]);
    const left = await walkOf([atFrom]);
    const right = await walkOf([inside]);
    expect(additivityFindings(whole, left, right)[0]?.verdict).toBe('pass');
    expect(additivityFindings(whole, await walkOf([atFrom, inside]), right)[0]?.actual).toContain('in both halves');
    expect(additivityFindings(whole, left, await walkOf([]))[0]?.actual).toContain('in neither half');
  });
});
