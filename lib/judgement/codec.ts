import { createHash } from 'node:crypto';
import { readServedDocument, type ServedDocument } from '../checks/openapi-documents.ts';
import { readPage, type LedgerPage } from '../checks/ledger-page.ts';
import type { Walk } from '../checks/ledger-walk.ts';
import type { Exchange } from '../model/exchange.ts';

/**
 * A checker's inputs and output as data that survives the run: exchanges by their sequence number
 * in the record, values derived from one exchange (a ledger page, a served document) by the
 * exchange they are read from, so that they are read again from the record rather than believed,
 * and large values once each, by digest. What JSON cannot say (undefined, NaN, Infinity, Map,
 * Set) is tagged. A function cannot be recorded: its judgement is marked not re-derivable.
 */
export type Encoded = null | boolean | number | string | Encoded[] | { [key: string]: Encoded };

/** Values of this size (JSON characters) or more are kept once, by digest. */
const SHARED_VALUE_CHARS = 2048;

function isExchange(v: Record<string, unknown>): v is Record<string, unknown> & Exchange {
  const req = v['request'] as Record<string, unknown> | undefined;
  return typeof v['seq'] === 'number' && typeof req === 'object' && req !== null && typeof req['method'] === 'string' && typeof v['timings'] === 'object';
}

function isPage(v: Record<string, unknown>): v is Record<string, unknown> & LedgerPage {
  return typeof v['ok'] === 'boolean' && Array.isArray(v['rows']) && 'nextCursor' in v && typeof v['exchange'] === 'object' && v['exchange'] !== null && isExchange(v['exchange'] as Record<string, unknown>);
}

function isWalk(v: Record<string, unknown>): v is Record<string, unknown> & Walk {
  return Array.isArray(v['pages']) && Array.isArray(v['rows']) && Array.isArray(v['cursors']) && typeof v['end'] === 'string' && typeof v['query'] === 'object';
}

function isServedDocument(v: Record<string, unknown>): v is Record<string, unknown> & ServedDocument {
  return (v['format'] === 'json' || v['format'] === 'yaml') && typeof v['parsed'] === 'object' && typeof v['exchange'] === 'object' && v['exchange'] !== null && Object.keys(v).length === 3;
}

/** The rows a walk holds when it is what its pages say: those of its readable pages, in order. */
function rowsOfPages(pages: readonly LedgerPage[]): LedgerPage['rows'] {
  return pages.filter((p) => p.ok).flatMap((p) => p.rows);
}

function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * Encodes values for the judgement record. One encoder per record: it remembers which derived
 * values it checked and which large values it already wrote.
 */
export class JudgementEncoder {
  /** Pages and documents that were checked to be exactly what their exchange reads as. */
  readonly #derived = new WeakMap<object, boolean>();
  readonly #written = new Set<string>();
  /** Called once per large value, with its digest and data, before the first line that cites it. */
  readonly #onValue: (digest: string, data: Encoded) => void;
  /** Set when a value could not be recorded (a function): the judgement cannot be re-derived. */
  opaque = false;

  constructor(onValue: (digest: string, data: Encoded) => void) {
    this.#onValue = onValue;
  }

