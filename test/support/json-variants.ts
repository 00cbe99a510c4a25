/** JSON documents made from a valid one, to hold two validators of the same schema to the same answers. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Every path to a value in a document, the root first. */
export function jsonPaths(value: Json, at: Array<string | number> = []): Array<Array<string | number>> {
  if (Array.isArray(value)) return [at, ...value.flatMap((v, i) => jsonPaths(v, [...at, i]))];
  if (value !== null && typeof value === 'object') return [at, ...Object.entries(value).flatMap(([k, v]) => jsonPaths(v, [...at, k]))];
  return [at];
}

/** The document with the value at `at` replaced, or removed when `value` is undefined. */
export function withValue(doc: Json, at: Array<string | number>, value: Json | undefined): Json {
  if (at.length === 0) return value ?? null;
  const copy = structuredClone(doc) as Record<string | number, Json>;
  let node = copy;
  for (const key of at.slice(0, -1)) node = node[key] as Record<string | number, Json>;
  const last = at[at.length - 1]!;
  if (value === undefined) {
    if (Array.isArray(node)) node.splice(last as number, 1);
    else delete node[last];
  } else node[last] = value;
  return copy;
}

/** Each value of a document in turn replaced by each of `replacements`, removed, or (an object) joined by an unknown key. */
export function jsonVariants(name: string, doc: Json, replacements: readonly Json[]): Array<[string, Json]> {
  return jsonPaths(doc).flatMap((at) => {
    const where = `${name} ${at.join('.') || '(root)'}`;
    const out: Array<[string, Json]> = replacements.map((r) => [`${where} = ${JSON.stringify(r)}`, withValue(doc, at, r)]);
    if (at.length > 0) out.push([`${where} removed`, withValue(doc, at, undefined)]);
    const here = at.reduce<Json>((n, k) => (n as Record<string | number, Json>)[k]!, doc);
    if (here !== null && typeof here === 'object' && !Array.isArray(here)) out.push([`${where} + unknown key`, withValue(doc, [...at, 'not_a_key'], 1)]);
    return out;
  });
}
