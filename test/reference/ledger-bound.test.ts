import { describe, expect, test } from 'vitest';
import { parseBound } from '../../lib/reference/ledger-bound.ts';

const ms = (iso: string): number => Date.parse(iso);

describe('the reference reads a bound', () => {
  test.each([
    ['2025-01-31', ms('2025-01-31T00:00:00Z'), 'date'],
    ['2024-02-29', ms('2024-02-29T00:00:00Z'), 'date'],
    ['2000-02-29', ms('2000-02-29T00:00:00Z'), 'date'],
    ['2025-01-31T09:30:00Z', ms('2025-01-31T09:30:00Z'), 'date-time-utc'],
    ['2025-01-31t09:30:00z', ms('2025-01-31T09:30:00Z'), 'date-time-utc'],
    ['2025-01-31T09:30:00.25Z', ms('2025-01-31T09:30:00.250Z'), 'date-time-utc'],
    ['2025-01-31T09:30:00.0001Z', ms('2025-01-31T09:30:00.001Z'), 'date-time-utc'],
    ['2025-01-31T15:00:00+05:30', ms('2025-01-31T09:30:00Z'), 'date-time-offset'],
    ['2025-01-31T01:30:00-08:00', ms('2025-01-31T09:30:00Z'), 'date-time-offset'],
    ['2025-01-31T09:30:00', ms('2025-01-31T09:30:00Z'), 'date-time-local'],
    ['2016-12-31T23:59:60Z', ms('2017-01-01T00:00:00Z'), 'date-time-utc'],
    ['0001-01-01', ms('0001-01-01T00:00:00Z'), 'date'],
  ])('%s', (text, expected, form) => {
    expect(parseBound(text)).toEqual({ ok: true, ms: expected, form });
  });

  test.each(['2023-02-29', '2100-02-29', '1900-02-29T10:00:00Z', '2025-04-31', '2025-13-01', '2025-00-10', '2025-01-31T24:00:00Z', '2025-01-31T09:60:00Z', '2025-01-31T09:30:00+24:00', '2025-01-31 09:30:00Z', '2025-01-31T09:30Z', '20250131', 'yesterday', ''])(
    'refuses %j',
    (text) => expect(parseBound(text).ok).toBe(false),
  );

  test('defect quirks bend it', () => {
    expect(parseBound('2025-01-31T15:00:00+05:30', { ignoreOffset: true })).toMatchObject({ ok: true, ms: ms('2025-01-31T15:00:00Z') });
    expect(parseBound('2025-01-31T15:00:00+05:30', { rejectOffset: true }).ok).toBe(false);
    expect(parseBound('2025-01-31', { rejectDateOnly: true }).ok).toBe(false);
    expect(parseBound('2025-01-31T09:30:00', { rejectLocal: true }).ok).toBe(false);
    expect(parseBound('2023-02-29', { overflowCalendar: true })).toMatchObject({ ok: true, ms: ms('2023-03-01T00:00:00Z') });
    expect(() => parseBound('yesterday', { throwOnGarbage: true })).toThrow();
  });
});

describe('the leap-year defects bend the calendar one way each', () => {
  test('none: 2024-02-29 is refused', () => expect(parseBound('2024-02-29', { leapYears: 'none' }).ok).toBe(false));
  test('every fourth: 2100-02-29 is read', () => expect(parseBound('2100-02-29', { leapYears: 'every-fourth' }).ok).toBe(true));
});
