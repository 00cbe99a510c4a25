/**
 * Every form in which a reader could find a secret in a text, stated exactly: any case; each
 * character as itself, percent-encoded UTF-8, `\uXXXX` (a surrogate pair as two) behind any number
 * of backslashes (JSON inside a JSON string), `\xXX`, YAML's and Python's `\UXXXXXXXX`,
 * JavaScript's `\u{X}`, an HTML numeric reference, or `\/` for a slash, mixed freely (as a fuzzer
 * or an encoder may leave them); the hex of its bytes; base64 and base64url of the secret and of
 * `Bearer <secret>` at every alignment.
 *
 * As one case-insensitive regular expression this is exact but slow: it tries every escape of
 * every character at each place of a text. The redactor uses it only for secrets that themselves
 * hold `%`, `\` or `&` (where a text can be read in more than one way); for the others it decodes
 * the text once and searches that (decoded-view.ts), and a self-test holds the two to the same
 * findings.
 */

/** Below this length the hex and base64 forms of a value are too short to tell from chance. */
const MIN_ENCODED_LENGTH = 12;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function hex(n: number, width: number): string {
  return n.toString(16).padStart(width, '0');
}

/** Every way one character may be written: itself, or an escape of it (or of its other case). */
function characterForms(c: string): string {
  const variants = [...new Set([c, c.toLowerCase(), c.toUpperCase()])].filter((v) => [...v].length === 1);
  const forms = new Set<string>([escapeRegExp(c)]);
  for (const v of variants) {
    forms.add([...Buffer.from(v, 'utf8')].map((b) => `%${hex(b, 2)}`).join(''));
    const units = [...Array(v.length).keys()].map((i) => v.charCodeAt(i));
    forms.add(units.map((u) => `\\\\+u${hex(u, 4)}`).join(''));
    const point = v.codePointAt(0)!;
    if (point < 0x100) forms.add(`\\\\+x${hex(point, 2)}`);
    forms.add(`\\\\+U${hex(point, 8)}`);
    forms.add(`\\\\+u\\{0*${point.toString(16)}\\}`);
    forms.add(`&#x0*${point.toString(16)};`);
    forms.add(`&#0*${point};`);
  }
  if (c === '/') forms.add('\\\\+/');
  return `(?:${[...forms].join('|')})`;
}

/**
 * The characters of `bytes`' base64 at each of the three alignments it can have inside a longer
 * encoded text: only the characters that depend on these bytes alone.
 */
function base64Forms(bytes: Buffer): string[] {
  const out: string[] = [];
  for (let k = 0; k < 3; k += 1) {
    const encoded = Buffer.concat([Buffer.alloc(k), bytes]).toString('base64');
    const inner = encoded.slice(Math.ceil((8 * k) / 6), Math.floor((8 * (k + bytes.length)) / 6));
    out.push(inner, inner.replace(/\+/g, '-').replace(/\//g, '_'));
  }
  return out;
}

/** The hex and base64 forms of a secret (and of `Bearer <secret>`), as written: no escape in them. */
export function encodedForms(value: string): string[] {
  if (value.length < MIN_ENCODED_LENGTH) return [];
  const encoded = new Set<string>();
  for (const text of [`Bearer ${value}`, value]) {
    const bytes = Buffer.from(text, 'utf8');
    for (const form of base64Forms(bytes)) encoded.add(form);
    encoded.add(bytes.toString('hex'));
  }
  return [...encoded];
}

/**
 * Every form of each value, one capturing group per value in the order given (the longest
 * alternatives of a value first), case-insensitive and global.
 */
export function everyFormPattern(values: readonly string[]): RegExp {
  const groups = values.map((value) => {
    const encoded = encodedForms(value)
      .sort((a, b) => b.length - a.length)
      .map(escapeRegExp);
    return `(${[...encoded, [...value].map(characterForms).join('')].join('|')})`;
  });
  return new RegExp(groups.join('|'), 'gi');
}
