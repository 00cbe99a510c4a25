import type { SseEventRecord } from '../model/exchange.ts';

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

/** The regular expression source of every form of one secret, longest alternatives first. */
function formsOf(value: string): string {
  const forms: string[] = [[...value].map(characterForms).join('')];
  if (value.length >= MIN_ENCODED_LENGTH) {
    const encoded = new Set<string>();
    for (const text of [`Bearer ${value}`, value]) {
      const bytes = Buffer.from(text, 'utf8');
      for (const form of base64Forms(bytes)) encoded.add(form);
      encoded.add(bytes.toString('hex'));
    }
    forms.unshift(...[...encoded].sort((a, b) => b.length - a.length).map(escapeRegExp));
  }
  return forms.join('|');
}

/** String values of a JSON event payload, in document order; the data itself when it is not JSON. */
function textPieces(data: string): string[] {
  const first = data.trimStart()[0];
  if (first === '{' || first === '[') {
    try {
      const pieces: string[] = [];
      const walk = (v: unknown): void => {
        if (typeof v === 'string') pieces.push(v);
        else if (Array.isArray(v)) v.forEach(walk);
        else if (typeof v === 'object' && v !== null) Object.values(v).forEach(walk);
      };
      walk(JSON.parse(data));
      return pieces;
    } catch {
      return [data];
    }
  }
  return [data];
}

/** A part of a token found in one event, and how its data writes that part. */
interface Fragment {
  event: number;
  raw: string;
  placeholder: string;
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

  constructor(secrets: Iterable<Secret>) {
    // Longest first, so a token that contains another is replaced whole.
    this.#secrets = [...secrets].filter((s) => s.value.length > 0).sort((a, b) => b.value.length - a.value.length);
    this.#pattern = this.#secrets.length === 0 ? undefined : new RegExp(this.#secrets.map((s) => `(${formsOf(s.value)})`).join('|'), 'gi');
  }

  #placeholderOf(groups: unknown[]): string {
    const index = groups.findIndex((g) => typeof g === 'string');
    return this.#secrets[index]?.placeholder ?? '$ASI_TOKEN';
  }

  redact(text: string): string {
    if (this.#pattern === undefined || text === '') return text;
    return text.replace(this.#pattern, (...args: unknown[]) => this.#placeholderOf(args.slice(1, this.#secrets.length + 1)));
  }

  /** Names as well as values: a target may echo a token in a header's name. */
  redactHeaders(headers: Record<string, string>): Record<string, string> {
    const out: Record<string, string> = {};
    for (const [k, v] of Object.entries(headers)) out[this.redact(k)] = this.redact(v);
    return out;
  }

  /**
   * An event stream: the assembled text, each event, and tokens split across events (a model
   * streaming a token as several text deltas). Those are found in the text the events carry
   * (their JSON string values, joined in order) and every part is replaced where it was written,
   * in the events and in the stream's text.
   */
  redactStream(text: string, events: readonly SseEventRecord[]): { text: string; events: SseEventRecord[] } {
    const redacted = events.map((e) => {
      const r: SseEventRecord = { ...e, event: this.redact(e.event), data: this.redact(e.data) };
      if (e.id !== undefined) r.id = this.redact(e.id);
      return r;
    });
    const body = this.redact(text);
    const fragments = this.#splitAcross(redacted);
    if (fragments.length === 0) return { text: body, events: redacted };
    const before = redacted.map((e) => e.data);
    for (const { event, raw, placeholder } of fragments) {
      const e = redacted[event]!;
      // A part written in another form than the decoded text shows (an escape) is not found: the
      // whole data goes.
      const at = e.data.indexOf(raw);
      e.data = at < 0 ? placeholder : `${e.data.slice(0, at)}${placeholder}${e.data.slice(at + raw.length)}`;
    }
    return { text: replaceDataLines(body, before, redacted.map((e) => e.data)), events: redacted };
  }

  /** Parts of tokens that only a reading across event boundaries shows. */
  #splitAcross(events: readonly SseEventRecord[]): Fragment[] {
    if (this.#pattern === undefined || events.length < 2) return [];
    const pieces: Array<{ event: number; start: number; text: string; json: boolean }> = [];
    let joined = '';
    events.forEach((e, event) => {
      const texts = textPieces(e.data);
      const json = texts.length !== 1 || texts[0] !== e.data;
      for (const text of texts) {
        pieces.push({ event, start: joined.length, text, json });
        joined += text;
      }
    });
    const fragments: Fragment[] = [];
    for (const m of joined.matchAll(this.#pattern)) {
      const placeholder = this.#placeholderOf(m.slice(1));
      const start = m.index;
      const end = start + m[0].length;
      const spanned = pieces.filter((p) => p.start < end && p.start + p.text.length > start);
      if (new Set(spanned.map((p) => p.event)).size < 2) continue;
      for (const p of spanned) {
        const part = p.text.slice(Math.max(0, start - p.start), Math.min(p.text.length, end - p.start));
        fragments.push({ event: p.event, raw: p.json ? JSON.stringify(part).slice(1, -1) : part, placeholder });
      }
    }
    return fragments;
  }
}
