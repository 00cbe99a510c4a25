import { describe, expect, test } from 'vitest';
import { ledgerOperationFindings, reviewLedgerOperation } from '../../lib/checks/openapi-ledger-operation.ts';
import { contractCopy, ledgerGet, ledgerParameter, served } from './openapi-fixtures.ts';

// Loosely typed: the tests reach deep into OpenAPI documents to change one field.
type Doc = Record<string, any>;

function review(change: (doc: Doc) => void): { contradictions: string[]; omissions: string[] } {
  const doc = contractCopy();
  change(doc);
  const { contradictions, omissions } = reviewLedgerOperation(doc);
  return { contradictions, omissions };
}

describe('reviewLedgerOperation: what agrees with the spec', () => {
  test('the canonical contract has nothing to report', () => {
    expect(review(() => {})).toEqual({ contradictions: [], omissions: [] });
  });
  test.each([
    ['extra parameters, paths and responses', (doc: Doc) => {
      ledgerGet(doc)['parameters'].push({ name: 'order', in: 'query', schema: { type: 'string' } });
      ledgerGet(doc)['responses']['500'] = { description: 'x' };
      doc['paths']['/tasks'] = { get: { responses: { '200': { description: 'x' } } } };
    }],
    ['parameters through $ref to components', (doc: Doc) => {
      doc['components']['parameters'] = { Limit: ledgerParameter(doc, 'limit') };
      const params = ledgerGet(doc)['parameters'];
      params[params.findIndex((p: Doc) => p['name'] === 'limit')] = { $ref: '#/components/parameters/Limit' };
    }],
    ['parameters declared on the path item', (doc: Doc) => {
      doc['paths']['/credits/operations']['parameters'] = ledgerGet(doc)['parameters'];
      delete ledgerGet(doc)['parameters'];
    }],
    ['a schema by $ref and allOf', (doc: Doc) => {
      doc['components']['schemas']['PageSize'] = { type: 'integer', minimum: 1 };
      ledgerParameter(doc, 'limit')['schema'] = { allOf: [{ $ref: '#/components/schemas/PageSize' }, { maximum: 200, default: 50 }] };
    }],
    ['exclusive bounds that mean the same integers', (doc: Doc) => {
      ledgerParameter(doc, 'limit')['schema'] = { type: 'integer', exclusiveMinimum: 0, exclusiveMaximum: 201, default: 50 };
    }],
    ['a nullable type list that includes the type', (doc: Doc) => {
      ledgerParameter(doc, 'cursor')['schema'] = { type: ['string', 'null'] };
    }],
    ['a parameter described with content', (doc: Doc) => {
      const p = ledgerParameter(doc, 'feature');
      p['content'] = { 'text/plain': { schema: p['schema'] } };
      delete p['schema'];
    }],
    ['required: false stated', (doc: Doc) => {
      ledgerParameter(doc, 'from')['required'] = false;
    }],
    ['a default response for the errors', (doc: Doc) => {
      const r = ledgerGet(doc)['responses'];
      r['default'] = r['400'];
      for (const code of ['400', '401', '429', '503']) delete r[code];
    }],
    ['range keys for the error responses', (doc: Doc) => {
      const r = ledgerGet(doc)['responses'];
      r['4XX'] = r['400'];
      r['5XX'] = r['503'];
      for (const code of ['400', '401', '429', '503']) delete r[code];
    }],
    ['a path item by $ref', (doc: Doc) => {
      doc['components']['pathItems'] = { Ledger: doc['paths']['/credits/operations'] };
      doc['paths']['/credits/operations'] = { $ref: '#/components/pathItems/Ledger' };
    }],
    ['paths written with the /v1 prefix', (doc: Doc) => {
      doc['paths']['/v1/credits/operations'] = doc['paths']['/credits/operations'];
      delete doc['paths']['/credits/operations'];
    }],
    ['a formatted from and to', (doc: Doc) => {
      ledgerParameter(doc, 'from')['schema'] = { type: 'string', description: 'date or date-time' };
    }],
  ])('%s', (_what, change) => {
    expect(review(change)).toEqual({ contradictions: [], omissions: [] });
  });
});

