import { isUtcDateTime } from '../contract/utc-date-time.ts';
import { lengthVerdict } from '../domains/length-readings.ts';
import { FEATURE_LENGTH_MAX, FEATURE_LENGTH_MIN } from '../spec-constants.ts';
import { compareInstants, formatInstant, ZONE_EAST_MAX_S, type Instant } from './ledger-instant.ts';
import { uniqueByKey, type LedgerRow } from './ledger-page.ts';

/** Rows that share one instant. */
export interface TimestampGroup {
  instant: Instant;
  /** The instant as a bound: the server's own text when it is UTC with `Z`, else written by the harness. */
  text: string;
  rows: LedgerRow[];
}

/**
 * The rows the harness has seen in a complete walk, which later checks use as the truth of what a
 * window holds. Only rows strictly before the newest one are kept: a row added from now on is
 * stamped at the server's present, after every row already there, so windows that end at or
 * before `stableBefore` hold the same rows for the rest of the run. Windows start at or after
 * the oldest kept row: a walk may be cut to its newest rows, and older ones are not known.
 */
export interface KnownRows {
  /** Unique by key, sorted by instant. */
  rows: LedgerRow[];
  /** Distinct instants, ascending. */
  groups: TimestampGroup[];
  stableBefore: Instant;
  /** Features seen that a filter can name (filterableFeatures), the most frequent first. */
  features: string[];
}

/**
 * The known rows of a complete walk; with `maxRows`, only its newest instants, as many as hold that
 * many rows. The cut never splits the rows of one instant. Where keeping the rows after such a
 * group would leave fewer than `minRows` (a batch of more rows at one instant than `maxRows`, with
 * few after it), the rows before the group are kept instead, and they are stable before its instant.
 */
export function knownRowsOf(seen: readonly LedgerRow[], maxRows = Number.POSITIVE_INFINITY, minRows = 0): KnownRows | undefined {
  const dated = uniqueByKey(seen).filter((r): r is LedgerRow & { instant: Instant } => r.instant !== undefined);
  if (dated.length === 0) return undefined;
  dated.sort((a, b) => compareInstants(a.instant, b.instant));
  let stableBefore = dated[dated.length - 1]!.instant;
  let end = dated.findIndex((r) => compareInstants(r.instant, stableBefore) === 0);
  let start = 0;
  while (end - start > maxRows) {
    const cut = end - maxRows;
    const at = dated[cut]!.instant;
    if (compareInstants(dated[cut - 1]!.instant, at) !== 0) {
      start = cut;
      break;
    }
    let after = cut;
    while (after < end && compareInstants(dated[after]!.instant, at) === 0) after += 1;
    let before = cut;
    while (before > 0 && compareInstants(dated[before - 1]!.instant, at) === 0) before -= 1;
    if (end - after >= minRows || before === 0) {
      start = after;
      break;
    }
    end = before;
    stableBefore = at;
  }
  const rows = dated.slice(start, end);
  const groups: TimestampGroup[] = [];
  for (const r of rows) {
    const last = groups[groups.length - 1];
    if (last !== undefined && compareInstants(last.instant, r.instant) === 0) last.rows.push(r);
    else groups.push({ instant: r.instant, text: r.timestamp !== undefined && isUtcDateTime(r.timestamp) ? r.timestamp : formatInstant(r.instant), rows: [r] });
  }
  return { rows, groups, stableBefore, features: filterableFeatures(rows) };
}

/**
 * The features of `rows` a `feature` filter can name, the most frequent first: those of length 1
 * to 64 in every reading of length (at most 64 UTF-8 bytes). §2.1 gives a row's feature no length,
 * so a ledger may hold longer ones, which a server rightly refuses as a filter (§8.3); and one
 * within 64 characters but over 64 bytes is refused by a server that counts bytes, as it may.
 */
export function filterableFeatures(rows: ReadonlyArray<Pick<LedgerRow, 'feature'>>): string[] {
  const counts = new Map<string, number>();
  for (const r of rows) if (r.feature !== undefined && lengthVerdict(r.feature, FEATURE_LENGTH_MIN, FEATURE_LENGTH_MAX) === 'inside') counts.set(r.feature, (counts.get(r.feature) ?? 0) + 1);
  return [...counts.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([f]) => f);
}

