import type { DefectSwitch } from '../switches.ts';

/** Defects of the served OpenAPI documents. */
export const openapiDefects: DefectSwitch[] = [];
