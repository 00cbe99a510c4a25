import { INVISIBLE_FORMAT, visibleEscape } from '../console-text.ts';

/**
 * Text helpers every writer shares: characters XML 1.0 forbids made visible, markup escaping,
 * and excerpts that say how much they left out.
 */

/**
 * Characters XML 1.0 does not allow (C0 controls other than tab, LF and CR; U+FFFE, U+FFFF; lone
 * surrogates): a target may send any byte, and the report must stay well-formed and show what
 * came. And invisible format characters (console-text.ts), which would reorder or hide what a
 * reader sees. With the `u` flag a well-formed surrogate pair is one character: only a lone
 * surrogate matches the surrogate range.
 */
const NOT_SHOWN_AS_IS = new RegExp(`[\\x00-\\x08\\x0B\\x0C\\x0E-\\x1F\\uFFFE\\uFFFF\\uD800-\\uDFFF${INVISIBLE_FORMAT}]`, 'gu');

/** Replaces each character XML 1.0 forbids, and each invisible format character, by its escape as text (`\x00`, `\uFFFE`, `\u202E`). */
export function visibleControls(text: string): string {
  return text.replace(NOT_SHOWN_AS_IS, visibleEscape);
}

const MARKUP_ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text for HTML content and attribute values alike. */
export function escapeHtml(text: string): string {
  return visibleControls(text).replace(/[&<>"']/g, (c) => MARKUP_ENTITIES[c] ?? c);
}

/** Text for XML element content: line ends stay readable. */
export function escapeXmlText(text: string): string {
  return visibleControls(text).replace(/[&<>]/g, (c) => MARKUP_ENTITIES[c] ?? c);
}

/**
 * Text for an XML attribute value. Line ends and tabs become character references: a parser
 * normalises a literal one in an attribute to a space.
 */
export function escapeXmlAttribute(text: string): string {
  return visibleControls(text)
    .replace(/[&<>"']/g, (c) => MARKUP_ENTITIES[c] ?? c)
    .replace(/\r/g, '&#13;')
    .replace(/\n/g, '&#10;')
    .replace(/\t/g, '&#9;');
}

export interface Excerpt {
  text: string;
  /** Characters left out at the end. */
  omitted: number;
}

/** The first `max` characters, never splitting a surrogate pair. */
export function excerpt(text: string, max: number): Excerpt {
  if (text.length <= max) return { text, omitted: 0 };
  let end = max;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  return { text: text.slice(0, end), omitted: text.length - end };
}

/** One line of at most `max` characters, ending in `…` when cut. */
export function shorten(text: string, max: number): string {
  const line = text.replace(/\s+/g, ' ').trim();
  if (line.length <= max) return line;
  return `${excerpt(line, max - 1).text}…`;
}
