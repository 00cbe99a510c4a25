import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, test } from 'vitest';
import { parse } from 'yaml';
import { ROOT } from '../support/cli.ts';
import { jsonVariants, type Json } from '../support/json-variants.ts';
import { BUILT_PROFILE_VALIDATOR, builtProfileValidator, compiledProfileValidator } from '../../lib/profile/profile-validator.ts';
import { profileValidatorSource } from '../../lib/profile/profile-validator-source.ts';

/**
 * The build writes the profile schema's validator as code (dist/profile/, `npm test` builds first);
 * the sources compile it. Both must give every profile the same answer and the same errors, which
 * the messages of a bad profile are made from.
 */

const built = builtProfileValidator(pathToFileURL(join(ROOT, 'dist', 'profile') + '/'));
const compiled = compiledProfileValidator();

const valid: Array<[string, Json]> = ['config/reference.yaml', 'config/example.yaml'].map((f) => [f, parse(readFileSync(join(ROOT, f), 'utf8')) as Json]);
const REPLACEMENTS: Json[] = [3, -1, 1.5, '', 'x', 'asi_live_0123456789abcdef', null, true, [], [1], {}, { env: 'lower-case' }, { value: '' }];

describe('the profile validator the build writes', () => {
  test('is there, and is the code ajv makes of the schema now', () => {
    expect(built, `npm test builds dist/ first: dist/profile/${BUILT_PROFILE_VALIDATOR}`).toBeDefined();
    expect(readFileSync(join(ROOT, 'dist', 'profile', BUILT_PROFILE_VALIDATOR), 'utf8')).toBe(profileValidatorSource());
  });

  const cases = [...valid, ...valid.flatMap(([name, doc]) => jsonVariants(name, doc, REPLACEMENTS))];
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
