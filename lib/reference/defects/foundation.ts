import type { DefectSwitch } from '../switches.ts';

/** Defects of the service conventions: auth, envelope, unauthenticated routes, OpenAPI documents. */
export const foundationDefects: DefectSwitch[] = [];
