import type { Verdict } from './finding.ts';

/** `1 exchange`, `3 exchanges`: a count with its noun. */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** The mark a console line shows before a verdict. */
export const VERDICT_MARK: Record<Verdict, string> = { pass: '✓', fail: '×', warn: '!', 'not-run': '-', inconclusive: '?' };
