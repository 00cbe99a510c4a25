/**
 * How profile errors speak of values that may be tokens: by kind and length, never the value. A
 * token pasted where a variable name or a key belongs must not be printed back to a terminal or a
 * CI log.
 */

/**
 * The shortest secret (a token, a secret header's value) the harness takes: every secret is
 * redacted wherever it appears, and one of a few characters would be "redacted" out of unrelated
 * text. No token of the §5.2 shape is that short.
 */
export const MIN_SECRET_LENGTH = 8;

/** §5.2 `<prefix>_live_<hex>`, or a long hex run with digits: a token, not a name. */
export function looksLikeToken(text: string): boolean {
  return /_live_/i.test(text) || /(?=[0-9a-f]*[0-9])[0-9a-f]{16,}/i.test(text);
}

/** A value's kind and size, never its content. */
export function describeSecret(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return `a list of ${value.length} item${value.length === 1 ? '' : 's'}`;
  if (typeof value === 'string') return `a string of ${value.length} characters (value not shown)`;
  if (typeof value === 'object') {
    const keys = Object.keys(value);
    if (keys.length === 0) return 'an empty mapping';
    return `a mapping with keys ${keys.map(keyText).join(', ')}`;
  }
  return `a ${typeof value} (value not shown)`;
}

/** A key of the profile as an error may show it: as written, unless it looks like a token. */
export function keyText(key: string): string {
  return looksLikeToken(key) ? `(a key of ${key.length} characters, not shown: it looks like a token)` : key;
}
