import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { altersEveryReading, applyCursorMutation, cursorMutation } from '../../lib/arbitraries/cursor-mutation.ts';
import { boundText } from '../../lib/arbitraries/bound-text.ts';
import { garbageCursor } from '../../lib/arbitraries/garbage-cursor.ts';
import { invalidInstantText } from '../../lib/arbitraries/invalid-instant-text.ts';
import { invalidLimit } from '../../lib/arbitraries/invalid-limit.ts';
import { ledgerQuery } from '../../lib/arbitraries/ledger-query.ts';
import { rowWindow } from '../../lib/arbitraries/row-window.ts';
import { utcOffset } from '../../lib/arbitraries/utc-offset.ts';
import { validFeature } from '../../lib/arbitraries/valid-feature.ts';
import { validLimit } from '../../lib/arbitraries/valid-limit.ts';
import { compareInstants, parseRfc3339, readBound } from '../../lib/checks/ledger-instant.ts';
import { rowOf } from '../../lib/checks/ledger-page.ts';
import type { QueryModel } from '../../lib/checks/ledger-query-model.ts';
import { querySpaceOf } from '../../lib/checks/ledger-query-space.ts';
import { row } from '../checks/ledger-fixtures.ts';

const RUNS = { numRuns: 300, seed: 42 };

/** A real `YYYY-MM-DD` date (the other accepted form besides RFC 3339). */
function isRealDate(text: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (m === null) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.toISOString().slice(0, 10) === text;
}

/** RFC 3339 without the offset (the third accepted form), read as if it were UTC. */
function isRealLocalDateTime(text: string): boolean {
  return /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?$/.test(text) && parseRfc3339(`${text}Z`) !== undefined;
}

describe('instants', () => {
  test('utcOffset stays within -12:00..+14:00, never zero by default', () => {
    fc.assert(fc.property(utcOffset(), (m) => m >= -720 && m <= 840 && m !== 0 && [0, 30, 45].includes(Math.abs(m) % 60)), RUNS);
  });

  test('boundText: exact forms write the same instant; the others read as UTC give it too', () => {
    const instant = parseRfc3339('2025-02-28T23:59:59.125Z')!;
    fc.assert(fc.property(boundText(instant, { forms: ['z', 'offset'] }), ({ text, exact }) => exact && compareInstants(parseRfc3339(text)!, instant) === 0), RUNS);
    fc.assert(
      fc.property(boundText(instant), ({ text, form, exact }) => form !== 'date' && exact === (form !== 'offsetless') && compareInstants(parseRfc3339(form === 'offsetless' ? `${text}Z` : text)!, instant) === 0),
      RUNS,
    );
  });

  test('boundText writes a UTC midnight as a date too, and every form comes out', () => {
    const midnight = parseRfc3339('2025-03-01T00:00:00Z')!;
    const forms = new Set(fc.sample(boundText(midnight), { numRuns: 200, seed: 3 }).map((b) => b.form));
    expect(forms).toEqual(new Set(['z', 'offset', 'offsetless', 'date']));
    expect(fc.sample(boundText(midnight, { forms: ['date'] }), 1)[0]).toEqual({ text: '2025-03-01', form: 'date', exact: false });
    expect(() => boundText(parseRfc3339('2025-03-01T00:00:01Z')!, { forms: ['date'] })).toThrow(RangeError);
  });

  test('invalidInstantText is never a real date, an RFC 3339 date-time, or one without offset', () => {
    fc.assert(fc.property(invalidInstantText(), (text) => !isRealDate(text) && parseRfc3339(text) === undefined && !isRealLocalDateTime(text) && text !== ''), RUNS);
  });
});

describe('windows', () => {
  test('rowWindow keeps start < end < count and the span in bounds', () => {
    fc.assert(
      fc.property(rowWindow(40, { minSpan: 2, maxSpan: 8, focus: [0, 17, 39] }), ({ start, end }) => start >= 0 && end < 40 && end - start >= 1 && end - start <= 8),
      RUNS,
    );
    fc.assert(fc.property(rowWindow(3), ({ start, end }) => start < end && end <= 2), RUNS);
  });

  test('rowWindow refuses too few instants', () => {
    expect(() => rowWindow(2, { minSpan: 2 })).toThrow(RangeError);
  });
});

describe('limit and feature', () => {
  test('validLimit is an integer in 1..200 and reaches both ends', () => {
    const seen = fc.sample(validLimit(), { numRuns: 400, seed: 1 });
    expect(seen.every((n) => Number.isInteger(n) && n >= 1 && n <= 200)).toBe(true);
    expect(seen).toContain(1);
    expect(seen).toContain(200);
  });

  test('invalidLimit is never a decimal integer from 1 to 200 in any lenient spelling', () => {
    fc.assert(
      fc.property(invalidLimit(), (text) => {
        const n = Number(text);
        return !(Number.isInteger(n) && n >= 1 && n <= 200) && text.trim() !== '';
      }),
      RUNS,
    );
  });

  test('validFeature has 1 to 64 ASCII characters and reaches both ends', () => {
    const seen = fc.sample(validFeature(), { numRuns: 400, seed: 2 });
    expect(seen.every((f) => f.length >= 1 && f.length <= 64 && /^[a-z0-9_]+$/.test(f))).toBe(true);
    expect(seen.some((f) => f.length === 1)).toBe(true);
    expect(seen.some((f) => f.length === 64)).toBe(true);
  });
});

