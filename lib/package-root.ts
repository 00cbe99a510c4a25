import { fileURLToPath } from 'node:url';

/**
 * The package's root folder, from source (lib/) and from the build (dist/) alike: both sit one
 * level below it. Data files (contract, schemas, suites) are found from here.
 */
export const PACKAGE_ROOT = fileURLToPath(new URL('..', import.meta.url));
