import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { jsonText } from '../../lib/model/json-text.ts';

/** The bidirectional controls and a sample of the other invisible format characters (Cf). */
const INVISIBLE = ['\u061c', '\u200e', '\u200f', '\u202a', '\u202b', '\u202c', '\u202d', '\u202e', '\u2066', '\u2067', '\u2068', '\u2069', '\u200b', '\u200c', '\u200d', '\u2060', '\u2061', '\u2062', '\u2063', '\u2064', '\ufeff', '\u00ad', '\u180e', '\u{e0001}', '\u{e0041}'];
const ANY_INVISIBLE = /\p{Cf}/u;

describe('jsonText', () => {
  test('writes no invisible format character raw, in keys or values, and reads back the same data', () => {
    const text = `a${INVISIBLE.join('b')}z`;
    const value = { [text]: [text, { nested: text }] };
    const written = jsonText(value, 2);
    expect(written).not.toMatch(ANY_INVISIBLE);
    expect(written).toContain('\\u202e');
    expect(JSON.parse(written)).toEqual(value);
  });

  test('is JSON.stringify but for those escapes, for any value', () => {
    const unit = fc.oneof(fc.string(), fc.constantFrom(...INVISIBLE));
    fc.assert(
      fc.property(fc.jsonValue(), fc.array(unit), (value, parts) => {
        const data = { value, text: parts.join('') };
        const written = jsonText(data);
        expect(written).not.toMatch(ANY_INVISIBLE);
        expect(JSON.parse(written)).toEqual(JSON.parse(JSON.stringify(data)));
      }),
    );
  });
});
