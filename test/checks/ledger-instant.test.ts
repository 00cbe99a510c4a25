import { describe, expect, test } from 'vitest';
import { addSeconds, compareInstants, formatInstant, instantFromMs, instantToMs, isUtcMidnight, parseRfc3339, startOfUtcDay, utcDateOf } from '../../lib/checks/ledger-instant.ts';

describe('parseRfc3339', () => {
  test.each([
    ['2025-01-31T09:30:00Z', Date.parse('2025-01-31T09:30:00Z') / 1000, ''],
    ['2025-01-31T09:30:00.120Z', Date.parse('2025-01-31T09:30:00Z') / 1000, '12'],
    ['2025-01-31T15:00:00.000001+05:30', Date.parse('2025-01-31T09:30:00Z') / 1000, '000001'],
    ['2025-01-31T01:30:00-08:00', Date.parse('2025-01-31T09:30:00Z') / 1000, ''],
    ['2016-12-31T23:59:60Z', Date.parse('2017-01-01T00:00:00Z') / 1000, ''],
    ['0001-01-01T00:00:00Z', -62135596800, ''],
  ])('%s', (text, seconds, fraction) => {
    expect(parseRfc3339(text)).toEqual({ seconds, fraction });
  });

  test.each(['2025-02-29T00:00:00Z', '2025-01-31T24:00:00Z', '2025-01-31T09:60:00Z', '2025-01-31T09:30:00+24:00', '2025-01-31 09:30:00Z', '2025-01-31T09:30:00', '2025-01-31', 'garbage'])(
    'refuses %s',
    (text) => expect(parseRfc3339(text)).toBeUndefined(),
  );
});

describe('compareInstants', () => {
  test('compares fractions of any length exactly', () => {
    const a = parseRfc3339('2025-01-01T00:00:00.1Z')!;
    const b = parseRfc3339('2025-01-01T00:00:00.100000001Z')!;
    expect(compareInstants(a, b)).toBeLessThan(0);
    expect(compareInstants(b, a)).toBeGreaterThan(0);
    expect(compareInstants(a, parseRfc3339('2025-01-01T05:30:00.100+05:30')!)).toBe(0);
  });
});

describe('formatInstant', () => {
  const instant = parseRfc3339('2025-01-31T23:30:05.25Z')!;
  test.each([
    [{}, '2025-01-31T23:30:05.25Z'],
    [{ minFractionDigits: 6 }, '2025-01-31T23:30:05.250000Z'],
    [{ zone: 90 }, '2025-02-01T01:00:05.25+01:30'],
    [{ zone: -720 }, '2025-01-31T11:30:05.25-12:00'],
    [{ zone: 0 }, '2025-01-31T23:30:05.25+00:00'],
    [{ zone: 'none' as const }, '2025-01-31T23:30:05.25'],
  ])('%o', (format, text) => {
    expect(formatInstant(instant, format)).toBe(text);
  });

  test('writes back what it reads, in every zone', () => {
    for (const zone of [-720, -570, 0, 345, 840]) {
      expect(compareInstants(parseRfc3339(formatInstant(instant, { zone }))!, instant)).toBe(0);
    }
  });
});

describe('day helpers', () => {
  test('date, midnight, ms', () => {
    const i = parseRfc3339('2024-02-29T18:00:00.5Z')!;
    expect(utcDateOf(i)).toBe('2024-02-29');
    expect(formatInstant(startOfUtcDay(i))).toBe('2024-02-29T00:00:00Z');
    expect(isUtcMidnight(startOfUtcDay(i))).toBe(true);
    expect(isUtcMidnight(i)).toBe(false);
    expect(instantToMs(i)).toBe(Date.parse('2024-02-29T18:00:00.500Z'));
    expect(instantFromMs(Date.parse('2024-02-29T18:00:00.500Z'))).toEqual(i);
    expect(formatInstant(addSeconds(i, 6 * 3600))).toBe('2024-03-01T00:00:00.5Z');
  });

  test('instantFromMs takes whole milliseconds: a half millisecond (a midpoint) is cut, never written', () => {
    expect(formatInstant(instantFromMs(Date.parse('2026-11-30T20:47:04.504Z') + 0.5))).toBe('2026-11-30T20:47:04.504Z');
    expect(formatInstant(instantFromMs(Date.parse('2026-11-30T20:47:04Z') - 0.5))).toBe('2026-11-30T20:47:03.999Z');
  });
});
