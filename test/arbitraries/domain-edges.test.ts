import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { boundSpelling, queryEncoding, roundFraction } from '../../lib/arbitraries/bound-spelling.ts';
import { featureEdge, featureFix } from '../../lib/arbitraries/feature-edge.ts';
import { invalidLimit } from '../../lib/arbitraries/invalid-limit.ts';
import { limitEdge } from '../../lib/arbitraries/limit-edge.ts';
import { compareInstants, parseRfc3339 } from '../../lib/checks/ledger-instant.ts';
import { FEATURE_EDGES, FRACTION_EDGES, LETTER_EDGES, LIMIT_EDGES, OFFSET_EDGES, QUERY_ENCODINGS } from '../../lib/domains/ledger-query-domains.ts';
import { lengthReadings } from '../../lib/domains/length-readings.ts';

const SAMPLES = { numRuns: 2000, seed: 7 };

/**
 * The number a reader makes of a `limit` text, or undefined when it refuses it: JSON's integer
 * grammar (no leading zero), decimal digits, Number(), Number() of the trimmed text. A prefix
 * reader (parseInt: `5x` is 5) is no reading of "integer" and is left out.
 */
const LIMIT_READERS: ReadonlyArray<(t: string) => number | undefined> = [
  (t) => (/^(0|[1-9][0-9]*)$/.test(t) ? Number(t) : undefined),
  (t) => (/^[0-9]+$/.test(t) ? Number(t) : undefined),
  (t) => (t.trim() === '' ? undefined : Number(t)),
  (t) => (t.trim() === '' ? undefined : Number(t.trim())),
];

function inRange(n: number | undefined): boolean {
  return n !== undefined && Number.isInteger(n) && n >= 1 && n <= 200;
}

describe('limit edges', () => {
  test('refused edges are out of 1..200 or no integer in every reading; accepted ones are in it in every reading; open ones divide the readings', () => {
    for (const e of LIMIT_EDGES) {
      const readings = LIMIT_READERS.map((r) => inRange(r(e.text)));
      if (e.fix === 'accept') expect(readings.every(Boolean), e.text).toBe(true);
      if (e.fix === 'refuse') expect(readings.some(Boolean), e.text).toBe(false);
      // The empty value: no reader takes it for a number, but many take it for no parameter (the default).
      if (e.fix === 'open' && e.text !== '') expect(readings.some(Boolean) && !readings.every(Boolean), e.text).toBe(true);
    }
  });

  test.each(['accept', 'refuse', 'open'] as const)('limitEdge(%s) draws every edge of that fix and no other', (fix) => {
    const seen = new Set(fc.sample(limitEdge(fix), SAMPLES).map((e) => e.text));
    expect([...seen].sort()).toEqual(LIMIT_EDGES.filter((e) => e.fix === fix).map((e) => e.text).sort());
  });

  test('invalidLimit draws every refused edge of the domain', () => {
    const seen = new Set(fc.sample(invalidLimit(), { numRuns: 4000, seed: 3 }));
    for (const e of LIMIT_EDGES.filter((x) => x.fix === 'refuse')) expect(seen.has(e.text), e.text).toBe(true);
  });
});

describe('feature edges', () => {
  test('each table edge has the fix its length readings give', () => {
    for (const e of FEATURE_EDGES) expect(featureFix(e.text), `${e.edge}: ${JSON.stringify(lengthReadings(e.text))}`).toBe(e.fix);
  });

  test('the readings of the multi-byte edges are those their names say', () => {
    expect(lengthReadings('😀'.repeat(16))).toEqual({ graphemes: 16, codePoints: 16, utf16Units: 32, utf8Bytes: 64 });
    expect(lengthReadings('e\u0301'.repeat(65))).toEqual({ graphemes: 65, codePoints: 130, utf16Units: 130, utf8Bytes: 195 });
    expect(lengthReadings('é'.repeat(64))).toEqual({ graphemes: 64, codePoints: 64, utf16Units: 64, utf8Bytes: 128 });
  });

  test.each(['accept', 'refuse', 'open'] as const)('featureEdge(%s) keeps its fix and draws every table edge of it', (fix) => {
    const seen = fc.sample(featureEdge(fix), SAMPLES);
    expect(seen.every((e) => featureFix(e.text) === fix)).toBe(true);
    const texts = new Set(seen.map((e) => e.text));
    for (const e of FEATURE_EDGES.filter((x) => x.fix === fix)) expect(texts.has(e.text), e.edge).toBe(true);
  });

  test('accepted features reach 64 bytes in every non-ASCII unit and refused ones 65 graphemes; spaces come too', () => {
    const accepted = fc.sample(featureEdge('accept'), SAMPLES).map((e) => lengthReadings(e.text.trim()));
    expect(accepted.some((r) => r.utf8Bytes === 64 && r.codePoints < 64)).toBe(true);
    const refused = fc.sample(featureEdge('refuse'), SAMPLES).map((e) => e.text);
    expect(refused.some((t) => lengthReadings(t).graphemes === 65 && /[^\x00-\x7f]/.test(t))).toBe(true);
    expect(fc.sample(featureEdge('accept'), SAMPLES).some((e) => e.text.startsWith(' ') && e.text.endsWith(' '))).toBe(true);
  });
});