describe('reviewLedgerOperation: contradictions (MUST)', () => {
  test.each([
    ['limit maximum 100', (doc: Doc) => (ledgerParameter(doc, 'limit')['schema']['maximum'] = 100), 'limit: maximum 100 (spec: 200)'],
    ['limit minimum 0', (doc: Doc) => (ledgerParameter(doc, 'limit')['schema']['minimum'] = 0), 'limit: minimum 0 (spec: 1)'],
    ['limit exclusiveMaximum 200', (doc: Doc) => {
      delete ledgerParameter(doc, 'limit')['schema']['maximum'];
      ledgerParameter(doc, 'limit')['schema']['exclusiveMaximum'] = 200;
    }, 'limit: maximum 199 (spec: 200)'],
    ['limit default 20', (doc: Doc) => (ledgerParameter(doc, 'limit')['schema']['default'] = 20), 'limit: default 20 (spec: 50)'],
    ['limit a string', (doc: Doc) => (ledgerParameter(doc, 'limit')['schema']['type'] = 'string'), 'limit: type "string" (spec: integer)'],
    ['feature maxLength 32', (doc: Doc) => (ledgerParameter(doc, 'feature')['schema']['maxLength'] = 32), 'feature: maxLength 32 (spec: 64)'],
    ['feature minLength 0', (doc: Doc) => (ledgerParameter(doc, 'feature')['schema']['minLength'] = 0), 'feature: minLength 0 (spec: 1)'],
    ['a tighter bound through allOf', (doc: Doc) => {
      ledgerParameter(doc, 'limit')['schema'] = { allOf: [ledgerParameter(doc, 'limit')['schema'], { maximum: 100 }] };
    }, 'limit: maximum 100 (spec: 200)'],
    ['cursor required', (doc: Doc) => (ledgerParameter(doc, 'cursor')['required'] = true), 'cursor: required (spec: optional)'],
    ['another operationId', (doc: Doc) => (ledgerGet(doc)['operationId'] = 'listCreditOperations'), 'GET /credits/operations has operationId "listCreditOperations"'],
    ['another tag', (doc: Doc) => (ledgerGet(doc)['tags'] = ['Ledger']), 'GET /credits/operations has tags ["Ledger"], without Credits'],
    ['the operation at another path', (doc: Doc) => {
      doc['paths']['/credits/ledger'] = doc['paths']['/credits/operations'];
      delete doc['paths']['/credits/operations'];
    }, 'no path /credits/operations (operationId getCreditsOperations sits at GET /credits/ledger)'],
    ['the operation under POST and no GET', (doc: Doc) => {
      doc['paths']['/credits/operations'] = { post: ledgerGet(doc) };
    }, 'no GET operation at /credits/operations (operationId getCreditsOperations sits at POST /credits/operations)'],
  ])('%s', (_what, change, contradiction) => {
    expect(review(change).contradictions).toEqual([contradiction]);
  });
});

