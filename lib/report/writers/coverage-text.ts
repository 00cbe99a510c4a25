import type { Coverage } from '../../coverage/coverage.ts';
import { plural } from '../../model/words.ts';

/** Uncovered pairs listed by name, at most; the rest are counted. */
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

/** The pairs not reached, each with why, and the values the profile cannot give: plain lines. */
export function uncoveredLines(c: Coverage): string[] {
  const lines = c.uncovered.slice(0, LISTED_PAIRS).map((u) => `${u.pair}: ${u.reason}`);
  if (c.uncovered.length > LISTED_PAIRS) lines.push(`… and ${c.uncovered.length - LISTED_PAIRS} more (report.json lists them all)`);
  for (const t of (c.triples?.uncovered ?? []).slice(0, LISTED_PAIRS)) lines.push(`${t}: triple not reached`);
  for (const u of c.unavailable) lines.push(`${u.dimension} ${u.value}: unavailable, ${u.reason}`);
  return lines;
}
