import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv2020, type Options, type ValidateFunction } from 'ajv/dist/2020.js';
import { PACKAGE_ROOT } from '../package-root.ts';

export const PROFILE_SCHEMA_FILE = join(PACKAGE_ROOT, 'config', 'profile.schema.json');

/**
 * The validator's code, as the build writes it beside the compiled module (dist/profile/): every
 * run loads a profile, and compiling its schema took ajv about 70 ms a run. Sources run by vitest
 * (lib/) have none and compile the schema; test/profile/profile-validator.test.ts holds the two
 * to the same answers.
 */
export const BUILT_PROFILE_VALIDATOR = 'profile-validator.built.cjs';

/** Every error (the most telling one is chosen from all), with the data and schema it is about. */
export const PROFILE_AJV_OPTIONS: Options = { allErrors: true, verbose: true, strict: true, validateSchema: false };

export function profileSchema(): object {
  return JSON.parse(readFileSync(PROFILE_SCHEMA_FILE, 'utf8')) as object;
}

let validator: ValidateFunction | undefined;

/** The profile schema's validator: the build's, else compiled here. */
export function profileValidator(): ValidateFunction {
  validator ??= builtProfileValidator() ?? compiledProfileValidator();
  return validator;
}

export function compiledProfileValidator(): ValidateFunction {
  return new Ajv2020(PROFILE_AJV_OPTIONS).compile(profileSchema());
}

/** The build's validator beside this module, or undefined where there is none (the sources). */
export function builtProfileValidator(folder = new URL('.', import.meta.url)): ValidateFunction | undefined {
  const file = fileURLToPath(new URL(BUILT_PROFILE_VALIDATOR, folder));
  return existsSync(file) ? (createRequire(file)(file) as ValidateFunction) : undefined;
}