describe('reviewLedgerOperation: omissions (INFO), never contradictions', () => {
  test.each([
    ['cursor missing', (doc: Doc) => {
      ledgerGet(doc)['parameters'] = ledgerGet(doc)['parameters'].filter((p: Doc) => p['name'] !== 'cursor');
    }, ['no query parameter cursor']],
    ['cursor only in a header', (doc: Doc) => (ledgerParameter(doc, 'cursor')['in'] = 'header'), ['no query parameter cursor (declared in "header")']],
    ['no 503', (doc: Doc) => delete ledgerGet(doc)['responses']['503'], ['responses 503 not declared']],
    ['no 400 nor 429', (doc: Doc) => {
      delete ledgerGet(doc)['responses']['400'];
      delete ledgerGet(doc)['responses']['429'];
    }, ['responses 400, 429 not declared']],
    ['no operationId', (doc: Doc) => delete ledgerGet(doc)['operationId'], ['GET /credits/operations has no operationId (spec: getCreditsOperations)']],
    ['no path', (doc: Doc) => delete doc['paths']['/credits/operations'], ['no path /credits/operations']],
    ['a path without GET', (doc: Doc) => {
      doc['paths']['/credits/operations'] = { post: { responses: { '200': { description: 'x' } } } };
    }, ['no GET operation at /credits/operations']],
    ['no paths at all', (doc: Doc) => delete doc['paths'], ['the description has no paths']],
    ['limit without bounds and default', (doc: Doc) => (ledgerParameter(doc, 'limit')['schema'] = { type: 'integer' }), [
      'limit: no minimum (spec: 1)',
      'limit: no maximum (spec: 200)',
      'limit: no default (spec: 50)',
    ]],
    ['feature without lengths', (doc: Doc) => (ledgerParameter(doc, 'feature')['schema'] = { type: 'string' }), [
      'feature: no minLength (spec: 1)',
      'feature: no maxLength (spec: 64)',
    ]],
    ['limit as number', (doc: Doc) => (ledgerParameter(doc, 'limit')['schema']['type'] = 'number'), ['limit: type number (spec: integer)']],
    ['cursor without type', (doc: Doc) => (ledgerParameter(doc, 'cursor')['schema'] = {}), ['cursor: no type (spec: string)']],
    ['bounds hidden in oneOf', (doc: Doc) => (ledgerParameter(doc, 'feature')['schema'] = { type: 'string', oneOf: [{ maxLength: 64 }] }), [
      'feature: no minLength the harness can read (spec: 1)',
      'feature: no maxLength the harness can read (spec: 64)',
    ]],
    ['no tags', (doc: Doc) => delete ledgerGet(doc)['tags'], ['GET /credits/operations has no tags (spec: Credits)']],
    ['an external $ref', (doc: Doc) => ledgerGet(doc)['parameters'].push({ $ref: 'common.yaml#/Page' }), [
      'a parameter: $ref "common.yaml#/Page" points outside the document (not followed)',
    ]],
  ])('%s', (_what, change, omissions) => {
    expect(review(change)).toEqual({ contradictions: [], omissions });
  });
});

describe('ledgerOperationFindings', () => {
  test('the contract passes both requirements', () => {
    const findings = ledgerOperationFindings([served('json', contractCopy())]);
    expect(findings.map((f) => [f.requirement, f.verdict])).toEqual([
      ['openapi/4.1/ledger-operation', 'pass'],
      ['openapi/4.1/ledger-details-stated', 'pass'],
    ]);
  });
  test('a wrong bound fails the MUST, naming the document', () => {
    const doc = contractCopy();
    ledgerParameter(doc, 'limit')['schema']['maximum'] = 100;
    const [operation] = ledgerOperationFindings([served('json', doc), served('yaml', doc)]);
    expect(operation).toMatchObject({ verdict: 'fail', actual: '/openapi.json: limit: maximum 100 (spec: 200)' });
  });
  test('omitted bounds fail only the INFO requirement', () => {
    const doc = contractCopy();
    ledgerParameter(doc, 'feature')['schema'] = { type: 'string' };
    expect(ledgerOperationFindings([served('json', doc)]).map((f) => f.verdict)).toEqual(['pass', 'fail']);
  });
  test('the YAML document is read when the JSON one is not served', () => {
    const doc = contractCopy();
    const [operation] = ledgerOperationFindings([served('json', doc, 401), served('yaml', doc)]);
    expect(operation?.verdict).toBe('pass');
    expect(operation?.exchanges[0]?.request.url).toMatch(/openapi\.yaml$/);
  });
  test('without the operation the MUST passes, saying so, and the INFO requirement notes the omission', () => {
    const doc = contractCopy();
    delete doc['paths']['/credits/operations'];
    const [operation, details] = ledgerOperationFindings([served('json', doc)]);
    expect(operation).toMatchObject({ verdict: 'pass', note: expect.stringContaining('/openapi.json states no GET /credits/operations') });
    expect(details).toMatchObject({ verdict: 'fail', actual: '/openapi.json: no path /credits/operations' });
  });
  test('a missing response is an omission, not a contradiction', () => {
    const doc = contractCopy();
    delete ledgerGet(doc)['responses']['503'];
    expect(ledgerOperationFindings([served('json', doc)]).map((f) => f.verdict)).toEqual(['pass', 'fail']);
  });
  test('nothing readable is inconclusive', () => {
    expect(ledgerOperationFindings([served('json', {}, 500)]).map((f) => f.verdict)).toEqual(['inconclusive', 'inconclusive']);
  });
});
