import { _ } from 'ajv/dist/2020.js';
import { standaloneCode } from '../standalone-code.ts';
import { builtSourcesDigest, contractAjv, contractValidatorRefs } from './validate.ts';

/**
 * The contract's validators as a standalone ES module, to sit in dist/contract/: one export per
 * component and event (`component_Error`, `event_done`), the date-time format taken from the
 * compiled module beside it, and the digest of the sources they were made from.
 */
export function contractValidatorsSource(): string {
  const ajv = contractAjv({ source: true, esm: true, formats: _`contractFormats` });
  return [
    "import { isUtcDateTime } from './utc-date-time.js';",
    "const contractFormats = { 'date-time': isUtcDateTime };",
    `export const BUILT_SOURCES_DIGEST = ${JSON.stringify(builtSourcesDigest())};`,
    standaloneCode(ajv, contractValidatorRefs()),
  ].join('\n');
}