describe('bound spellings', () => {
  const instant = { seconds: 1_760_000_000, fraction: '123' };

  test('accepted spellings stand for their instant and reach every accepted offset, fraction length and letter case', () => {
    const seen = fc.sample(boundSpelling(instant), SAMPLES);
    for (const s of seen) {
      expect(s.fix).toBe('accept');
      expect(parseRfc3339(s.text), s.text).toEqual(s.instant);
    }
    const edges = new Set(seen.flatMap((s) => s.edges));
    for (const o of OFFSET_EDGES.filter((x) => x.fix === 'accept')) expect(edges.has(`offset ${o.text}`), o.text).toBe(true);
    for (const f of FRACTION_EDGES.filter((x) => x.fix === 'accept')) expect(edges.has(`fraction ${f.edge}`), f.edge).toBe(true);
    expect(seen.some((s) => s.text.endsWith('-00:00'))).toBe(true);
    expect(seen.some((s) => /\.\d{9}[Z+-]/.test(s.text))).toBe(true);
    expect(seen.some((s) => /:\d{2}\.1[Z+-]/.test(s.text))).toBe(true);
  });

  test('should-accept spellings hold at least one such edge and reach each of them', () => {
    const seen = fc.sample(boundSpelling(instant, { fix: 'should-accept' }), SAMPLES);
    expect(seen.every((s) => s.fix === 'should-accept')).toBe(true);
    for (const s of seen) expect(parseRfc3339(s.text.toUpperCase()), s.text).toEqual(s.instant);
    const edges = new Set(seen.flatMap((s) => s.edges));
    for (const o of OFFSET_EDGES.filter((x) => x.fix === 'should-accept')) expect(edges.has(`offset ${o.text}`), o.text).toBe(true);
    for (const f of FRACTION_EDGES.filter((x) => x.fix === 'should-accept')) expect(edges.has(`fraction ${f.edge}`), f.edge).toBe(true);
    for (const l of LETTER_EDGES.filter((x) => x.fix === 'should-accept')) expect(edges.has(`letters ${l.edge}`), l.edge).toBe(true);
  });

  test('a from rounded down and a to rounded up keep the window: never reversed, whatever digits each is written with', () => {
    const instant3 = fc.record({ seconds: fc.integer({ min: 1_700_000_000, max: 1_700_000_010 }), fraction: fc.stringMatching(/^(\d{0,8}[1-9])?$/) });
    fc.assert(
      fc.property(instant3, instant3, fc.nat({ max: 9 }), fc.nat({ max: 9 }), (x, y, dx, dy) => {
        const [a, b] = compareInstants(x, y) <= 0 ? [x, y] : [y, x];
        const from = roundFraction(a, dx, 'down');
        const to = roundFraction(b, dy, 'up');
        return compareInstants(from, a) <= 0 && compareInstants(to, b) >= 0 && from.fraction.length <= dx && to.fraction.length <= dy;
      }),
      { numRuns: 2000, seed: 11 },
    );
    expect(roundFraction({ seconds: 5, fraction: '999' }, 2, 'up')).toEqual({ seconds: 6, fraction: '' });
    expect(roundFraction({ seconds: 5, fraction: '011' }, 0, 'up')).toEqual({ seconds: 6, fraction: '' });
    expect(roundFraction({ seconds: 5, fraction: '011' }, 2, 'up')).toEqual({ seconds: 5, fraction: '02' });
  });

  test('accepted encodings decode to the value by RFC 3986 and by form decoding; a raw + does not by form decoding', () => {
    const value = '2025-01-01T10:00:00.5+05:45';
    const form = (raw: string): string | null => new URLSearchParams(`v=${raw}`).get('v');
    const names = new Set(fc.sample(queryEncoding(), SAMPLES).map((e) => e.name));
    expect([...names].sort()).toEqual(QUERY_ENCODINGS.filter((e) => e.fix === 'accept').map((e) => e.name).sort());
    for (const e of QUERY_ENCODINGS) {
      const raw = e.encode(value);
      expect(decodeURIComponent(raw), e.name).toBe(value);
      expect(form(raw) === value, e.name).toBe(e.fix === 'accept');
    }
  });
});
