import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { contractValidatorsSource } from './contract/contract-validators-source.ts';
import { profileValidatorSource } from './profile/profile-validator-source.ts';
import { BUILT_PROFILE_VALIDATOR } from './profile/profile-validator.ts';

/**
 * Run by bin/build.mjs on the folder it builds, once tsc has compiled into it: the validators of
 * the profile schema and of the contract, as code (lib/standalone-code.ts), so that a run loads
 * them rather than compiles the schemas.
 */
export function writeBuiltValidators(builtFolder: string): void {
  writeFileSync(join(builtFolder, 'profile', BUILT_PROFILE_VALIDATOR), profileValidatorSource());
  writeFileSync(join(builtFolder, 'contract', 'contract-validators.built.js'), contractValidatorsSource());
}
