/**
 * A text as a reader could decode it, character by character: each percent-encoded UTF-8
 * character, JSON, JavaScript or YAML backslash escape (behind any number of backslashes: JSON
 * inside a JSON string), and HTML numeric reference is read as the character it stands for,
 * mixed freely with plain characters, and every character is folded to one case. The redactor
 * looks for a secret in this view, so that one search finds it in every such form, and maps what
 * it finds back to the span of the text that wrote it. Searching the view costs a pass over the
 * text, however many secrets there are; trying every escape of every character of every secret at
 * each place of the text (one regular expression of them all) cost a second per 10 KB with the
 * dozens of tokens of a client grading.
 */
export interface DecodedView {
  /** The decoded, case-folded text. */
  readonly text: string;
  /** Where the character at `k` of the view starts in the original text. */
  startOf(k: number): number;
  /** Where the character at `k` of the view ends in the original text. */
  endOf(k: number): number;
}

/** A text that could hold a character escaped: percent-encoded, a backslash escape, an HTML reference. */
const ESCAPE_MARK = /[%\\&]/;
const ASCII_ONLY = /^[\x00-\x7f]*$/;
const UPPER_ASCII = /[A-Z]/;
const MAX_CODE_POINT = 0x10ffff;
/** Units turned into a string at a time (an argument list, kept well below the engine's limit). */
const UNITS_PER_CHUNK = 8_192;

/**
 * One case for every character, as a case-insensitive regular expression compares them: upper
 * then lower case, where neither changes the length (so ς, σ and Σ fold alike). ASCII letters
 * are lowered directly.
 */
export function foldCase(ch: string): string {
  if (ch.length === 1 && ch.charCodeAt(0) < 0x80) return ch.toLowerCase();
  const upper = ch.toUpperCase();
  const base = upper.length === ch.length ? upper : ch;
  const lower = base.toLowerCase();
  return lower.length === base.length ? lower : base;
}

/** Each character folded (foldCase), the length kept. */
export function foldText(text: string): string {
  // A text with nothing to fold is its own view: a 2 MiB stream of control characters costs no copy.
  if (ASCII_ONLY.test(text)) return UPPER_ASCII.test(text) ? text.toLowerCase() : text;
  let out = '';
  for (const ch of text) out += foldCase(ch);
  return out;
}

/** ASCII letters lowered, nothing else changed: the length is kept. */
export function lowerAscii(text: string): string {
  return UPPER_ASCII.test(text) ? text.replace(/[A-Z]+/g, (s) => s.toLowerCase()) : text;
}

function hexDigit(code: number): number | undefined {
  if (code >= 0x30 && code <= 0x39) return code - 0x30;
  const lower = code | 0x20;
  return lower >= 0x61 && lower <= 0x66 ? lower - 0x61 + 10 : undefined;
}

/** The value of `count` hex digits at `from`, or undefined. */
function hexValue(text: string, from: number, count: number): number | undefined {
  if (from + count > text.length) return undefined;
  let value = 0;
  for (let k = from; k < from + count; k++) {
    const d = hexDigit(text.charCodeAt(k));
    if (d === undefined) return undefined;
    value = value * 16 + d;
  }
  return value;
}

interface Decoded {
  point: number;
  end: number;
}

/** `%XX`: one byte. */
function percentByte(text: string, i: number): number | undefined {
  return text.charCodeAt(i) === 0x25 ? hexValue(text, i + 1, 2) : undefined;
}

/** A character written as the percent-encoding of its UTF-8 bytes. */
function percentAt(text: string, i: number): Decoded | undefined {
  const b0 = percentByte(text, i);
  if (b0 === undefined) return undefined;
  if (b0 < 0x80) return { point: b0, end: i + 3 };
  const n = b0 >= 0xf0 && b0 <= 0xf7 ? 4 : b0 >= 0xe0 && b0 < 0xf0 ? 3 : b0 >= 0xc0 && b0 < 0xe0 ? 2 : 0;
  if (n === 0) return undefined;
  let point = b0 & (0xff >> (n + 1));
  for (let k = 1; k < n; k++) {
    const b = percentByte(text, i + 3 * k);
    if (b === undefined || (b & 0xc0) !== 0x80) return undefined;
    point = (point << 6) | (b & 0x3f);
  }
  return point <= MAX_CODE_POINT ? { point, end: i + 3 * n } : undefined;
}

/** `\uXXXX` (or `\UXXXX`) behind a run of backslashes starting at `i`: one UTF-16 unit. */
function unitAt(text: string, i: number): Decoded | undefined {
  let j = i;
  while (text.charCodeAt(j) === 0x5c) j++;
  if (j === i || (text.charCodeAt(j) | 0x20) !== 0x75) return undefined;
  const unit = hexValue(text, j + 1, 4);
  return unit === undefined ? undefined : { point: unit, end: j + 5 };
}

/**
 * A backslash escape behind the run of backslashes at `i`: `\/`, `\xXX`, `\u{X…}`, YAML's and
 * Python's `\UXXXXXXXX`, and `\uXXXX`.
 */
