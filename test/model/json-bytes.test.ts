import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { jsonStringBytes, prefixWithinJsonBytes } from '../../lib/model/json-bytes.ts';
import { jsonText } from '../../lib/model/json-text.ts';

/** What a JSON file holds of `text`: its string literal without the quotes, in UTF-8. */
function written(text: string): number {
  return Buffer.byteLength(jsonText(text)) - 2;
}

// Controls, quotes, backslashes, Latin-1, the BMP beyond, astral characters, lone surrogates and invisible format characters.
const anyText = fc.string({ unit: fc.oneof(fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)), fc.constantFrom('\u0001', '"', '\\', '\n', 'é', '€', '😀', '\ud800', '\u202e', '\u00ad', '\u{e0041}')) });

describe('jsonStringBytes', () => {
  test('is what a JSON file of the harness writes, in UTF-8, for any text', () => {
    fc.assert(
      fc.property(anyText, (text) => {
        expect(jsonStringBytes(text)).toBe(written(text));
      }),
    );
  });

  test('counts a control character as six bytes and a short escape as two', () => {
    expect(jsonStringBytes('\u0001'.repeat(10))).toBe(60);
    expect(jsonStringBytes('a\n"\\')).toBe(7);
  });
});

describe('prefixWithinJsonBytes', () => {
  test('is the longest start within the budget, never half a surrogate pair', () => {
    fc.assert(
      fc.property(anyText, fc.nat({ max: 64 }), (text, max) => {
        const start = prefixWithinJsonBytes(text, max);
        expect(text.startsWith(start)).toBe(true);
        expect(written(start)).toBeLessThanOrEqual(max);
        if (start.length < text.length) {
          const pair = /[\ud800-\udbff][\udc00-\udfff]/.test(text.slice(start.length, start.length + 2));
          expect(written(text.slice(0, start.length + (pair ? 2 : 1)))).toBeGreaterThan(max);
        }
      }),
    );
  });

  test('keeps a sixth of a run of control characters', () => {
    expect(prefixWithinJsonBytes('\u0001'.repeat(1000), 600)).toHaveLength(100);
  });
});
