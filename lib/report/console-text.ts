/**
 * Bidirectional controls: the Arabic letter mark, the left-to-right and right-to-left marks,
 * embeddings and overrides (U+202A..U+202E) and isolates (U+2066..U+2069). They reorder what a
 * reader sees without showing themselves, in any report (writers/text.ts escapes them too).
 */
export const BIDI_CONTROLS = '\\u061c\\u200e\\u200f\\u202a-\\u202e\\u2066-\\u2069';

/**
 * Text a target chose, made safe to print on a terminal or a CI log. Every line the harness prints
 * starts with its own words; target text goes through `consoleText` and so can neither act on the
 * reader's terminal nor start a line of its own.
 *
 * - C0 and C1 controls and DEL (ESC/CSI/OSC sequences: clipboard writes through OSC 52, links
 *   disguised through OSC 8, screen clears; BEL; CR and LF, which would start a line) become
 *   visible escapes: `\x1b`, `\n`.
 * - Bidirectional overrides and isolates (U+202E shows text reversed), invisible marks and line
 *   separators become `\u202E`.
 * - GitHub Actions workflow commands: `::name::` is recognised at the start of a log line (after
 *   blanks), which target text never is, and is neutralised there anyway (`:\x3a`); the older
 *   `##[name]` is recognised anywhere in a line, so it is neutralised everywhere (`#\x23[`).
 *   A `::` inside the text (an IPv6 address) stays as it is.
 */
const UNSAFE = new RegExp(`[\\x00-\\x1f\\x7f-\\x9f\\u2028\\u2029\\ufeff${BIDI_CONTROLS}]`, 'g');

const NAMED: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

function escape(c: string): string {
  const code = c.charCodeAt(0);
  return NAMED[c] ?? (code < 0x100 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).toUpperCase().padStart(4, '0')}`);
}

/** One line of target text, safe for a terminal and a CI log (see above). */
export function consoleText(text: string): string {
  return text.replace(UNSAFE, escape).replace(/^(\s*)::/, '$1:\\x3a').replace(/##\[/g, '#\\x23[');
}
