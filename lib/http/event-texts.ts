import type { SseEventRecord } from '../model/exchange.ts';

/**
 * The texts an event stream carries when it is read across its events: a token streamed as
 * several deltas only shows when each event's part is read next to the others'. Each string
 * value of an event's JSON data sits at a key path (`content`, `delta.text`,
 * `choices[].delta.content`: array positions left out, so parts in an array read on); the values
 * at one path, in event order, are one text, whatever other fields the events carry. Data that is
 * not JSON is a text of its own. All values and data in order are one more text, for a part that
 * moves from key to key in events that carry nothing else.
 *
 * The work is linear in the data: each value lands in two texts at the most, and a match is
 * placed by binary search.
 */

/** Where characters of a text are written: in which event, between which offsets of its data. */
export interface WrittenAt {
  event: number;
  start: number;
  end: number;
}

/** One string value of an event's data (or the whole data, when it is not JSON). */
interface DataString {
  event: number;
  data: string;
  /** Key path id; `RAW_DATA` for data that is not JSON. */
  path: number;
  value: string;
  /** The value's characters in the data, quotes left out. */
  start: number;
  end: number;
  /** Written with escapes: offsets in the value and in the data differ. */
  escaped: boolean;
}

/** The root of a JSON document is never a string value: its id serves data that is not JSON. */
const RAW_DATA = 0;
const ROOT = 0;

/**
 * Key paths as small numbers: a path's id is looked up from its parent's id and one segment, so
 * naming the paths of a deep document costs its size, not its depth times its size.
 */
class KeyPaths {
  #count = 1;
  readonly #keys = new Map<number, Map<string, number>>();
  readonly #items = new Map<number, number>();

  /** The path of `key` in the object at `parent`, or of the items of the array at `parent`. */
  child(parent: number, key: string | undefined): number {
    if (key === undefined) return this.#items.get(parent) ?? this.#add(this.#items, parent);
    let keys = this.#keys.get(parent);
    if (keys === undefined) this.#keys.set(parent, (keys = new Map()));
    return keys.get(key) ?? this.#add(keys, key);
  }

  #add<K>(to: Map<K, number>, at: K): number {
    const id = this.#count++;
    to.set(at, id);
    return id;
  }
}

/** Offset of the quote that closes the string literal whose characters start at `from`. */
function closingQuote(data: string, from: number): number {
  let i = from;
  while (i < data.length && data[i] !== '"') i += data[i] === '\\' ? 2 : 1;
  return i;
}

function isJson(data: string): boolean {
  const first = data.trimStart()[0];
  if (first !== '{' && first !== '[') return false;
  try {
    JSON.parse(data);
    return true;
  } catch {
    return false;
  }
}

/** The string values of one event's data with their key paths, in document order. */
function dataStrings(event: number, data: string, paths: KeyPaths): DataString[] {
  if (!isJson(data)) return [{ event, data, path: RAW_DATA, value: data, start: 0, end: data.length, escaped: false }];
  // The data is valid JSON, so a scan of its punctuation and string literals is enough; no
  // recursion, so no depth of nesting can exhaust the stack.
  const out: DataString[] = [];
  const open: Array<{ path: number; object: boolean }> = [];
  let key: string | undefined;
  let expectingKey = false;
  const valuePath = (): number => {
    const container = open.at(-1);
    if (container === undefined) return ROOT;
    return paths.child(container.path, container.object ? (key ?? '') : undefined);
  };
  for (let i = 0; i < data.length; i += 1) {
    const c = data[i];
    if (c === '{' || c === '[') {
      open.push({ path: valuePath(), object: c === '{' });
      expectingKey = c === '{';
    } else if (c === '}' || c === ']') {
      open.pop();
    } else if (c === ',') {
      expectingKey = open.at(-1)?.object === true;
    } else if (c === '"') {
      const end = closingQuote(data, i + 1);
      const literal = data.slice(i + 1, end);
      const value = literal.includes('\\') ? (JSON.parse(`"${literal}"`) as string) : literal;
      if (expectingKey) {
        key = value;
        expectingKey = false;
      } else {
        out.push({ event, data, path: valuePath(), value, start: i + 1, end, escaped: literal.length !== value.length });
      }
      i = end;
    }
  }
  return out;
}

/** Offsets in the data of the value's characters `from` and `to` (escapes are several characters). */
function dataOffsets(s: DataString, from: number, to: number): [number, number] {
  if (!s.escaped) return [s.start + from, s.start + to];
  let at = s.start;
  let start = s.end;
  for (let n = 0; at < s.end; n += 1) {
    if (n === from) start = at;
    if (n === to) return [start, at];
    at += s.data[at] !== '\\' ? 1 : s.data[at + 1] === 'u' ? 6 : 2;
  }
  return [start, s.end];
}

/** One text read across events, and where each of its characters is written. */
export class CrossEventText {
  readonly text: string;
  readonly #strings: readonly DataString[];
  /** Offset in `text` just past each string: non-decreasing, so searchable. */
  readonly #ends: readonly number[];

  constructor(strings: readonly DataString[]) {
    this.#strings = strings;
    let length = 0;
    this.#ends = strings.map((s) => (length += s.value.length));
    this.text = strings.map((s) => s.value).join('');
  }

  /**
   * Where the text's characters `start` to `end` are written, when two events or more write
   * them; undefined when one event writes them all (its own redaction sees them).
   */
  acrossEvents(start: number, end: number): WrittenAt[] | undefined {
    let low = 0;
    let high = this.#ends.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (this.#ends[mid]! > start) high = mid;
      else low = mid + 1;
    }
    let last = low;
    while (last < this.#strings.length && this.#ends[last]! - this.#strings[last]!.value.length < end) last += 1;
    // Empty values add no characters, so they cannot make a match span two events.
    const written = this.#strings.slice(low, last).filter((s) => s.value.length > 0);
    if (written.every((s) => s.event === written[0]?.event)) return undefined;
    const out: WrittenAt[] = [];
    for (let i = low; i < last; i += 1) {
      const s = this.#strings[i]!;
      const at = this.#ends[i]! - s.value.length;
      const from = Math.max(0, start - at);
      const to = Math.min(s.value.length, end - at);
      if (from >= to) continue;
      const [dataStart, dataEnd] = dataOffsets(s, from, to);
      out.push({ event: s.event, start: dataStart, end: dataEnd });
    }
    return out;
  }
}

/** The texts of a stream's events that two events or more add to. */
export function crossEventTexts(events: readonly SseEventRecord[]): CrossEventText[] {
  const paths = new KeyPaths();
  const all: DataString[] = [];
  // Indexed by path id: ids are small and dense.
  const byPath: DataString[][] = [];
  events.forEach((e, event) => {
    for (const s of dataStrings(event, e.data, paths)) {
      all.push(s);
      (byPath[s.path] ??= []).push(s);
    }
  });
  const spread = (strings: readonly DataString[]): boolean => strings.some((s) => s.event !== strings[0]!.event);
  // Paths of containers hold no strings: filter passes over their holes.
  const used = byPath.filter(() => true);
  const texts = used.filter(spread);
  // With one path only, reading everything in order is reading that path again.
  if (used.length > 1 && spread(all)) texts.push(all);
  return texts.map((strings) => new CrossEventText(strings));
}