/** Known rows in [from, to): `from` inclusive, `to` exclusive, either side open when undefined. */
export function rowsBetween(known: KnownRows, from: Instant | undefined, to: Instant | undefined): LedgerRow[] {
  return known.rows.filter(
    (r) => r.instant !== undefined && (from === undefined || compareInstants(r.instant, from) >= 0) && (to === undefined || compareInstants(r.instant, to) < 0),
  );
}

/** A bound of a window of known rows: an instant, and how the harness writes it. */
export type WindowBound = Pick<TimestampGroup, 'instant' | 'text'>;

/**
 * The bounds a window of known rows can take, oldest first: each group's instant, then
 * `stableBefore`. A window `[bounds[i], bounds[j])` holds the known rows from group i up to group
 * j; with j the last, it holds the newest known group too (the rows stamped at `stableBefore`
 * itself, which are not known, stay out: `to` is exclusive).
 */
export function windowBounds(known: KnownRows): WindowBound[] {
  return [...known.groups, { instant: known.stableBefore, text: formatInstant(known.stableBefore) }];
}

/** Indices of groups holding more than one row: where keyset pagination is easiest to get wrong. */
export function tiedGroupIndices(known: KnownRows): number[] {
  return known.groups.flatMap((g, i) => (g.rows.length > 1 ? [i] : []));
}

/** The group with the most rows sharing one instant (first such), or undefined when no instant is shared. */
export function largestTie(known: KnownRows): number | undefined {
  let best: number | undefined;
  known.groups.forEach((g, i) => {
    if (g.rows.length > 1 && (best === undefined || g.rows.length > known.groups[best]!.rows.length)) best = i;
  });
  return best;
}

const DAY_S = 86_400;
/** The widest offset in use (UTC+14): a date read in any zone starts within this of its UTC midnight. */
const MAX_ZONE_S = ZONE_EAST_MAX_S;

/**
 * Consecutive UTC dates `YYYY-MM-DD` (count of them, one day apart) that lie well inside the known
 * rows, whatever zone a server reads a date in: the first starts at least 14 hours after the
 * oldest known row and the day after the last ends 14 hours before `stableBefore`. Prefers a day
 * that opens with a row at exactly 00:00:00Z. Undefined when the known rows span too few days.
 */
export function knownDates(known: KnownRows, count: number): Instant[] | undefined {
  const first = known.groups[0]?.instant;
  if (first === undefined) return undefined;
  const earliest = Math.ceil((first.seconds + MAX_ZONE_S) / DAY_S) * DAY_S;
  const latest = Math.floor((known.stableBefore.seconds - MAX_ZONE_S) / DAY_S) * DAY_S - count * DAY_S;
  if (latest < earliest) return undefined;
  const midnight = known.groups.find((g) => g.instant.fraction === '' && g.instant.seconds % DAY_S === 0 && g.instant.seconds >= earliest && g.instant.seconds <= latest);
  const start = midnight?.instant.seconds ?? latest;
  return Array.from({ length: count + 1 }, (_, i) => ({ seconds: start + i * DAY_S, fraction: '' }));
}

/**
 * Two filters for exact matching: a seen feature that is a proper prefix of another seen feature
 * (the filter must not list the longer one's rows), or else a proper prefix of a seen feature that
 * is no feature itself. Undefined when no feature is longer than one character.
 */
export function prefixProbe(known: KnownRows): { filter: string; longer: string } | undefined {
  for (const short of known.features) {
    const longer = known.features.find((f) => f !== short && f.startsWith(short));
    if (longer !== undefined) return { filter: short, longer };
  }
  const longer = known.features.find((f) => [...f].length > 1);
  if (longer === undefined) return undefined;
  const chars = [...longer];
  for (let n = chars.length - 1; n >= 1; n--) {
    const filter = chars.slice(0, n).join('');
    if (!known.features.includes(filter)) return { filter, longer };
  }
  return undefined;
}

/**
 * `count` ascending instants for bounds whose rows do not matter (a refusal, an acceptance):
 * spread over the known instants, or whole days back from `nowMs` when no row is known, so that
 * such checks run on an empty ledger too.
 */
export function boundInstants(known: KnownRows | undefined, nowMs: number, count: number): Instant[] {
  const groups = known?.groups ?? [];
  if (groups.length >= count) return Array.from({ length: count }, (_, i) => groups[Math.floor(((i + 1) * groups.length) / (count + 1))]!.instant);
  const today = Math.floor(nowMs / 1000 / DAY_S) * DAY_S;
  return Array.from({ length: count }, (_, i) => ({ seconds: today - (count - i) * DAY_S + 12 * 3600, fraction: '' }));
}
