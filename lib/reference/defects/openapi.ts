import type { DefectSwitch, VariantSwitch } from '../switches.ts';

/** Defects of the served OpenAPI documents (lib/reference/served-openapi.ts plays them). */
export const openapiDefects: DefectSwitch[] = [
  {
    name: 'openapi-json-requires-token',
    breaks: ['openapi/9.3/json-served'],
    suites: ['openapi'],
    description: 'GET /openapi.json without a token answers 401 auth.token_missing.',
  },
  {
    name: 'openapi-yaml-unparseable',
    breaks: ['openapi/9.3/yaml-served'],
    suites: ['openapi'],
    description: 'GET /openapi.yaml answers 200 with text that is not valid YAML (a tab in the indentation).',
  },
  {
    name: 'openapi-yaml-differs',
    breaks: ['openapi/9.3/documents-agree'],
    suites: ['openapi'],
    description: 'The YAML document carries another info.title than the JSON one.',
  },
  {
    name: 'openapi-version-3-0',
    breaks: ['openapi/9.3/version-3.1.0', 'openapi/9.3/valid-oas'],
    suites: ['openapi'],
    description: 'Both documents declare openapi: 3.0.3 (which the OAS 3.1 schema rejects too).',
  },
  {
    name: 'openapi-invalid-document',
    breaks: ['openapi/9.3/valid-oas'],
    suites: ['openapi'],
    description: 'The 200 response of GET /health has no description, which the OAS 3.1 schema requires.',
  },
  {
    name: 'openapi-ledger-limit-bound',
    breaks: ['openapi/4.1/ledger-operation'],
    suites: ['openapi'],
    description: 'The served description states maximum 100 for the ledger limit (the spec fixes 200).',
  },
  {
    name: 'openapi-ledger-operation-missing',
    breaks: ['openapi/4.1/ledger-details-stated'],
    suites: ['openapi'],
    description: 'The served description has no /credits/operations path (an omission: the MUST openapi/4.1/ledger-operation still passes).',
  },
  {
    name: 'openapi-ledger-bounds-omitted',
    breaks: ['openapi/4.1/ledger-details-stated'],
    suites: ['openapi'],
    description: 'The served description leaves out minLength and maxLength of the ledger feature parameter.',
  },
  {
    name: 'openapi-next-cursor-string',
    breaks: ['openapi/9.3/responses-match-description'],
    suites: ['openapi', 'ledger-schema'],
    description: 'The served description declares `next_cursor` a string (not nullable), while the last page carries null.',
  },
  {
    name: 'openapi-error-closed',
    breaks: ['openapi/9.3/responses-match-description'],
    suites: ['openapi', 'auth'],
    description: 'The served Error schema closes `error` (additionalProperties: false) without `request_id`, which every error carries.',
  },
  {
    name: 'openapi-ledger-400-undescribed',
    breaks: ['openapi/4.1/ledger-details-stated', 'openapi/9.3/responses-described'],
    suites: ['openapi', 'ledger-bounds'],
    description: 'The served description leaves the 400 of GET /credits/operations out (an omission: no MUST fails).',
  },
];

/** Legal choices of the served documents the spec leaves open: the openapi suite must pass with each. */
export const openapiVariants: VariantSwitch[] = [
  {
    name: 'openapi-documents-text-plain',
    suites: ['openapi'],
    description: 'Both documents are served as `text/plain; charset=utf-8`, as a static file server may: the spec fixes no media type for them.',
  },
  {
    name: 'openapi-extra-content',
    suites: ['openapi', 'ledger-bounds'],
    description:
      'The served description adds what the spec leaves to the vendor: extensions (`x-vendor-build`, `x-internal-owner`), a path of its own (`/usage/summary`), an optional query parameter of the ledger that the server ignores, and a 503 response of the ledger.',
  },
];
