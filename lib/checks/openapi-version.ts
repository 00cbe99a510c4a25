import { fail, inconclusive, pass, type Finding } from '../model/finding.ts';
import { DOCUMENT_PATHS, parsedDocuments, type ServedDocument } from './openapi-documents.ts';
import { judged } from './judged.ts';

/** §9.3: "The machine-readable description is OpenAPI 3.1.0". */
export const OPENAPI_VERSION = '3.1.0';

/** version-3.1.0: every served document that parses declares `openapi: "3.1.0"`, as a string. */
export const versionFinding = judged('openapi-version/versionFinding', function versionFinding(requirement: string, documents: readonly ServedDocument[]): Finding {
  const parsed = parsedDocuments(documents);
  const exchanges = documents.map((d) => d.exchange);
  if (parsed.length === 0) return inconclusive(requirement, 'neither document could be read', exchanges);
  const wrong = parsed.filter((d) => d.parsed.value['openapi'] !== OPENAPI_VERSION);
  if (wrong.length === 0) return pass(requirement, parsed.map((d) => d.exchange));
  const actual = wrong.map((d) => `${DOCUMENT_PATHS[d.format]} declares openapi ${JSON.stringify(d.parsed.value['openapi'])}`).join('; ');
  return fail(requirement, `openapi: "${OPENAPI_VERSION}" (a string) in both documents`, actual, wrong.map((d) => d.exchange));
});
