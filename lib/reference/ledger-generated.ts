import { createHash } from 'node:crypto';
import type { StoredOperation } from './ledger-store.ts';

const DAY_MS = 86_400_000;
/** Every n-th index opens a group of 1 to 4 rows sharing one timestamp. */
const TIE_EVERY = 37;
// Zero appears often: a row that consumed nothing is still a row.
const CREDITS = [0, 0, 0.25, 0.5, 1, 1, 1, 2, 2.5, 3, 5, 8, 12.75] as const;

/** A kind of generated row and how often it comes (relative weight). */
export interface GeneratedKind {
  feature: string;
  operationType: string;
  weight: number;
}

/** What a busy ledger of one workspace looks like. */
export interface GeneratedPlan {
  workspace: string;
  /** Rows in [endMs - spanMs, endMs). */
  count: number;
  endMs: number;
  spanMs: number;
  kinds: readonly GeneratedKind[];
}

/** splitmix32's finaliser: a well-spread 32-bit value of an index. */
function mix(x: number): number {
  let h = x | 0;
  h = Math.imul(h ^ (h >>> 16), 0x7feb352d);
  h = Math.imul(h ^ (h >>> 15), 0x846ca68b);
  return (h ^ (h >>> 16)) >>> 0;
}

/** Kinds repeated by weight and spread over one period, so that every feature recurs at fixed offsets. */
function patternOf(kinds: readonly GeneratedKind[]): GeneratedKind[] {
  const total = kinds.reduce((n, k) => n + k.weight, 0);
  const pattern: GeneratedKind[] = [];
  const credit = kinds.map(() => 0);
  // Smooth weighted round robin: each slot goes to the kind furthest behind its share.
  for (let slot = 0; slot < total; slot++) {
    kinds.forEach((k, i) => (credit[i]! += k.weight));
    let best = 0;
    credit.forEach((c, i) => {
      if (c > credit[best]!) best = i;
    });
    credit[best]! -= total;
    pattern.push(kinds[best]!);
  }
  return pattern;
}

/**
 * A ledger segment of any size whose rows are a pure function of their index: nothing is stored,
 * so a million rows cost no memory and no start-up time, and every query is index arithmetic.
 * Index order is time order; a row's operation_uuid carries its index in fixed-width hex, so rows
 * sharing a timestamp are also in operation_uuid order, as the listing needs.
 *
 * Like the seeded ledger it has rows at exactly 00:00:00.000Z (the row of the slot holding each
 * UTC midnight), groups of rows sharing a timestamp, rows costing 0, whole seconds and
 * milliseconds.
 */
export class GeneratedRows {
  readonly workspace: string;
  readonly count: number;
  readonly #start: number;
  readonly #slot: number;
  readonly #seed: number;
  readonly #tag: string;
  readonly #pattern: GeneratedKind[];

  constructor(plan: GeneratedPlan) {
    if (plan.count > plan.spanMs) throw new RangeError(`at most one generated row per millisecond (${plan.count} rows in ${plan.spanMs} ms)`);
    this.workspace = plan.workspace;
    this.count = plan.count;
    this.#start = plan.endMs - plan.spanMs;
    this.#slot = plan.spanMs / plan.count;
    const digest = createHash('sha256').update(`asi-reference-ledger:${plan.workspace}:generated`).digest();
    this.#seed = digest.readUInt32BE(0);
    this.#tag = digest.subarray(4, 8).toString('hex');
    this.#pattern = patternOf(plan.kinds);
  }

  /** Start of the time slot of index `i`; slots are at least a millisecond long and ascend. */
  #slotStart(i: number): number {
    return this.#start + Math.floor(i * this.#slot);
  }

  /** The instant of an index that leads its own group. */
  #raw(i: number): number {
    const a = this.#slotStart(i);
    const b = this.#slotStart(i + 1);
    const midnight = Math.ceil(a / DAY_MS) * DAY_MS;
    if (midnight < b) return midnight;
    const h = mix(this.#seed ^ i);
    const at = a + (h % (b - a));
    // Half of the rows fall on whole seconds, the others carry milliseconds.
    const whole = Math.ceil(at / 1000) * 1000;
    return (h & 0x100000) !== 0 && whole < b ? whole : at;
  }

  /** Unix ms of index `i`: non-decreasing in `i`. */
  at(i: number): number {
    const leader = i - (i % TIE_EVERY);
    const size = 1 + (mix(this.#seed ^ leader ^ 0x5bd1e995) % 4);
    return this.#raw(i - leader < size ? leader : i);
  }

  uuid(i: number): string {
    const hex = i.toString(16).padStart(12, '0');
    return `${this.#tag}-0000-4000-8000-${hex}`;
  }

  row(i: number): StoredOperation {
    const kind = this.#pattern[i % this.#pattern.length]!;
    const h = mix(this.#seed ^ Math.imul(i, 0x9e3779b1));
    return {
      operation_uuid: this.uuid(i),
      operation_type: kind.operationType,
      feature: kind.feature,
      credits: CREDITS[h % CREDITS.length]!,
      metadata: { batch: Math.floor(i / TIE_EVERY), source: 'generated' },
      at: this.at(i),
    };
  }

  /** The first index whose instant is at or after `ms` (after it, when `strict`); `count` when none is. */
  firstFrom(ms: number, strict: boolean): number {
    let lo = 0;
    let hi = this.count;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const at = this.at(mid);
      if (strict ? at > ms : at >= ms) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  }

  /** Offsets within one period of the pattern whose feature `match` takes, ascending. */
  matchingOffsets(match: (feature: string) => boolean): number[] {
    return this.#pattern.flatMap((k, i) => (match(k.feature) ? [i] : []));
  }

  /** Indices in [lo, hi) at the given pattern offsets, ascending or descending, without visiting others. */
  *indices(lo: number, hi: number, offsets: readonly number[], order: 'asc' | 'desc'): Generator<number> {
    if (offsets.length === 0 || lo >= hi) return;
    const period = this.#pattern.length;
    if (order === 'asc') {
      for (let base = lo - (lo % period); base < hi; base += period) {
        for (const o of offsets) {
          const i = base + o;
          if (i >= hi) return;
          if (i >= lo) yield i;
        }
      }
      return;
    }
    for (let base = (hi - 1) - ((hi - 1) % period); base + period > lo; base -= period) {
      for (let k = offsets.length - 1; k >= 0; k--) {
        const i = base + offsets[k]!;
        if (i < lo) return;
        if (i < hi) yield i;
      }
    }
  }
}
