/**
 * The ways a text's "length" is commonly read (§8.3 "`feature` on the ledger: length 1 to 64"
 * names none): user-perceived characters (extended grapheme clusters), Unicode code points, UTF-16
 * code units (JavaScript's `length`, Java's `String.length()`) and UTF-8 bytes. For any text they
 * are in that order, each at most the next, so the smallest and the largest bound them all.
 */
export interface LengthReadings {
  graphemes: number;
  codePoints: number;
  utf16Units: number;
  utf8Bytes: number;
}

const graphemeSegmenter = new Intl.Segmenter('en', { granularity: 'grapheme' });

export function lengthReadings(text: string): LengthReadings {
  return {
    graphemes: [...graphemeSegmenter.segment(text)].length,
    codePoints: [...text].length,
    utf16Units: text.length,
    utf8Bytes: Buffer.byteLength(text, 'utf8'),
  };
}

/**
 * What a range of lengths fixes for a text: `inside` when every reading lies in [min, max],
 * `outside` when every reading lies outside it on the same side, `open` when readings differ.
 */
export function lengthVerdict(text: string, min: number, max: number): 'inside' | 'outside' | 'open' {
  const r = lengthReadings(text);
  // Graphemes are the smallest reading and bytes the largest.
  if (r.graphemes >= min && r.utf8Bytes <= max) return 'inside';
  if (r.graphemes > max || r.utf8Bytes < min) return 'outside';
  return 'open';
}
