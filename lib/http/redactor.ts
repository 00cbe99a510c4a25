import type { SseEventRecord } from '../model/exchange.ts';
import { crossEventTexts, type WrittenAt } from './event-texts.ts';

/**
 * The single redaction step. Every token value the run knows is replaced by its placeholder
 * (`$ASI_TOKEN`, ...) in anything that is recorded, so that no writer, log or error message
 * downstream can leak one. Placeholders double as shell variables in curl reproductions.
 *
 * A target may echo a token in another form than it was sent, so each is matched in every form
 * a reader could turn back into it: any case; each character as itself, percent-encoded, a JSON,
 * JavaScript, YAML or HTML numeric escape (mixed freely, as a fuzzer or an encoder may leave them); the hex of
 * its bytes; base64 and base64url of the token and of `Bearer <token>` at every alignment. All
 * forms of all tokens are one case-insensitive regular expression, built once.
 */
export interface Secret {
  value: string;
  /** Shell form of the variable that holds it, e.g. `$ASI_TOKEN`. */
  placeholder: string;
}

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
    const bytes = [...Buffer.from(v, 'utf8')];
    forms.add(bytes.map((b) => `%${hex(b, 2)}`).join(''));
    const units = [...Array(v.length).keys()].map((i) => v.charCodeAt(i));
    // JSON and JavaScript `\u0061` (escaped once or more: JSON inside a JSON string), `\x61`.
    forms.add(units.map((u) => `\\\\+u${hex(u, 4)}`).join(''));
    const point = v.codePointAt(0)!;
    if (point < 0x100) forms.add(`\\\\+x${hex(point, 2)}`);
    // YAML's and Python's `\U00000061`, JavaScript's `\u{61}`.
    forms.add(`\\\\+U${hex(point, 8)}`);
    forms.add(`\\\\+u\\{0*${point.toString(16)}\\}`);
    // HTML character references, with or without leading zeros.
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

/** The hex and base64 forms of a secret (and of `Bearer <secret>`), longest first: plain text, no escape in them. */
function encodedForms(value: string): string[] {
  if (value.length < MIN_ENCODED_LENGTH) return [];
  const encoded = new Set<string>();
  for (const text of [`Bearer ${value}`, value]) {
    const bytes = Buffer.from(text, 'utf8');
    for (const form of base64Forms(bytes)) encoded.add(form);
    encoded.add(bytes.toString('hex'));
  }
  return [...encoded].sort((a, b) => b.length - a.length).map(escapeRegExp);
}

/** The regular expression source of every form of one secret, longest alternatives first. */
function formsOf(value: string): string {
  return [...encodedForms(value), [...value].map(characterForms).join('')].join('|');
}

/**
 * The forms of one secret a text can hold when it has no `%`, `\` or `&`: the secret itself in any
 * case (each character's other forms all start with one of those three), its hex and base64.
 */
function plainFormsOf(value: string): string {
  return [...encodedForms(value), escapeRegExp(value)].join('|');
}

/** A text that could hold a character escaped: percent-encoded, a backslash escape, an HTML reference. */
const ESCAPE_MARK = /[%\\&]/;

/** Characters of an event's data that are part of a token, and what stands for them. */
interface Fragment extends WrittenAt {
  placeholder: string;
}

/** The data with each fragment replaced; overlapping fragments (found in two texts) go as one. */
function replaceFragments(data: string, fragments: readonly Fragment[]): string {
  const sorted = [...fragments].sort((a, b) => a.start - b.start);
  let out = '';
  let cursor = 0;
  for (const f of sorted) {
    if (f.end <= cursor) continue;
    out += f.start >= cursor ? `${data.slice(cursor, f.start)}${f.placeholder}` : '';
    cursor = f.end;
  }
  return out + data.slice(cursor);
}

/**
 * The stream's text with each event's data lines replaced where they changed: data lines are
 * found in order (`data:` and an optional space, then the line), so each is replaced in its own
 * event, never in an earlier one that happens to hold the same text.
 */
