import { requirements } from './define.ts';

export const openapiRequirements = requirements('openapi', [
  {
    id: 'openapi/9.3/json-served',
    level: 'MUST',
    section: '9.3',
    statement: 'GET /openapi.json answers 200 without a token and its body parses as a JSON object.',
    quote: 'The machine-readable description is OpenAPI 3.1.0, served at `/openapi.json` and `/openapi.yaml`.',
  },
  {
    id: 'openapi/9.3/yaml-served',
    level: 'MUST',
    section: '9.3',
    statement: 'GET /openapi.yaml answers 200 without a token and its body parses as a YAML mapping.',
    quote: 'The machine-readable description is OpenAPI 3.1.0, served at `/openapi.json` and `/openapi.yaml`.',
  },
  {
    id: 'openapi/9.3/version-3.1.0',
    level: 'MUST',
    section: '9.3',
    statement: 'Both served documents declare `openapi: 3.1.0` (the string).',
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
    statement:
      'The served documents validate against the OpenAPI 3.1 document schema of the OpenAPI Initiative, and their Schema Objects against the JSON Schema 2020-12 meta-schema.',
    quote: 'The machine-readable description is OpenAPI 3.1.0',
  },
  {
    id: 'openapi/9.3/responses-match-description',
    level: 'MUST',
    section: '9.3',
    statement:
      'Every response of the run that the served description describes (path template, method, status exactly or by range or `default`, and media type) has a JSON body valid against the schema it gives there, read as JSON Schema 2020-12 with `format` as an annotation and local `$ref`s only: the description the service serves never contradicts its own responses. A MUST: §9.3 names the served document the machine-readable description of the service. What the description leaves out contradicts nothing (openapi/9.3/responses-described).',
    quote: 'The machine-readable description is OpenAPI 3.1.0, served at `/openapi.json` and `/openapi.yaml`.',
  },
  {
    id: 'openapi/9.3/responses-described',
    level: 'INFO',
    section: '9.3',
    statement:
      'Every response on a route the spec or the profile names is described by the served description: its path, method, status (exactly, by range or by `default`) and, where that status declares content, the media type the server sent. Leaving one out is incomplete, not contrary to the spec: OpenAPI does not expect a description to cover every status.',
    quote: 'The machine-readable description is OpenAPI 3.1.0, served at `/openapi.json` and `/openapi.yaml`.',
  },
  {
    id: 'openapi/4.1/ledger-operation',
    level: 'MUST',
    section: '4.1',
    statement:
      'Nothing the served description states of the ledger operation contradicts §4.1 and §8.3: getCreditsOperations, where stated, is GET /credits/operations; its tags include Credits; its query parameters from, to, feature, cursor and limit are optional; and every type, bound and default it states for them is the spec\'s. What it leaves unstated is an omission (openapi/4.1/ledger-details-stated), never a contradiction.',
    quote: 'Operation id: `getCreditsOperations`. Returns a paginated raw ledger of credit operations for a time window. Tag: Credits.',
  },
  {
    id: 'openapi/4.1/ledger-details-stated',
    level: 'INFO',
    section: '4.1',
    statement:
      'The served description states all of the ledger operation: getCreditsOperations at GET /credits/operations, the five query parameters with their types, the bounds of limit (1..200, default 50) and feature (length 1..64), the Credits tag and the responses 200, 400, 401, 429 and 503 (by code, range or `default`); leaving any of them out is incomplete, not contrary to the spec.',
    quote: '`limit` on the ledger: integer 1 to 200, default 50. `feature` on the ledger: length 1 to 64.',
  },
]);
