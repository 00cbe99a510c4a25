import type { SseEventRecord } from '../model/exchange.ts';
import { decodedView, foldText, lowerAscii } from './decoded-view.ts';
import { encodedForms, everyFormPattern } from './secret-forms.ts';
import { crossEventTexts, type WrittenAt } from './event-texts.ts';

/**
 * The single redaction step. Every token value the run knows is replaced by its placeholder
 * (`$ASI_TOKEN`, ...) in anything that is recorded, so that no writer, log or error message
 * downstream can leak one. Placeholders double as shell variables in curl reproductions.
 *
 * A target may echo a token in another form than it was sent, so each is matched in every form
 * a reader could turn back into it: any case; each character as itself, percent-encoded, a JSON,
 * JavaScript, YAML or HTML numeric escape (mixed freely, as a fuzzer or an encoder may leave them); the hex of
 * its bytes; base64 and base64url of the token and of `Bearer <token>` at every alignment. The
 * forms are stated in secret-forms.ts; they are found by decoding the text once (decoded-view.ts)
 * and looking for each token in that, and the hex and base64 forms in the text as written.
 */
export interface Secret {
  value: string;
  /** Shell form of the variable that holds it, e.g. `$ASI_TOKEN`. */
  placeholder: string;
}

/** A secret holding one of these can be read from a text in more than one way: the exact pattern finds it. */
const ESCAPE_MARK = /[%\\&]/;

/** What is looked for of one secret: itself in the decoded view, and the literal forms in the text. */
interface Needles {
  /** The secret folded, for the decoded view: itself in any case, any character escaped. */
  decoded: string;
  /** Its hex and base64 (any case) and itself with only ASCII lowered, for the text as written. */
  literal: string[];
}


/** A span of a text that writes a secret: the secret's index (longest secrets first). */
interface Match {
  start: number;
  end: number;
  secret: number;
}

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
  /** Each secret's needles, undefined for one the exact pattern looks for. */
  readonly #needles: Array<Needles | undefined>;
  /** The secrets holding an escape mark, in every form; their indexes among all, group by group. */
  readonly #exact: { pattern: RegExp; secrets: number[] } | undefined;
  /** The folded characters of the secrets the decoded view looks for, and each half of a surrogate pair (`\uD83D\uDE00`). */
  readonly #characters: Set<string>;
  /** No text shorter than this can hold a secret in any form (an escape is longer than its character). */
  readonly #shortest: number;

  constructor(secrets: Iterable<Secret>) {
    // Longest first, so a token that contains another is replaced whole.
    this.#secrets = [...secrets].filter((s) => s.value.length > 0).sort((a, b) => b.value.length - a.value.length);
    this.#needles = this.#secrets.map((s) =>
      ESCAPE_MARK.test(s.value) ? undefined : { decoded: foldText(s.value), literal: [...encodedForms(s.value).map(lowerAscii), lowerAscii(s.value)] },
    );
    const exact = this.#secrets.flatMap((s, i) => (ESCAPE_MARK.test(s.value) ? [i] : []));
    this.#exact = exact.length === 0 ? undefined : { pattern: everyFormPattern(exact.map((i) => this.#secrets[i]!.value)), secrets: exact };
    this.#characters = new Set(this.#needles.flatMap((n) => (n === undefined ? [] : [...n.decoded, ...n.decoded.split('')])));
    this.#shortest = Math.min(...this.#secrets.map((s) => s.value.length));
  }

  /**
   * Every place `text` writes a secret, in any form, sorted by where it starts (the longer secret
   * first where two start together).
   */
  #matches(text: string): Match[] {
    if (this.#secrets.length === 0 || text.length < this.#shortest) return [];
    const found: Match[] = [];
    const needled = this.#needles.some((n) => n !== undefined);
    const view = needled ? decodedView(text, (c) => this.#characters.has(c)) : undefined;
    const literal = needled ? lowerAscii(text) : '';
    this.#needles.forEach((needles, secret) => {
      if (needles === undefined || view === undefined) return;
      for (let at = view.text.indexOf(needles.decoded); at >= 0; at = view.text.indexOf(needles.decoded, at + 1)) {
        found.push({ start: view.startOf(at), end: view.endOf(at + needles.decoded.length - 1), secret });
      }
      for (const needle of needles.literal) {
        for (let at = literal.indexOf(needle); at >= 0; at = literal.indexOf(needle, at + 1)) found.push({ start: at, end: at + needle.length, secret });
      }
    });
    if (this.#exact !== undefined) {
      const { pattern, secrets } = this.#exact;
      pattern.lastIndex = 0;
      for (let m = pattern.exec(text); m !== null; m = pattern.exec(text)) {
        const group = m.slice(1).findIndex((g) => g !== undefined);
        found.push({ start: m.index, end: m.index + m[0].length, secret: secrets[group]! });
        // An empty match cannot happen (every secret has a character), but never loop on one.
        if (m[0].length === 0) pattern.lastIndex += 1;
      }
    }
    return found.sort((a, b) => a.start - b.start || a.secret - b.secret || b.end - a.end);
  }

  redact(text: string): string {
    const matches = this.#matches(text);
    if (matches.length === 0) return text;
    // Overlapping matches (a secret written in two forms at once, two secrets sharing text) go as one.
    let out = '';
    let cursor = 0;
    for (const m of matches) {
      if (m.start >= cursor) {
        out += `${text.slice(cursor, m.start)}${this.#secrets[m.secret]!.placeholder}`;
        cursor = m.end;
      } else if (m.end > cursor) cursor = m.end;
    }
    return out + text.slice(cursor);
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
    if (this.#secrets.length === 0 || events.length < 2) return [];
    const fragments: Fragment[] = [];
    for (const across of crossEventTexts(events)) {
      for (const m of this.#matches(across.text)) {
        const placeholder = this.#secrets[m.secret]!.placeholder;
        for (const at of across.acrossEvents(m.start, m.end) ?? []) fragments.push({ ...at, placeholder });
      }
    }
    return fragments;
  }
}
