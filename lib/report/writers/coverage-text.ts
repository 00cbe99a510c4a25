import type { Coverage } from '../../coverage/coverage.ts';
import { plural } from '../../model/words.ts';

/** Uncovered pairs (and triples) listed by name for each reason, at most; the rest are counted. */
export const LISTED_PAIRS = 40;

/** The Coverage section's headline: pairs reached of those the profile allows, cells and exchanges. */
export function coverageHeadline(c: Coverage): string {
  const pct = c.pairs.total === 0 ? 100 : Math.floor((1000 * c.pairs.covered) / c.pairs.total) / 10;
  const triples = c.triples === undefined ? '' : `; strength 3: ${c.triples.covered} of ${c.triples.total} triples of ${c.triples.over}`;
  return `${c.pairs.covered} of ${c.pairs.total} pairs the profile allows reached (${pct}%), ${plural(c.cells, 'cell')}, ${plural(c.exchanges, 'exchange')} in the matrix${triples}`;
}

/** Per dimension, one line: the values reached (with their exchanges) and those not reached. */
export function dimensionLines(c: Coverage): Array<{ name: string; reached: string; missing: string }> {
  return c.dimensions.map((d) => ({
    name: d.name,
    reached: d.values.filter((v) => v.exchanges > 0).map((v) => `${v.value} (${v.exchanges})`).join(', '),
    missing: d.values.filter((v) => v.exchanges === 0).map((v) => v.value).join(', '),
  }));
}

/** Pairs (or driven triples) not reached for one reason: the reason once, the first ones named, the rest counted. */
export interface UncoveredGroup {
  /** How many, and why: "475 pairs not reached: the suites … did not run". */
  headline: string;
  /** At most LISTED_PAIRS of them, by name. */
  named: string[];
  /** How many more report.json lists. */
  more: number;
}

/**
 * The pairs not reached, grouped by their reason (in the order the reasons first come), then the
 * driven triples not reached: a partial run leaves hundreds of pairs for one reason, which a line
 * each buried the section under the same words.
 */
export function uncoveredGroups(c: Coverage): UncoveredGroup[] {
  const byReason = new Map<string, string[]>();
  for (const u of c.uncovered) {
    const pairs = byReason.get(u.reason);
    if (pairs === undefined) byReason.set(u.reason, [u.pair]);
    else pairs.push(u.pair);
  }
  const groups = [...byReason].map(([reason, pairs]) => group(`${plural(pairs.length, 'pair')} ${reason}`, pairs));
  const triples = c.triples?.uncovered ?? [];
  if (c.triples !== undefined && triples.length > 0) groups.push(group(`${plural(triples.length, 'driven triple')} of ${c.triples.over} not reached`, triples));
  return groups;
}

function group(headline: string, all: readonly string[]): UncoveredGroup {
  return { headline, named: all.slice(0, LISTED_PAIRS), more: Math.max(0, all.length - LISTED_PAIRS) };
}

/** The line that closes a group cut at LISTED_PAIRS. */
export function moreLine(more: number): string {
  return `… and ${more} more (report.json lists them all)`;
}

/** The values the profile cannot give, a line each. */
export function unavailableLines(c: Coverage): string[] {
  return c.unavailable.map((u) => `${u.dimension} ${u.value}: unavailable, ${u.reason}`);
}
