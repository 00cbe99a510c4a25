import { INVISIBLE_FORMAT_SOURCE } from '../model/json-text.ts';

/**
 * Invisible format characters (Unicode category Cf, lib/model/json-text.ts): the bidirectional
 * controls (U+202E shows text reversed) among them. They reorder or hide what a reader sees without
 * showing themselves, in any report (writers/text.ts escapes them too). A pattern with the `u` flag.
 */
export const INVISIBLE_FORMAT = INVISIBLE_FORMAT_SOURCE;

/**
 * A character shown as its escape: `\x1b` below U+0100, `\u202E` in the Basic Multilingual Plane
 * (a lone surrogate too), `\u{E0001}` beyond it. One form for the console and every report.
 */
export function visibleEscape(c: string): string {
  const code = c.codePointAt(0)!;
  if (code < 0x100) return `\\x${code.toString(16).padStart(2, '0')}`;
  if (code < 0x10000) return `\\u${code.toString(16).toUpperCase().padStart(4, '0')}`;
  return `\\u{${code.toString(16).toUpperCase()}}`;
}

/**
 * Text a target chose, made safe to print on a terminal or a CI log. Every line the harness prints
 * starts with its own words; target text goes through `consoleText` and so can neither act on the
 * reader's terminal nor start a line of its own.
 *
 * - C0 and C1 controls and DEL (ESC/CSI/OSC sequences: clipboard writes through OSC 52, links
 *   disguised through OSC 8, screen clears; BEL; CR and LF, which would start a line) become
 *   visible escapes: `\x1b`, `\n`.
 * - Invisible format characters (bidirectional overrides and isolates: U+202E shows text
 *   reversed; zero-width spaces, the soft hyphen, tag characters) and line separators become
 *   `\u202E`.
 * - GitHub Actions workflow commands: `::name::` is recognised at the start of a log line (after
 *   blanks), which target text never is, and is neutralised there anyway (`:\x3a`); the older
 *   `##[name]` is recognised anywhere in a line, so it is neutralised everywhere (`#\x23[`).
 *   A `::` inside the text (an IPv6 address) stays as it is.
 */
const UNSAFE = new RegExp(`[\\x00-\\x1f\\x7f-\\x9f\\u2028\\u2029${INVISIBLE_FORMAT}]`, 'gu');

const NAMED: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

function escape(c: string): string {
  return NAMED[c] ?? visibleEscape(c);
}

/** One line of target text, safe for a terminal and a CI log (see above). */
export function consoleText(text: string): string {
  return text.replace(UNSAFE, escape).replace(/^(\s*)::/, '$1:\\x3a').replace(/##\[/g, '#\\x23[');
}
