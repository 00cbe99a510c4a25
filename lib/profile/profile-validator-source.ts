import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import standaloneModule from 'ajv/dist/standalone/index.js';
import { BUILT_PROFILE_VALIDATOR, PROFILE_AJV_OPTIONS, profileSchema } from './profile-validator.ts';

// ajv's standalone module is CommonJS: as with ajv-formats (lib/contract/validate.ts), take whichever is callable.
type StandaloneCode = (ajv: Ajv2020, validate: ReturnType<Ajv2020['compile']>) => string;
const standaloneCode = ((standaloneModule as unknown as { default?: StandaloneCode }).default ?? standaloneModule) as unknown as StandaloneCode;

/** The profile schema's validator as standalone CommonJS code: what ajv compiles, written out once. */
export function profileValidatorSource(): string {
  const ajv = new Ajv2020({ ...PROFILE_AJV_OPTIONS, code: { source: true } });
  return standaloneCode(ajv, ajv.compile(profileSchema()));
}

/** Run by bin/build.mjs on the folder it builds: the validator goes beside profile-validator.js. */
export function writeBuiltValidators(builtFolder: string): void {
  writeFileSync(join(builtFolder, 'profile', BUILT_PROFILE_VALIDATOR), profileValidatorSource());
}
