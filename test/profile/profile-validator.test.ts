import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, test } from 'vitest';
import { parse } from 'yaml';
import { ROOT } from '../support/cli.ts';
import { BUILT_PROFILE_VALIDATOR, builtProfileValidator, compiledProfileValidator } from '../../lib/profile/profile-validator.ts';
import { profileValidatorSource } from '../../lib/profile/profile-validator-source.ts';

/**
 * The build writes the profile schema's validator as code (dist/profile/, `npm test` builds first);
 * the sources compile it. Both must give every profile the same answer and the same errors, which
 * the messages of a bad profile are made from.
 */

const BUILT_FOLDER = pathToFileURL(join(ROOT, 'dist', 'profile') + '/');
const built = builtProfileValidator(BUILT_FOLDER);
const compiled = compiledProfileValidator();

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const valid: Array<[string, Json]> = ['config/reference.yaml', 'config/example.yaml'].map((f) => [f, parse(readFileSync(join(ROOT, f), 'utf8')) as Json]);

/** Every path to a value in a document, the root first. */
function paths(value: Json, at: Array<string | number> = []): Array<Array<string | number>> {
  if (Array.isArray(value)) return [at, ...value.flatMap((v, i) => paths(v, [...at, i]))];
  if (value !== null && typeof value === 'object') return [at, ...Object.entries(value).flatMap(([k, v]) => paths(v, [...at, k]))];
  return [at];
}

function withValue(doc: Json, at: Array<string | number>, value: Json | undefined): Json {
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

/** Each valid profile with each value in turn replaced by one of another kind, removed, or joined by an unknown key. */
function variants(): Array<[string, Json]> {
  const replacements: Json[] = [3, -1, 1.5, '', 'x', 'asi_live_0123456789abcdef', null, true, [], [1], {}, { env: 'lower-case' }, { value: '' }];
  return valid.flatMap(([name, doc]) =>
    paths(doc).flatMap((at) => {
      const where = `${name} ${at.join('.') || '(root)'}`;
      const out: Array<[string, Json]> = replacements.map((r) => [`${where} = ${JSON.stringify(r)}`, withValue(doc, at, r)]);
      if (at.length > 0) out.push([`${where} removed`, withValue(doc, at, undefined)]);
      const here = at.reduce<Json>((n, k) => (n as Record<string | number, Json>)[k]!, doc);
      if (here !== null && typeof here === 'object' && !Array.isArray(here)) out.push([`${where} + unknown key`, withValue(doc, [...at, 'not_a_key'], 1)]);
      return out;
    }),
  );
}

describe('the profile validator the build writes', () => {
  test('is there, and is the code ajv makes of the schema now', () => {
    expect(built, `npm test builds dist/ first: dist/profile/${BUILT_PROFILE_VALIDATOR}`).toBeDefined();
    expect(readFileSync(join(ROOT, 'dist', 'profile', BUILT_PROFILE_VALIDATOR), 'utf8')).toBe(profileValidatorSource());
  });

  const cases = [...valid, ...variants()];
  test(`answers as the compiled schema does, errors and all, over ${cases.length} profiles`, () => {
    let invalid = 0;
    for (const [name, doc] of cases) {
      const ok = compiled(doc);
      expect(built!(doc), name).toBe(ok);
      expect(built!.errors ?? null, name).toEqual(compiled.errors ?? null);
      if (!ok) invalid += 1;
    }
    // The corpus reaches the schema's errors, not only its valid documents.
    expect(invalid).toBeGreaterThan(cases.length / 2);
    expect(valid.every(([, doc]) => compiled(doc))).toBe(true);
  });
});
