import type { Exchange } from '../model/exchange.ts';
import { isObject, jsonBody } from './json-body.ts';
import { parseRfc3339, type Instant } from './ledger-instant.ts';

/** One row as the harness follows it through walks: its identity, feature and instant. */
export interface LedgerRow {
  /** `operation_uuid`, or the row's JSON when it has none (the schema check reports that). */
  key: string;
  feature: string | undefined;
  /** The timestamp as written. */
  timestamp: string | undefined;
  /** The instant of the timestamp when it is RFC 3339 (with `Z` or an offset), else undefined. */
  instant: Instant | undefined;
}

/** A response of GET /credits/operations, read as far as it can be. */
export interface LedgerPage {
  exchange: Exchange;
  /** A 200 whose body is an object with an `operations` array. */
  ok: boolean;
  rows: LedgerRow[];
  /** The cursor for the next page; undefined when the key is missing or is neither string nor null. */
  nextCursor: string | null | undefined;
}

export function rowOf(value: unknown): LedgerRow {
  const o = isObject(value) ? value : {};
  const uuid = o['operation_uuid'];
  const timestamp = typeof o['timestamp'] === 'string' ? o['timestamp'] : undefined;
  return {
    key: typeof uuid === 'string' ? uuid : JSON.stringify(value),
    feature: typeof o['feature'] === 'string' ? o['feature'] : undefined,
    timestamp,
    // Read with any offset: a row written `+00:00` still has an instant; its form is judged apart.
    instant: timestamp === undefined ? undefined : parseRfc3339(timestamp),
  };
}

export function readPage(exchange: Exchange): LedgerPage {
  const page: LedgerPage = { exchange, ok: false, rows: [], nextCursor: undefined };
  if (exchange.response?.status !== 200) return page;
  const body = jsonBody(exchange);
  if (!body.ok || !isObject(body.value)) return page;
  const operations = body.value['operations'];
  if (!Array.isArray(operations)) return page;
  page.ok = true;
  page.rows = operations.map(rowOf);
  const next = body.value['next_cursor'];
  if (next === null || typeof next === 'string') page.nextCursor = next;
  return page;
}

/** Row keys that occur more than once, each once. */
export function duplicateKeys(rows: readonly LedgerRow[]): string[] {
  const seen = new Set<string>();
  const twice = new Set<string>();
  for (const r of rows) {
    if (seen.has(r.key)) twice.add(r.key);
    seen.add(r.key);
  }
  return [...twice];
}

/** What one set of rows has that the other lacks, by key. */
export function rowSetDifference(actual: readonly LedgerRow[], expected: readonly LedgerRow[]): { missing: LedgerRow[]; extra: LedgerRow[] } {
  const a = new Set(actual.map((r) => r.key));
  const e = new Set(expected.map((r) => r.key));
  return {
    missing: uniqueByKey(expected.filter((r) => !a.has(r.key))),
    extra: uniqueByKey(actual.filter((r) => !e.has(r.key))),
  };
}

export function uniqueByKey(rows: readonly LedgerRow[]): LedgerRow[] {
  const seen = new Set<string>();
  return rows.filter((r) => (seen.has(r.key) ? false : (seen.add(r.key), true)));
}

/** A few rows for a finding's text: key and timestamp. */
export function describeRows(rows: readonly LedgerRow[], max = 4): string {
  const shown = rows.slice(0, max).map((r) => `${r.key} @ ${r.timestamp ?? '?'}${r.feature === undefined ? '' : ` (${r.feature})`}`);
  return `${shown.join(', ')}${rows.length > max ? `, and ${rows.length - max} more` : ''}`;
}
