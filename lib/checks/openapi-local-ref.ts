import { isObject } from './json-body.ts';

export type RefResolution = { ok: true; value: unknown } | { ok: false; why: string };

/** How many `$ref` hops are followed before a chain counts as a cycle. */
const MAX_HOPS = 32;

function unescape(segment: string): string {
  return decodeURIComponent(segment).replaceAll('~1', '/').replaceAll('~0', '~');
}

/** The value at a local reference (`#/components/...`) of `document`. */
export function valueAtPointer(document: unknown, ref: string): RefResolution {
  if (!ref.startsWith('#')) return { ok: false, why: `$ref ${JSON.stringify(ref)} points outside the document (not followed)` };
  const pointer = ref.slice(1);
  if (pointer === '') return { ok: true, value: document };
  if (!pointer.startsWith('/')) return { ok: false, why: `$ref ${JSON.stringify(ref)} is not a JSON pointer` };
  let node: unknown = document;
  for (const segment of pointer.slice(1).split('/').map(unescape)) {
    if (Array.isArray(node) && /^\d+$/.test(segment)) node = node[Number(segment)];
    else if (isObject(node) && Object.hasOwn(node, segment)) node = node[segment];
    else return { ok: false, why: `$ref ${JSON.stringify(ref)} does not resolve` };
  }
  return { ok: true, value: node };
}

/**
 * Follows a Reference Object (`{"$ref": "#/..."}`) inside `document` until a non-reference,
 * local references only. Values that are not references come back as they are.
 */
export function resolveLocal(document: unknown, node: unknown): RefResolution {
  let current = node;
  for (let hop = 0; hop < MAX_HOPS; hop += 1) {
    if (!isObject(current) || typeof current['$ref'] !== 'string') return { ok: true, value: current };
    const next = valueAtPointer(document, current['$ref']);
    if (!next.ok) return next;
    current = next.value;
  }
  return { ok: false, why: `$ref chain longer than ${MAX_HOPS} hops (a cycle?)` };
}
