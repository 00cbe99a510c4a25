import type { Ajv2020, ValidateFunction } from 'ajv/dist/2020.js';
import standaloneModule from 'ajv/dist/standalone/index.js';
import { callableExport } from './commonjs-export.ts';

/**
 * ajv's standalone code: what it compiled, written out as a module (bin/build.mjs writes such
 * modules into dist/, so that runs load validators rather than compile schemas).
 */
export const standaloneCode = callableExport<(ajv: Ajv2020, refsOrFunctions?: ValidateFunction | Record<string, string>) => string>(standaloneModule);
