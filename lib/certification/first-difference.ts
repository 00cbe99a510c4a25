import { shown } from './verify-problem.ts';

/** Where two JSON values first differ, as one line a problem message can carry. */

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

/** Who shows what in a difference: the finding's copy against the record, unless said otherwise. */
export interface Sides {
  a: string;
  b: string;
}

export const COPY_AND_RECORD: Sides = { a: 'the finding shows', b: 'the record' };

/** Where `a` and `b` first differ, as `path: <a side> X, <b side> Y`; undefined when they are equal. */
export function firstDifference(a: unknown, b: unknown, path: string, sides: Sides = COPY_AND_RECORD): string | undefined {
  if (Object.is(a, b)) return undefined;
  if (!isObject(a) || !isObject(b) || Array.isArray(a) !== Array.isArray(b)) return `${path}: ${sides.a} ${shown(a)}, ${sides.b} ${shown(b)}`;
  if (Array.isArray(a) && Array.isArray(b) && a.length !== b.length) return `${path}: ${sides.a} ${a.length} items, ${sides.b} ${b.length}`;
  const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
  for (const key of keys) {
    const d = firstDifference(a[key], b[key], Array.isArray(a) ? `${path}[${key}]` : path === '' ? key : `${path}.${key}`, sides);
    if (d !== undefined) return d;
  }
  return undefined;
}
