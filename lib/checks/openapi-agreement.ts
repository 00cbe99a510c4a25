import { fail, inconclusive, pass, type Finding } from '../model/finding.ts';
import type { ServedDocument } from './openapi-documents.ts';
import { judged } from './judged.ts';

/** RFC 6901 JSON pointer of a path of keys and indexes. */
export function jsonPointer(segments: ReadonlyArray<string | number>): string {
  return segments.map((s) => `/${String(s).replaceAll('~', '~0').replaceAll('/', '~1')}`).join('');
}

function kind(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

function show(value: unknown): string {
  if (value === undefined) return 'absent';
  const text = JSON.stringify(value);
  return text.length > 80 ? `${text.slice(0, 80)}…` : text;
}

export interface Difference {
  pointer: string;
  left: string;
  right: string;
}

/**
 * The first place two JSON values differ as data (object key order does not matter, array order
 * does), walking `left`'s keys in order and then keys only `right` has; undefined when equal.
 */
export function firstDifference(left: unknown, right: unknown, at: Array<string | number> = []): Difference | undefined {
  const here = (): Difference => ({ pointer: jsonPointer(at), left: show(left), right: show(right) });
  if (kind(left) !== kind(right)) return here();
  if (Array.isArray(left) && Array.isArray(right)) {
    const shared = Math.min(left.length, right.length);
    for (let i = 0; i < shared; i += 1) {
      const d = firstDifference(left[i], right[i], [...at, i]);
      if (d !== undefined) return d;
    }
    if (left.length !== right.length) return { pointer: jsonPointer([...at, shared]), left: show(left[shared]), right: show(right[shared]) };
    return undefined;
  }
  if (typeof left === 'object' && left !== null && typeof right === 'object' && right !== null) {
    const l = left as Record<string, unknown>;
    const r = right as Record<string, unknown>;
    for (const key of Object.keys(l)) {
      if (!Object.hasOwn(r, key)) return { pointer: jsonPointer([...at, key]), left: show(l[key]), right: 'absent' };
      const d = firstDifference(l[key], r[key], [...at, key]);
      if (d !== undefined) return d;
    }
    for (const key of Object.keys(r)) {
      if (!Object.hasOwn(l, key)) return { pointer: jsonPointer([...at, key]), left: 'absent', right: show(r[key]) };
    }
    return undefined;
  }
  return Object.is(left, right) || left === right ? undefined : here();
}

/** documents-agree: /openapi.json and /openapi.yaml are equal as data. */
export const documentsAgreeFinding = judged('openapi-agreement/documentsAgreeFinding', function documentsAgreeFinding(requirement: string, json: ServedDocument, yaml: ServedDocument): Finding {
  const exchanges = [json.exchange, yaml.exchange];
  if (!json.parsed.ok || !yaml.parsed.ok) {
    const why = [json, yaml].flatMap((d) => (d.parsed.ok ? [] : [`${d.format.toUpperCase()}: ${d.parsed.why}`])).join('; ');
    return inconclusive(requirement, `cannot compare the documents (${why})`, exchanges);
  }
  const d = firstDifference(json.parsed.value, yaml.parsed.value);
  if (d === undefined) return pass(requirement, exchanges);
  return fail(requirement, 'the JSON and YAML documents equal as data', `first difference at ${d.pointer || '(root)'}: JSON ${d.left}, YAML ${d.right}`, exchanges);
});
