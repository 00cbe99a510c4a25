import { requirements } from './define.ts';

export const openapiRequirements = requirements('openapi', [
  {
    id: 'openapi/9.3/json-served',
    level: 'MUST',
    section: '9.3',
    statement: 'GET /openapi.json answers 200 without a token and its body parses as JSON.',
    quote: 'The machine-readable description is OpenAPI 3.1.0, served at `/openapi.json` and `/openapi.yaml`.',
  },
  {
    id: 'openapi/9.3/yaml-served',
    level: 'MUST',
    section: '9.3',
    statement: 'GET /openapi.yaml answers 200 without a token and its body parses as YAML.',
    quote: 'The machine-readable description is OpenAPI 3.1.0, served at `/openapi.json` and `/openapi.yaml`.',
  },
  {
    id: 'openapi/9.3/version-3.1.0',
    level: 'MUST',
    section: '9.3',
    statement: 'Both served documents declare `openapi: 3.1.0`.',
    quote: 'The machine-readable description is OpenAPI 3.1.0',
  },
  {
    id: 'openapi/9.3/documents-agree',
    level: 'MUST',
    section: '9.3',
    statement: 'The JSON and YAML documents are the same description (equal as data).',
    quote: 'The machine-readable description is OpenAPI 3.1.0, served at `/openapi.json` and `/openapi.yaml`.',
  },
  {
    id: 'openapi/9.3/valid-oas',
    level: 'MUST',
    section: '9.3',
    statement: 'The served description validates against the OpenAPI 3.1 document schema.',
    quote: 'The machine-readable description is OpenAPI 3.1.0',
  },
  {
    id: 'openapi/4.1/ledger-operation',
    level: 'MUST',
    section: '4.1',
    statement:
      'The served description has getCreditsOperations at GET /credits/operations with the parameters, bounds and responses the spec fixes.',
    quote: 'Operation id: `getCreditsOperations`. Returns a paginated raw ledger of credit operations for a time window.',
  },
]);