  #readsAs(value: object, read: () => unknown): boolean {
    let ok = this.#derived.get(value);
    if (ok === undefined) {
      ok = sameJson(read(), value);
      this.#derived.set(value, ok);
    }
    return ok;
  }

  #encode(value: unknown): Encoded {
    if (value === undefined) return { $undefined: true };
    if (value === null || typeof value === 'boolean' || typeof value === 'string') return value;
    if (typeof value === 'number') return Number.isFinite(value) ? (Object.is(value, -0) ? 0 : value) : { $number: String(value) };
    if (typeof value === 'bigint') return { $bigint: String(value) };
    if (typeof value === 'function' || typeof value === 'symbol') {
      this.opaque = true;
      return { $opaque: typeof value };
    }
    if (Array.isArray(value)) return value.map((v) => this.#encode(v));
    if (value instanceof Map) return { $map: [...value].map(([k, v]) => [this.#encode(k), this.#encode(v)]) };
    if (value instanceof Set) return { $set: [...value].map((v) => this.#encode(v)) };
    if (value instanceof Date) return { $date: value.toISOString() };
    const v = value as Record<string, unknown>;
    if (isExchange(v)) return { $exchange: v.seq };
    if (isPage(v) && this.#readsAs(v, () => readPage(v.exchange))) return { $page: v.exchange.seq };
    if (isServedDocument(v) && this.#readsAs(v, () => readServedDocument(v.format, v.exchange))) return { $document: { format: v.format, exchange: v.exchange.seq } };
    if (isWalk(v) && sameJson(rowsOfPages(v.pages), v.rows)) {
      return { $walk: { query: this.#encode(v.query), end: v.end, cursors: this.#encode(v.cursors), pages: v.pages.map((p) => this.#encode(p)) } };
    }
    const out: Record<string, Encoded> = {};
    for (const [k, x] of Object.entries(v)) out[k] = this.#encode(x);
    return out;
  }

  /** A value as the record keeps it; a large one is written once and cited by its digest. */
  encode(value: unknown): Encoded {
    const encoded = this.#encode(value);
    const text = JSON.stringify(encoded);
    if (text.length < SHARED_VALUE_CHARS) return encoded;
    const digest = createHash('sha256').update(text).digest('hex').slice(0, 32);
    if (!this.#written.has(digest)) {
      this.#written.add(digest);
      this.#onValue(digest, encoded);
    }
    return { $value: digest };
  }
}

/** Why a recorded value cannot be read back: an exchange or a value the record lacks. */
export class MissingEvidence extends Error {
  override name = 'MissingEvidence';
}

export interface EvidenceSource {
  exchange(seq: number): Exchange | undefined;
  value(digest: string): Encoded | undefined;
}

/** Reads a recorded value back, reading derived values again from the exchanges they came from. */
export function decodeJudgementValue(encoded: Encoded, source: EvidenceSource): unknown {
  const exchangeOf = (seq: Encoded): Exchange => {
    const e = typeof seq === 'number' ? source.exchange(seq) : undefined;
    if (e === undefined) throw new MissingEvidence(`exchange ${JSON.stringify(seq)} is not in the record`);
    return e;
  };
  const decode = (x: Encoded): unknown => {
    if (x === null || typeof x !== 'object') return x;
    if (Array.isArray(x)) return x.map(decode);
    if ('$undefined' in x) return undefined;
    if ('$number' in x) return Number(x['$number']);
    if ('$bigint' in x) return BigInt(String(x['$bigint']));
    if ('$opaque' in x) throw new MissingEvidence(`a ${String(x['$opaque'])} was passed: not recorded`);
    if ('$map' in x) return new Map((x['$map'] as Encoded[][]).map(([k, v]) => [decode(k!), decode(v!)]));
    if ('$set' in x) return new Set((x['$set'] as Encoded[]).map(decode));
    if ('$date' in x) return new Date(String(x['$date']));
    if ('$exchange' in x) return exchangeOf(x['$exchange']!);
    if ('$page' in x) return readPage(exchangeOf(x['$page']!));
    if ('$document' in x) {
      const d = x['$document'] as { format: 'json' | 'yaml'; exchange: number };
      return readServedDocument(d.format, exchangeOf(d.exchange));
    }
    if ('$walk' in x) {
      const w = x['$walk'] as { query: Encoded; end: string; cursors: Encoded; pages: Encoded[] };
      const pages = w.pages.map(decode) as LedgerPage[];
      return { query: decode(w.query), pages, rows: rowsOfPages(pages), end: w.end, cursors: decode(w.cursors) };
    }
    if ('$value' in x) {
      const v = source.value(String(x['$value']));
      if (v === undefined) throw new MissingEvidence(`value ${String(x['$value'])} is not in the record`);
      return decode(v);
    }
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(x)) out[k] = decode(v);
    return out;
  };
  return decode(encoded);
}
