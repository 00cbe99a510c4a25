/**
 * Invisible format characters, Unicode category Cf: the bidirectional marks, embeddings, overrides
 * and isolates (U+061C, U+200E, U+200F, U+202A..U+202E, U+2066..U+2069), zero-width spaces and
 * joiners (U+200B..U+200D), U+2060..U+2064, the byte order mark, the soft hyphen, U+180E, the tag
 * characters. A target may send any of them; written as they are, they reorder or hide text in
 * `cat`, `less`, a diff or a review tool. Every output escapes them (see `jsonText` for JSON; the
 * human-readable writers show `\u202E`).
 */
export const INVISIBLE_FORMAT_SOURCE = '\\p{Cf}';

const INVISIBLE_FORMAT = new RegExp(INVISIBLE_FORMAT_SOURCE, 'gu');

const ONE_INVISIBLE = new RegExp(`^${INVISIBLE_FORMAT_SOURCE}$`, 'u');

/** For each UTF-16 unit of the Basic Multilingual Plane, 1 when it is an invisible format character. */
const INVISIBLE_UNITS = (() => {
  const units = new Uint8Array(0x10000);
  for (let c = 0; c < 0x10000; c += 1) if (c < 0xd800 || c > 0xdfff) units[c] = ONE_INVISIBLE.test(String.fromCharCode(c)) ? 1 : 0;
  return units;
})();

/** True when the code point is an invisible format character. */
export function isInvisibleFormat(codePoint: number): boolean {
  if (codePoint < 0x10000) return INVISIBLE_UNITS[codePoint] === 1;
  return ONE_INVISIBLE.test(String.fromCodePoint(codePoint));
}

/** `\u202e`, or two such escapes for a character beyond the Basic Multilingual Plane. */
function jsonEscape(c: string): string {
  let out = '';
  for (let i = 0; i < c.length; i += 1) out += `\\u${c.charCodeAt(i).toString(16).padStart(4, '0')}`;
  return out;
}

/**
 * JSON text with every invisible format character escaped. JSON.stringify writes structure in
 * ASCII, so such a character can only stand inside a string, where its escape means the same
 * character: the data is unchanged, byte for byte once parsed.
 */
export function escapeInvisibleInJson(json: string): string {
  return json.replace(INVISIBLE_FORMAT, jsonEscape);
}

/** JSON.stringify for a file or a stream a person may read: invisible format characters escaped. */
export function jsonText(value: unknown, indent?: number): string {
  const json = JSON.stringify(value, undefined, indent) as string | undefined;
  if (json === undefined) throw new TypeError('jsonText: a value JSON cannot write');
  return escapeInvisibleInJson(json);
}
