import { describe } from 'vitest';
import { documentsAgreeFinding } from '../lib/checks/openapi-agreement.ts';
import { DOCUMENT_PATHS, readServedDocument, servedFinding, type ServedDocument } from '../lib/checks/openapi-documents.ts';
import { ledgerOperationFindings } from '../lib/checks/openapi-ledger-operation.ts';
import { validOasFinding } from '../lib/checks/openapi-validity.ts';
import { versionFinding } from '../lib/checks/openapi-version.ts';
import { publicRouteWithoutToken } from '../lib/suite/public-routes.ts';
import { requirementTest } from '../lib/suite/requirement-test.ts';

interface ServedDocuments {
  json: ServedDocument;
  yaml: ServedDocument;
}

let fetched: Promise<ServedDocuments> | undefined;

/**
 * Both documents, fetched once for the whole run and without a token (§4.2: unauthenticated
 * routes); every test below judges the same two exchanges.
 */
function servedDocuments(): Promise<ServedDocuments> {
  fetched ??= (async () => ({
    json: readServedDocument('json', await publicRouteWithoutToken(DOCUMENT_PATHS.json)),
    yaml: readServedDocument('yaml', await publicRouteWithoutToken(DOCUMENT_PATHS.yaml)),
  }))();
  return fetched;
}

describe('§9.3 Versioning: the machine-readable description', () => {
  // > The machine-readable description is OpenAPI 3.1.0, served at `/openapi.json` and `/openapi.yaml`.
  requirementTest('openapi/9.3/json-served', 'GET /openapi.json without a token', async () => {
    const { json } = await servedDocuments();
    return [servedFinding('openapi/9.3/json-served', json)];
  });

  // > The machine-readable description is OpenAPI 3.1.0, served at `/openapi.json` and `/openapi.yaml`.
  requirementTest('openapi/9.3/yaml-served', 'GET /openapi.yaml without a token', async () => {
    const { yaml } = await servedDocuments();
    return [servedFinding('openapi/9.3/yaml-served', yaml)];
  });

  // > The machine-readable description is OpenAPI 3.1.0
  requirementTest('openapi/9.3/version-3.1.0', 'the openapi field of both documents', async () => {
    const { json, yaml } = await servedDocuments();
    return [versionFinding('openapi/9.3/version-3.1.0', [json, yaml])];
  });

  // > served at `/openapi.json` and `/openapi.yaml` (one description, two serialisations)
  requirementTest('openapi/9.3/documents-agree', 'the JSON and YAML documents compared as data', async () => {
    const { json, yaml } = await servedDocuments();
    return [documentsAgreeFinding('openapi/9.3/documents-agree', json, yaml)];
  });

  // > The machine-readable description is OpenAPI 3.1.0
  requirementTest('openapi/9.3/valid-oas', 'both documents against the OpenAPI 3.1 schema', async () => {
    const { json, yaml } = await servedDocuments();
    return [validOasFinding('openapi/9.3/valid-oas', [json, yaml])];
  });
});

describe('§4.1 GET /credits/operations in the served description', () => {
  // > Operation id: `getCreditsOperations`. Returns a paginated raw ledger of credit operations for a time window. Tag: Credits.
  // > `limit` on the ledger: integer 1 to 200, default 50. `feature` on the ledger: length 1 to 64.
  requirementTest(
    ['openapi/4.1/ledger-operation', 'openapi/4.1/ledger-details-stated'],
    'getCreditsOperations, its query parameters and responses in the served description',
    async () => {
      const { json, yaml } = await servedDocuments();
      return ledgerOperationFindings([json, yaml]);
    },
  );
});