describe('cursors', () => {
  test('garbageCursor always holds a character no common cursor encoding produces', () => {
    fc.assert(fc.property(garbageCursor(), (c) => /[^A-Za-z0-9\-_.=+/:]/.test(c)), RUNS);
  });

  test('applyCursorMutation never gives back the cursor it was given', () => {
    const cursors = fc.oneof(fc.constantFrom('eyJ3IjoxfQ.abc', 'a', 'ab', '~ x.y&=/?#%é'), fc.string({ minLength: 1, maxLength: 80 }));
    fc.assert(fc.property(cursors, cursorMutation(), (c, m) => applyCursorMutation(c, m) !== c), RUNS);
  });

  test('a change counts as tampering only when it alters the cursor under every common reading', () => {
    // Padding bits of base64: the same bytes.
    expect(altersEveryReading('In0=', 'In3=')).toBe(false);
    // base64 and base64url spell 62 and 63 differently; hex ignores case; JSON ignores spacing.
    expect(altersEveryReading('ab+cd', 'ab-cd')).toBe(false);
    expect(altersEveryReading('0a1b2c', '0A1b2c')).toBe(false);
    expect(altersEveryReading('{"k": 1}', '{"k":1}')).toBe(false);
    // A piece of `<payload>.<mac>` decoded alone: its last character may carry only padding bits.
    expect(altersEveryReading('YWI.mac0', 'YWJ.mac0')).toBe(false);
    expect(altersEveryReading('eyJ3IjoxfQ.abc', 'eyJ3IjoyfQ.abc')).toBe(true);
    expect(altersEveryReading('eyJ3IjoxfQ.abc', 'eyJ3IjoxfQ.abcAAAA')).toBe(true);
  });

  test('a replaced character is never the first or the last', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(...'abcdef'), minLength: 3, maxLength: 30 }), fc.double({ min: 0, max: 1, noNaN: true }), fc.integer({ min: 1, max: 63 }), (c, at, shift) => {
        const out = applyCursorMutation(c, { kind: 'replace', at, shift });
        return out[0] === c[0] && out[out.length - 1] === c[c.length - 1] && out.length === c.length;
      }),
      RUNS,
    );
  });
});

/** Rows every `stepMin` minutes over `hours` hours from 2025-02-01, two features. */
function modelOf(hours: number, stepMin: number): QueryModel {
  const start = Date.parse('2025-02-01T00:30:00Z');
  const rows = Array.from({ length: Math.floor((hours * 60) / stepMin) }, (_, i) =>
    rowOf(row(i + 1, { timestamp: new Date(start + i * stepMin * 60_000).toISOString(), feature: i % 2 === 0 ? 'deal_agent' : 'enrichment' })),
  );
  return { regions: [{ from: rows[0]!.instant!, to: rows[rows.length - 1]!.instant!, rows }], clockOffsetMs: 0 };
}

describe('queries', () => {
  const space = querySpaceOf(modelOf(10 * 24, 180), { defaultWindow: true });

  test('ledgerQuery: both bounds, valid in every reading, one alone, or neither; a feature of 1 to 64 characters; limit 1 to 200', () => {
    fc.assert(
      fc.property(ledgerQuery(space), (q) => {
        const bounded = q.from !== undefined && q.to !== undefined;
        if ([q.from, q.to].some((b) => b !== undefined && readBound(b) === undefined)) return false;
        const valid = !bounded || compareInstants(readBound(q.from!)!.latest, readBound(q.to!)!.earliest) < 0;
        const feature = q.feature === undefined || (q.feature.length >= 1 && q.feature.length <= 64);
        const limit = q.limit === undefined || (Number.isInteger(q.limit) && q.limit >= 1 && q.limit <= 200);
        return valid && feature && limit && Object.values(q).every((v) => v !== undefined);
      }),
      RUNS,
    );
  });

  test('ledgerQuery writes every form on each side, the default window, known and other features, with and without limit', () => {
    const seen = fc.sample(ledgerQuery(space), { numRuns: 400, seed: 5 });
    const forms = (side: 'from' | 'to') => new Set(seen.flatMap((q) => (q[side] === undefined ? [] : [readBound(q[side])!.form])));
    expect(forms('from')).toEqual(new Set(['z', 'offset', 'offsetless', 'date']));
    expect(forms('to')).toEqual(new Set(['z', 'offset', 'offsetless', 'date']));
    expect(seen.some((q) => q.from === undefined && q.to === undefined)).toBe(true);
    expect(seen.some((q) => q.from === undefined && q.to !== undefined) && seen.some((q) => q.from !== undefined && q.to === undefined)).toBe(true);
    expect(seen.some((q) => q.feature === 'enrichment') && seen.some((q) => q.feature !== undefined && !space.features.includes(q.feature))).toBe(true);
    expect(seen.some((q) => q.limit === undefined) && seen.some((q) => q.limit !== undefined)).toBe(true);
  });

  test('ledgerQuery on an hour of rows without the default window writes only bounds with an instant of their own', () => {
    const busy = querySpaceOf(modelOf(1, 1), { defaultWindow: false });
    fc.assert(fc.property(ledgerQuery(busy), (q) => [q.from, q.to].every((b) => b === undefined || ['z', 'offset'].includes(readBound(b)!.form)) && (q.from ?? q.to) !== undefined), RUNS);
    expect(() => ledgerQuery({ ...busy, pairs: [] })).toThrow(RangeError);
  });
});
