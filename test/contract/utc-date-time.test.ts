import { describe, expect, test } from 'vitest';
import { isUtcDateTime } from '../../lib/contract/utc-date-time.ts';

// Cases after JSON-Schema-Test-Suite tests/draft2020-12/optional/format/date-time.json, narrowed
// to the spec's "full ISO 8601 with a trailing `Z`" (§2.1): every offset form is rejected here.
const accepted = [
  '1963-06-19T08:30:06.283185Z',
  '1963-06-19T08:30:06Z',
  '2024-01-01T00:00:00Z',
  '2024-02-29T12:00:00Z',
  '2000-02-29T23:59:59.999Z',
  '1998-12-31T23:59:60Z',
  '1998-12-31T23:59:60.5Z',
  '9999-12-31T23:59:59.000000001Z',
  '2024-04-30T10:11:12.1Z',
];

const rejected: Array<[string, string]> = [
  ['1937-01-01T12:00:27.87+00:20', 'offset +00:20'],
  ['1990-12-31T15:59:50.123-08:00', 'negative offset'],
  ['2024-01-01T00:00:00+00:00', 'zero offset instead of Z'],
  ['2024-01-01T00:00:00-00:00', 'unknown-local offset'],
  ['2024-01-01T00:00:00+0000', 'basic offset'],
  ['2024-01-01T00:00:00+01', 'hour-only offset'],
  ['1990-12-31T15:59:59+10:60', 'offset minute 60'],
  ['1998-12-31T15:59:60.123-08:00', 'leap second with offset'],
  ['2024-01-01T00:00:00', 'no zone'],
  ['2024-01-01T00:00:00.123', 'no zone with fraction'],
  ['1963-06-19t08:30:06.283185z', 'lowercase t and z'],
  ['1963-06-19T08:30:06z', 'lowercase z'],
  ['1963-06-19t08:30:06Z', 'lowercase t'],
  ['1963-06-19 08:30:06Z', 'space separator'],
  ['1963-06-19_08:30:06Z', 'underscore separator'],
  ['1990-02-31T15:59:59Z', 'February 31'],
  ['2023-02-29T00:00:00Z', 'February 29 of a common year'],
  ['1900-02-29T00:00:00Z', 'February 29 of a century year'],
  ['2024-04-31T00:00:00Z', 'April 31'],
  ['2024-13-01T00:00:00Z', 'month 13'],
  ['2024-00-01T00:00:00Z', 'month 0'],
  ['2024-01-00T00:00:00Z', 'day 0'],
  ['2024-01-01T24:00:00Z', 'hour 24'],
  ['2024-01-01T23:60:00Z', 'minute 60'],
  ['2024-01-01T12:00:60Z', 'second 60 outside 23:59'],
  ['1998-12-31T23:59:61Z', 'second 61'],
  ['1998-12-31T23:58:60Z', 'leap second, wrong minute'],
  ['1998-12-31T22:59:60Z', 'leap second, wrong hour'],
  ['1963-06-1T08:30:06.283185Z', 'unpadded day'],
  ['1963-6-19T08:30:06Z', 'unpadded month'],
  ['1963-06-19T8:30:06Z', 'unpadded hour'],
  ['63-06-19T08:30:06Z', 'two-digit year'],
  ['+01963-06-19T08:30:06Z', 'expanded year'],
  ['1963-06-1\u09eaT00:00:00Z', 'Bengali digit in the day'],
  ['1963-06-11T0\u09ea:00:00Z', 'Bengali digit in the hour'],
  ['\uff11963-06-19T08:30:06Z', 'fullwidth digit'],
  ['2024-01-01T00:00Z', 'no seconds'],
  ['2024-01-01T00:00:00.Z', 'empty fraction'],
  ['2024-01-01T00:00:00,5Z', 'comma fraction'],
  ['20240101T000000Z', 'basic format'],
  ['2013-350T01:01:01Z', 'ordinal date'],
  ['2024-W01-1T00:00:00Z', 'week date'],
  ['2024-01-01', 'date only'],
  ['06/19/1963 08:30:06 PST', 'not ISO'],
  [' 2024-01-01T00:00:00Z', 'leading space'],
  ['2024-01-01T00:00:00Z ', 'trailing space'],
  ['2024-01-01T00:00:00Z\n', 'trailing newline'],
  ['', 'empty'],
];

describe('isUtcDateTime', () => {
  test.each(accepted)('accepts %s', (text) => {
    expect(isUtcDateTime(text)).toBe(true);
  });
  test.each(rejected)('rejects %s (%s)', (text) => {
    expect(isUtcDateTime(text)).toBe(false);
  });
  test('accepts what Date#toISOString writes', () => {
    for (const ms of [0, 951_782_400_000, 1_709_164_800_123, 4_102_444_799_999]) {
      expect(isUtcDateTime(new Date(ms).toISOString())).toBe(true);
    }
  });
});
