import { Ajv2020 } from 'ajv/dist/2020.js';
import { standaloneCode } from '../standalone-code.ts';
import { PROFILE_AJV_OPTIONS, profileSchema } from './profile-validator.ts';

/** The profile schema's validator as standalone CommonJS code: what ajv compiles, written out once. */
export function profileValidatorSource(): string {
  const ajv = new Ajv2020({ ...PROFILE_AJV_OPTIONS, code: { source: true } });
  return standaloneCode(ajv, ajv.compile(profileSchema()));
}
