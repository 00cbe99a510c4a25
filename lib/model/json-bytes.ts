import { isInvisibleFormat } from './json-text.ts';

/**
 * Sizes of text as a JSON file holds it: escapes included, in UTF-8. A control character takes
 * six bytes there (`\u0001`), so a budget counted in characters would let a hostile target grow
 * a file sixfold.
 */

/** Bytes the UTF-16 unit `c` takes inside a JSON string (as JSON.stringify writes it), outside a surrogate pair. */
function unitBytes(c: number): number {
  if (c === 0x22 || c === 0x5c) return 2;
  // \b \t \n \f \r have short escapes; every other control is \u00XX.
  if (c < 0x20) return c === 0x08 || c === 0x09 || c === 0x0a || c === 0x0c || c === 0x0d ? 2 : 6;
  if (c < 0x80) return 1;
  // Invisible format characters are written escaped too (json-text.ts).
  if (isInvisibleFormat(c)) return 6;
  if (c < 0x800) return 2;
  // A lone surrogate is written as its escape (well-formed JSON.stringify).
  if (c >= 0xd800 && c <= 0xdfff) return 6;
  return 3;
}

/** Bytes of the surrogate pair at `i`: four in UTF-8, or two escapes of six for an invisible format character. */
function pairBytes(text: string, i: number): number {
  return isInvisibleFormat(text.codePointAt(i)!) ? 12 : 4;
}

/** True when a surrogate pair (one character of four UTF-8 bytes) starts at `i`. */
function pairAt(text: string, i: number): boolean {
  const c = text.charCodeAt(i);
  if (c < 0xd800 || c > 0xdbff) return false;
  const next = text.charCodeAt(i + 1);
  return next >= 0xdc00 && next <= 0xdfff;
}

/** Bytes of `JSON.stringify(text)` in UTF-8, without its two quotes. */
export function jsonStringBytes(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i += 1) {
    if (pairAt(text, i)) {
      bytes += pairBytes(text, i);
      i += 1;
    } else {
      bytes += unitBytes(text.charCodeAt(i));
    }
  }
  return bytes;
}

/** The longest start of `text` whose JSON string takes at most `maxBytes` (never half a surrogate pair). */
export function prefixWithinJsonBytes(text: string, maxBytes: number): string {
  // No unit takes more than six bytes (a pair of two units twelve).
  if (text.length * 6 <= maxBytes) return text;
  let bytes = 0;
  let i = 0;
  while (i < text.length) {
    const pair = pairAt(text, i);
    const size = pair ? pairBytes(text, i) : unitBytes(text.charCodeAt(i));
    if (bytes + size > maxBytes) break;
    bytes += size;
    i += pair ? 2 : 1;
  }
  return i === text.length ? text : text.slice(0, i);
}
