import { createHash, randomBytes } from 'node:crypto';
import { GeneratedRows, type GeneratedPlan } from './ledger-generated.ts';

/** A ledger row as the reference stores it; `at` is Unix ms, rendered as ISO 8601 with `Z` on output. */
export interface StoredOperation {
  operation_uuid: string;
  operation_type: string;
  feature: string;
  credits: number;
  metadata: Record<string, unknown>;
  at: number;
}

export type NewOperation = Omit<StoredOperation, 'operation_uuid' | 'at'>;

/** A UUID (version 4 layout) derived from a name, so that a seeded ledger is the same on every start. */
export function uuidFromName(name: string): string {
  const hex = createHash('sha256').update(name).digest('hex');
  const variant = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** What one listing reads, in its order, from a keyset position on. */
export interface LedgerScan {
  workspaces: readonly string[];
  fromMs: number | null;
  /** `from` read as exclusive (a defect). */
  fromStrict: boolean;
  toMs: number | null;
  /** `to` read as inclusive (a defect). */
  toInclusive: boolean;
  match: (feature: string) => boolean;
  order: 'asc' | 'desc';
  /** Rows strictly after this row in the order; `skipTies` compares the timestamp only (a defect). */
  after?: { at: number; uuid: string; skipTies: boolean };
}

/** Order of rows by (timestamp, operation_uuid). */
export function compareRows(a: { at: number; operation_uuid: string }, b: { at: number; operation_uuid: string }): number {
  return a.at - b.at || (a.operation_uuid < b.operation_uuid ? -1 : a.operation_uuid > b.operation_uuid ? 1 : 0);
}

/** The first index in [0, length) where `past` turns true (it is false, then true); `length` when never. */
function boundary(length: number, past: (i: number) => boolean): number {
  let lo = 0;
  let hi = length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (past(mid)) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

function* storedRows(rows: readonly StoredOperation[], q: LedgerScan): Generator<StoredOperation> {
  const key = (row: StoredOperation, at: number, uuid: string): number => row.at - at || (row.operation_uuid < uuid ? -1 : row.operation_uuid > uuid ? 1 : 0);
  let lo = q.fromMs === null ? 0 : boundary(rows.length, (i) => (q.fromStrict ? rows[i]!.at > q.fromMs! : rows[i]!.at >= q.fromMs!));
  let hi = q.toMs === null ? rows.length : boundary(rows.length, (i) => (q.toInclusive ? rows[i]!.at > q.toMs! : rows[i]!.at >= q.toMs!));
  const after = q.after;
  if (after !== undefined && q.order === 'asc') {
    lo = Math.max(lo, boundary(rows.length, (i) => (after.skipTies ? rows[i]!.at > after.at : key(rows[i]!, after.at, after.uuid) > 0)));
  }
  if (after !== undefined && q.order === 'desc') {
    hi = Math.min(hi, boundary(rows.length, (i) => (after.skipTies ? rows[i]!.at >= after.at : key(rows[i]!, after.at, after.uuid) >= 0)));
  }
  if (q.order === 'asc') {
    for (let i = lo; i < hi; i++) if (q.match(rows[i]!.feature)) yield rows[i]!;
  } else {
    for (let i = hi - 1; i >= lo; i--) if (q.match(rows[i]!.feature)) yield rows[i]!;
  }
}

function* generatedRows(g: GeneratedRows, q: LedgerScan): Generator<StoredOperation> {
  let lo = q.fromMs === null ? 0 : g.firstFrom(q.fromMs, q.fromStrict);
  let hi = q.toMs === null ? g.count : g.firstFrom(q.toMs, q.toInclusive);
  const after = q.after;
  if (after !== undefined && q.order === 'asc') {
    let a = g.firstFrom(after.at, after.skipTies);
    // Rows sharing the position's timestamp come after it only past its operation_uuid.
    while (!after.skipTies && a < g.count && g.at(a) === after.at && g.uuid(a) <= after.uuid) a++;
    lo = Math.max(lo, a);
  }
  if (after !== undefined && q.order === 'desc') {
    let b = g.firstFrom(after.at, false);
    while (!after.skipTies && b < g.count && g.at(b) === after.at && g.uuid(b) < after.uuid) b++;
    hi = Math.min(hi, b);
  }
  for (const i of g.indices(lo, hi, g.matchingOffsets(q.match), q.order)) yield g.row(i);
}

/** Rows of several sources, each already in the listing's order, merged into that order. */
function* merged(sources: Generator<StoredOperation>[], order: 'asc' | 'desc'): Generator<StoredOperation> {
  const sign = order === 'asc' ? 1 : -1;
  const heads = sources.map((s) => s.next());
  for (;;) {
    let best = -1;
    heads.forEach((h, i) => {
      if (h.done === true) return;
      if (best === -1 || sign * compareRows(h.value, (heads[best] as IteratorYieldResult<StoredOperation>).value) < 0) best = i;
    });
    if (best === -1) return;
    yield (heads[best] as IteratorYieldResult<StoredOperation>).value;
    heads[best] = sources[best]!.next();
  }
}

/** The first instant from `at` on that no row of `list` (in timestamp order) holds. */
function freeInstant(list: readonly StoredOperation[], at: number): number {
  let free = at;
  for (let i = boundary(list.length, (j) => list[j]!.at >= at); i < list.length && list[i]!.at <= free; i++) if (list[i]!.at === free) free += 1;
  return free;
}

/**
 * The credit-operations ledger of each workspace: rows stored one by one (the seed, messages,
 * background writers), kept in (timestamp, operation_uuid) order, and optionally a generated
 * segment of any size (lib/reference/ledger-generated.ts). Listings read both lazily, so a page
 * costs the same whatever the ledger holds. Seeding lives in ledger-seed.ts.
 */
export class LedgerStore {
  readonly #rows = new Map<string, StoredOperation[]>();
  readonly #generated = new Map<string, GeneratedRows>();
  readonly #counters = new Map<string, number>();
  /** Signs cursors; new on every start, so a cursor never outlives the server that issued it. */
  readonly cursorSecret: Buffer = randomBytes(32);
  /**
   * No two stored rows of a workspace share an instant: a row stamped like one already there is
   * moved a millisecond later, as often as it takes (variant `ledger-no-ties`).
   */
  distinctInstants = false;

  /** The stored rows of a workspace in (timestamp, operation_uuid) order; generated rows are not among them. */
  rows(workspace: string): readonly StoredOperation[] {
    return this.#rows.get(workspace) ?? [];
  }

  workspaces(): string[] {
    return [...new Set([...this.#rows.keys(), ...this.#generated.keys()])];
  }

  /** Appends a row (a message's side effect, the seed, a background writer), stamped `at`. */
  append(workspace: string, op: NewOperation, at: number): StoredOperation {
    const n = (this.#counters.get(workspace) ?? 0) + 1;
    this.#counters.set(workspace, n);
    const list = this.#rows.get(workspace) ?? [];
    const row: StoredOperation = { ...op, operation_uuid: uuidFromName(`asi-reference-ledger:${workspace}:${n}`), at: this.distinctInstants ? freeInstant(list, at) : at };
    // Rows come stamped "now", so this is nearly always the end.
    list.splice(boundary(list.length, (i) => compareRows(list[i]!, row) > 0), 0, row);
    this.#rows.set(workspace, list);
    return row;
  }

  /** Gives a workspace a generated segment of `plan.count` rows (replacing any earlier one). */
  generate(plan: GeneratedPlan): void {
    this.#generated.set(plan.workspace, new GeneratedRows(plan));
  }

  /** The rows a listing reads, lazily, in its order. */
  scan(q: LedgerScan): Generator<StoredOperation> {
    const sources: Generator<StoredOperation>[] = [];
    for (const w of q.workspaces) {
      sources.push(storedRows(this.rows(w), q));
      const g = this.#generated.get(w);
      if (g !== undefined) sources.push(generatedRows(g, q));
    }
    return merged(sources, q.order);
  }
}
