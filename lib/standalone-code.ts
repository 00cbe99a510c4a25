import type { Ajv2020, ValidateFunction } from 'ajv/dist/2020.js';
import standaloneModule from 'ajv/dist/standalone/index.js';

/**
 * ajv's standalone code: what it compiled, written out as a module (bin/build.mjs writes such
 * modules into dist/, so that runs load validators rather than compile schemas). ajv's module is
 * CommonJS: as with ajv-formats (lib/contract/validate.ts), take whichever is callable.
 */
type StandaloneCode = (ajv: Ajv2020, refsOrFunctions?: ValidateFunction | Record<string, string>) => string;
export const standaloneCode = ((standaloneModule as unknown as { default?: StandaloneCode }).default ?? standaloneModule) as unknown as StandaloneCode;
