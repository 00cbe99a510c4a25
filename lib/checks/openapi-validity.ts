import { validateOasDocument } from '../contract/oas-document-schema.ts';
import type { SchemaProblem } from '../contract/validate.ts';
import { fail, inconclusive, pass, type Finding } from '../model/finding.ts';
import { DOCUMENT_PATHS, parsedDocuments, type ServedDocument } from './openapi-documents.ts';
import { judged } from './judged.ts';

/** How many schema problems a finding lists; the rest are counted. */
const LISTED_PROBLEMS = 5;

function listProblems(problems: readonly SchemaProblem[]): string {
  const shown = problems.slice(0, LISTED_PROBLEMS).map((p) => `${p.instancePath || '(root)'} ${p.message} (${p.keyword})`);
  const more = problems.length > LISTED_PROBLEMS ? [`and ${problems.length - LISTED_PROBLEMS} more`] : [];
  return [...shown, ...more].join('; ');
}

/**
 * valid-oas: each served document that parses validates against the OAS 3.1 document schema,
 * and its Schema Objects against the JSON Schema 2020-12 meta-schema.
 */
export const validOasFinding = judged('openapi-validity/validOasFinding', function validOasFinding(requirement: string, documents: readonly ServedDocument[]): Finding {
  const parsed = parsedDocuments(documents);
  if (parsed.length === 0) return inconclusive(requirement, 'neither document could be read', documents.map((d) => d.exchange));
  const failures = parsed.flatMap((d) => {
    const problems = validateOasDocument(d.parsed.value);
    return problems.length === 0 ? [] : [{ document: d, problems }];
  });
  if (failures.length === 0) return pass(requirement, parsed.map((d) => d.exchange));
  return fail(
    requirement,
    'a document valid against the OpenAPI 3.1 schema (spec.openapis.org/oas/3.1/schema/2025-09-15)',
    failures.map((f) => `${DOCUMENT_PATHS[f.document.format]}: ${listProblems(f.problems)}`).join(' | '),
    failures.map((f) => f.document.exchange),
  );
});
