/**
 * Edit distance with a swap of two neighbours as one edit (`--prot` is one from `--port`), for
 * suggestions: small inputs only (names and ids are under 60 characters).
 */
function distance(a: string, b: string): number {
  let before: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) current[j] = Math.min(current[j]!, before[j - 2]! + 1);
    }
    before = previous;
    previous = current;
  }
  return previous[b.length]!;
}

/** The names within `maxEdits` of `wrong` (by default a few, more for a longer one), nearest first: for "did you mean". */
export function nearestNames(wrong: string, names: readonly string[], maxEdits = Math.max(3, Math.floor(wrong.length / 4))): string[] {
  return names
    .map((name) => ({ name, d: distance(wrong, name) }))
    .filter((x) => x.d <= maxEdits)
    .sort((x, y) => x.d - y.d)
    .map((x) => x.name);
}
