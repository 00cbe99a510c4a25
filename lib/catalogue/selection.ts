import { catalogue } from './index.ts';
import { UsageError } from '../errors.ts';
import { nearestNames } from '../nearest-names.ts';

/**
 * What a run was asked to cover. A run with any of these is deliberately partial: it checks what
 * was chosen and is never a certification.
 */
export interface Selection {
  /** Suite or area names given with --suite (empty: every suite). */
  suites: string[];
  /** Requirement ids given with --only (empty: every requirement). */
  only: string[];
  /** Requirement ids given with --skip. */
  skip: string[];
}

export const FULL_SELECTION: Selection = { suites: [], only: [], skip: [] };

export function isPartial(selection: Selection): boolean {
  return selection.suites.length > 0 || selection.only.length > 0 || selection.skip.length > 0;
}

/** The catalogue ids closest to `wrong`, best first: same slug in another section, then by edit distance. */
export function didYouMean(wrong: string, ids: readonly string[] = catalogue.map((r) => r.id)): string[] {
  const slug = wrong.split('/').pop() ?? wrong;
  const sameSlug = ids.filter((id) => id.endsWith(`/${slug}`));
  return [...new Set([...sameSlug, ...nearestNames(wrong, ids)])].slice(0, 3);
}

/**
 * Requirement ids from a repeatable flag: each must be in the catalogue (the ids `list` prints and
 * failures show). An unknown id is a usage error with the nearest ids as suggestions.
 */
export function requirementIds(flag: string, values: readonly string[], command = 'run'): string[] {
  const known = new Set(catalogue.map((r) => r.id));
  const out: string[] = [];
  for (const raw of values) {
    const id = raw.trim();
    if (!known.has(id)) {
      const hints = didYouMean(id);
      const hint = hints.length > 0 ? `did you mean ${hints.join(' or ')}?` : "see 'asi-conformance list' for the ids";
      throw new UsageError(`${command}: --${flag} ${JSON.stringify(raw)} is not a requirement id; ${hint}`);
    }
    if (!out.includes(id)) out.push(id);
  }
  return out;
}

/**
 * Whether a test that checks `ids` runs: with --only it must check one of them, and --skip
 * leaves out a test only when every id it checks is skipped.
 */
export function testIsSelected(ids: readonly string[], selection: Pick<Selection, 'only' | 'skip'>): boolean {
  if (selection.only.length > 0 && !ids.some((id) => selection.only.includes(id))) return false;
  return ids.some((id) => !selection.skip.includes(id));
}

/**
 * Why --only or --skip leave a requirement without a verdict of its own, or undefined when they
 * do not. (--suite chooses tests, not ids: a requirement is in a suite run when a test of the
 * chosen suites checks it, whatever its area.)
 */
export function notChosenBecause(id: string, selection: Selection): string | undefined {
  if (selection.skip.includes(id)) return 'left out with --skip';
  if (selection.only.length > 0 && !selection.only.includes(id)) return 'not chosen with --only';
  return undefined;
}
