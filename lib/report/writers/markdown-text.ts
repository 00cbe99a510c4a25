import { consoleText } from '../console-text.ts';
import { shorten } from './text.ts';

/**
 * Text a target chose, placed in Markdown that CI renders (GitHub Markdown in a step summary).
 * Outside code, such text could render images (tracking pixels), links, raw HTML and @mentions;
 * so it goes only inside code spans and fenced blocks built here, whose fences are longer than any
 * backtick run in the text, so that nothing in it can close them. Controls and bidirectional
 * overrides show escaped (console-text.ts), which also keeps a line break out of a table row.
 */

/** The longest run of backticks in `text`. */
function longestBacktickRun(text: string): number {
  return Math.max(0, ...(text.match(/`+/g) ?? []).map((m) => m.length));
}

/** A code span holding any text, on one line, cut to `max` characters. */
export function codeSpan(raw: string, max = Infinity): string {
  const text = consoleText(max === Infinity ? raw : shorten(raw, max));
  if (text === '') return '';
  const fence = '`'.repeat(longestBacktickRun(text) + 1);
  // A span may not begin or end with its own delimiter: a space in between is stripped again.
  const pad = text.startsWith('`') || text.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${text}${pad}${fence}`;
}

/**
 * A table cell holding any text: a code span, with `|` escaped (GFM splits cells on it even
 * inside a code span, and shows `\|` there as `|`).
 */
export function codeCell(raw: string, max = Infinity): string {
  return codeSpan(raw, max).replace(/\|/g, '\\|');
}

/** A fenced block holding any lines: its fence is longer than any backtick run inside. */
export function fencedBlock(info: string, content: string): string[] {
  const lines = content.split('\n').map(consoleText);
  const fence = '`'.repeat(Math.max(3, longestBacktickRun(lines.join('\n')) + 1));
  return [`${fence}${info}`, ...lines, fence];
}
