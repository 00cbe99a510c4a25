/**
 * How deep a value a target sent may nest before the harness stops short of walking it.
 *
 * Most walkers over a parsed value recurse: ajv, JSON.stringify, structuredClone, the judgement
 * codec, the redaction of a report, deep equality. A body nesting 100,000 levels (a few hundred
 * KiB of brackets) overflows the stack in any of them, and when the overflow strikes while V8
 * compiles a regular expression the process aborts outright, beyond any catch. JSON.parse itself
 * is iterative, so the depth is measured right after parsing, iteratively, and a value deeper than
 * this is never handed on. 256 is far deeper than any ASI resource or a real OpenAPI description
 * nests (the canonical description nests 9 levels), and shallow enough for every recursive walker.
 */
export const MAX_NESTING = 256;

/** What a check says of a value deeper than MAX_NESTING. */
export const TOO_DEEP = `nests deeper than ${MAX_NESTING} levels: the harness does not walk it`;

/**
 * The nesting depth of a value (a scalar is 0, `[]` is 1, `[[1]]` is 2), counted without
 * recursion; counting stops at `limit + 1`, so a deep value costs no more than a shallow one.
 */
export function nestingDepth(value: unknown, limit: number = MAX_NESTING): number {
  let deepest = 0;
  const stack: Array<{ value: unknown; depth: number }> = [{ value, depth: 0 }];
  for (let top = stack.pop(); top !== undefined; top = stack.pop()) {
    if (typeof top.value !== 'object' || top.value === null) continue;
    const depth = top.depth + 1;
    if (depth > deepest) deepest = depth;
    if (deepest > limit) return deepest;
    for (const child of Object.values(top.value)) if (typeof child === 'object' && child !== null) stack.push({ value: child, depth });
  }
  return deepest;
}

/** True when a value nests deeper than MAX_NESTING. */
export function nestsTooDeep(value: unknown): boolean {
  return nestingDepth(value) > MAX_NESTING;
}

export type ParsedJson = { ok: true; value: unknown } | { ok: false; why: string; tooDeep?: true };

/**
 * JSON text a target sent, parsed, unless it is not JSON (`why` quotes its start) or nests deeper
 * than MAX_NESTING (`tooDeep`: the value is dropped, so nothing downstream can walk it).
 */
export function parseTargetJson(text: string): ParsedJson {
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch {
    return { ok: false, why: `body is not JSON: ${JSON.stringify(text.slice(0, 120))}` };
  }
  if (nestsTooDeep(value)) return { ok: false, why: `body ${TOO_DEEP}`, tooDeep: true };
  return { ok: true, value };
}