function replaceDataLines(text: string, before: readonly string[], after: readonly string[]): string {
  let out = '';
  let cursor = 0;
  before.forEach((data, i) => {
    const changed = data !== after[i];
    const newLines = after[i]!.split('\n');
    data.split('\n').forEach((line, j) => {
      for (let at = text.indexOf('data:', cursor); at >= 0; at = text.indexOf('data:', at + 5)) {
        const value = text.startsWith(' ', at + 5) ? at + 6 : at + 5;
        const end = value + line.length;
        if (!text.startsWith(line, value) || (end < text.length && text[end] !== '\n' && text[end] !== '\r')) continue;
        out += text.slice(cursor, value) + (changed ? (newLines[j] ?? '') : line);
        cursor = end;
        return;
      }
    });
  });
  return out + text.slice(cursor);
}

export class Redactor {
  readonly #secrets: Secret[];
  readonly #pattern: RegExp | undefined;
  /**
   * The same groups, for a text without an escape mark: a plain alternation, which the regular
   * expression engine scans many times faster than one that tries every escape at every character.
   */
  readonly #plainPattern: RegExp | undefined;

  constructor(secrets: Iterable<Secret>) {
    // Longest first, so a token that contains another is replaced whole.
    this.#secrets = [...secrets].filter((s) => s.value.length > 0).sort((a, b) => b.value.length - a.value.length);
    this.#pattern = this.#secrets.length === 0 ? undefined : new RegExp(this.#secrets.map((s) => `(${formsOf(s.value)})`).join('|'), 'gi');
    this.#plainPattern = this.#secrets.length === 0 ? undefined : new RegExp(this.#secrets.map((s) => `(${plainFormsOf(s.value)})`).join('|'), 'gi');
  }

  #placeholderOf(groups: unknown[]): string {
    const index = groups.findIndex((g) => typeof g === 'string');
    return this.#secrets[index]?.placeholder ?? '$ASI_TOKEN';
  }

  redact(text: string): string {
    if (this.#pattern === undefined || this.#plainPattern === undefined || text === '') return text;
    const pattern = ESCAPE_MARK.test(text) ? this.#pattern : this.#plainPattern;
    return text.replace(pattern, (...args: unknown[]) => this.#placeholderOf(args.slice(1, this.#secrets.length + 1)));
  }

  /** Names as well as values: a target may echo a token in a header's name. */
  redactHeaders(headers: Record<string, string>): Record<string, string> {
    const out: Record<string, string> = {};
    for (const [k, v] of Object.entries(headers)) out[this.redact(k)] = this.redact(v);
    return out;
  }

  /**
   * An event stream: the assembled text, each event, and tokens split across events (a model
   * streaming a token as several text deltas). Those are found in the texts the events carry
   * when read across them (see event-texts.ts) and every part is replaced where it was written,
   * in the events and in the stream's text.
   */
  redactStream(text: string, events: readonly SseEventRecord[]): { text: string; events: SseEventRecord[] } {
    const redacted = events.map((e) => {
      const r: SseEventRecord = { ...e, event: this.redact(e.event), data: this.redact(e.data) };
      if (e.id !== undefined) r.id = this.redact(e.id);
      return r;
    });
    const body = this.redact(text);
    const byEvent = new Map<number, Fragment[]>();
    for (const f of this.#splitAcross(redacted)) {
      const same = byEvent.get(f.event);
      if (same === undefined) byEvent.set(f.event, [f]);
      else same.push(f);
    }
    if (byEvent.size === 0) return { text: body, events: redacted };
    const before = redacted.map((e) => e.data);
    for (const [event, fragments] of byEvent) redacted[event]!.data = replaceFragments(redacted[event]!.data, fragments);
    return { text: replaceDataLines(body, before, redacted.map((e) => e.data)), events: redacted };
  }

  /** Parts of tokens that only a reading across event boundaries shows. */
  #splitAcross(events: readonly SseEventRecord[]): Fragment[] {
    if (this.#pattern === undefined || events.length < 2) return [];
    const pattern = this.#pattern;
    const fragments: Fragment[] = [];
    for (const across of crossEventTexts(events)) {
      // exec on the one pattern: matchAll would compile a copy of it for each of many short texts.
      pattern.lastIndex = 0;
      for (let m = pattern.exec(across.text); m !== null; m = pattern.exec(across.text)) {
        const placeholder = this.#placeholderOf(m.slice(1));
        for (const at of across.acrossEvents(m.index, m.index + m[0].length) ?? []) fragments.push({ ...at, placeholder });
      }
    }
    return fragments;
  }
}
