import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, test } from 'vitest';
import { PACKAGE_ROOT } from '../../lib/package-root.ts';
import { PROFILE_SCHEMA_FILE } from '../../lib/profile/load-profile.ts';
import { EXPECTATIONS_SCHEMA_FILE } from '../../lib/report/expectations.ts';
import { TARGETS_SCHEMA_FILE } from '../../lib/matrix/targets-file.ts';

/**
 * The harness compiles its own schemas without checking them against the JSON Schema meta-schema
 * (compiling that costs every run a sixth of a second): they are checked here, once.
 */
describe("the harness's own JSON Schemas are valid 2020-12 schemas", () => {
  const files = [PROFILE_SCHEMA_FILE, EXPECTATIONS_SCHEMA_FILE, TARGETS_SCHEMA_FILE, join(PACKAGE_ROOT, 'lib', 'contract', 'events.schema.json')];
  test.each(files.map((f) => [f.slice(PACKAGE_ROOT.length + 1), f]))('%s', (_name, file) => {
    const ajv = new Ajv2020({ strict: false });
    const valid = ajv.validateSchema(JSON.parse(readFileSync(file, 'utf8')) as object);
    expect(ajv.errorsText(ajv.errors)).toBe('No errors');
    expect(valid).toBe(true);
  });

  test('a schema that breaks the meta-schema is caught (the check can fail)', () => {
    const ajv = new Ajv2020({ strict: false });
    expect(ajv.validateSchema({ type: 'strng', minLength: -1 })).toBe(false);
  });
});