function backslashAt(text: string, i: number): Decoded | undefined {
  let j = i;
  while (text.charCodeAt(j) === 0x5c) j++;
  const c = text.charCodeAt(j);
  if (c === 0x2f) return { point: 0x2f, end: j + 1 };
  if ((c | 0x20) === 0x78) {
    const v = hexValue(text, j + 1, 2);
    return v === undefined ? undefined : { point: v, end: j + 3 };
  }
  if ((c | 0x20) !== 0x75) return undefined;
  if (text.charCodeAt(j + 1) === 0x7b) {
    let k = j + 2;
    while (text.charCodeAt(k) === 0x30) k++;
    let digits = 0;
    let v = 0;
    for (let d = hexDigit(text.charCodeAt(k)); d !== undefined && digits < 7; d = hexDigit(text.charCodeAt(k))) {
      v = v * 16 + d;
      k++;
      digits++;
    }
    if (text.charCodeAt(k) !== 0x7d || k === j + 2 || v > MAX_CODE_POINT) return undefined;
    return { point: v, end: k + 1 };
  }
  // Eight digits after an upper-case U (YAML's and Python's form), four after a lower-case u
  // (JSON's and JavaScript's): `\u0010abcd` is a control character and four letters.
  const long = c === 0x55 ? hexValue(text, j + 1, 8) : undefined;
  if (long !== undefined && long <= MAX_CODE_POINT) return { point: long, end: j + 9 };
  // A surrogate pair is two of these: its halves side by side in the view are the character.
  return unitAt(text, i);
}

/** `&#x61;` or `&#97;`, leading zeros allowed. */
function referenceAt(text: string, i: number): Decoded | undefined {
  if (text.charCodeAt(i + 1) !== 0x23) return undefined;
  let k = i + 2;
  const hex = (text.charCodeAt(k) | 0x20) === 0x78;
  if (hex) k++;
  const first = k;
  while (text.charCodeAt(k) === 0x30) k++;
  let v = 0;
  let digits = 0;
  for (;;) {
    const code = text.charCodeAt(k);
    const d = hex ? hexDigit(code) : code >= 0x30 && code <= 0x39 ? code - 0x30 : undefined;
    if (d === undefined || digits >= 8) break;
    v = v * (hex ? 16 : 10) + d;
    k++;
    digits++;
  }
  if (text.charCodeAt(k) !== 0x3b || k === first || v > MAX_CODE_POINT) return undefined;
  return { point: v, end: k + 1 };
}

function escapeAt(text: string, i: number, code: number): Decoded | undefined {
  if (code === 0x25) return percentAt(text, i);
  if (code === 0x5c) return backslashAt(text, i);
  if (code === 0x26) return referenceAt(text, i);
  return undefined;
}

/**
 * Whether an escape in `text` stands for a character `wanted` accepts. When none does, no secret
 * can be found through an escape, and the text as written (folded) is the view: a body of 5 MiB
 * of control characters, six times longer once JSON-escaped, then costs no arrays.
 */
function decodesToAny(text: string, wanted: (folded: string) => boolean): boolean {
  const marks = /[%\\&]/g;
  for (let m = marks.exec(text); m !== null; m = marks.exec(text)) {
    const decoded = escapeAt(text, m.index, text.charCodeAt(m.index));
    if (decoded !== undefined && wanted(foldCase(String.fromCodePoint(decoded.point)))) return true;
    if (decoded !== undefined) marks.lastIndex = decoded.end;
  }
  return false;
}

/**
 * The text decoded and folded (DecodedView); linear in its length. With `wanted`, a text none of
 * whose escapes decodes to a wanted character is viewed as written.
 */
export function decodedView(text: string, wanted?: (folded: string) => boolean): DecodedView {
  if (!ESCAPE_MARK.test(text) || (wanted !== undefined && !decodesToAny(text, wanted))) {
    const folded = foldText(text);
    return { text: folded, startOf: (k) => k, endOf: (k) => k + 1 };
  }
  // The view is never longer than the text: every escape is longer than what it decodes to. Two
  // bytes a unit and four for its start: a 4 MiB body costs 24 MiB while it is read.
  const units = new Uint16Array(text.length);
  const starts = new Int32Array(text.length);
  let length = 0;
  const push = (ch: string, start: number): void => {
    for (let u = 0; u < ch.length; u++) {
      units[length] = ch.charCodeAt(u);
      starts[length] = start;
      length++;
    }
  };
  let i = 0;
  while (i < text.length) {
    const code = text.charCodeAt(i);
    const decoded = escapeAt(text, i, code);
    if (decoded !== undefined) {
      push(foldCase(String.fromCodePoint(decoded.point)), i);
      i = decoded.end;
    } else if (code === 0x5c) {
      // A run of backslashes that escapes nothing: each is itself (looked at once, not per start).
      const runStart = i;
      while (text.charCodeAt(i) === 0x5c) i++;
      for (let k = runStart; k < i; k++) push('\\', k);
    } else if (code < 0x80) {
      push(String.fromCharCode(code >= 0x41 && code <= 0x5a ? code + 0x20 : code), i);
      i += 1;
    } else {
      const point = text.codePointAt(i)!;
      push(foldCase(String.fromCodePoint(point)), i);
      i += point > 0xffff ? 2 : 1;
    }
  }
  // A unit's character ends where the next character starts (a pair's two units start together).
  const endOf = (k: number): number => {
    let next = k + 1;
    while (next < length && starts[next] === starts[k]) next++;
    return next < length ? starts[next]! : text.length;
  };
  const chunks: string[] = [];
  for (let at = 0; at < length; at += UNITS_PER_CHUNK) chunks.push(String.fromCharCode(...units.subarray(at, Math.min(length, at + UNITS_PER_CHUNK))));
  return { text: chunks.join(''), startOf: (k) => starts[k]!, endOf };
}
