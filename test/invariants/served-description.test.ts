import { describe, expect, test } from 'vitest';
import { lookUpResponse, requestPaths } from '../../lib/checks/openapi-response-lookup.ts';
import { LISTED_SCHEMA_PROBLEMS, schemaProblems } from '../../lib/checks/openapi-response-schema.ts';
import { holdsServedDescription, servedDescriptionOf, type ServedDescription } from '../../lib/checks/openapi-served-description.ts';
import type { RecordContext } from '../../lib/invariants/exchange-facts.ts';
import { judgeExchanges } from '../../lib/invariants/judge-record.ts';
import type { Exchange } from '../../lib/model/exchange.ts';
import type { Finding } from '../../lib/model/finding.ts';
import { contractCopy } from '../checks/openapi-fixtures.ts';

const BASE = 'http://t.invalid/v1';
const MATCHES = 'openapi/9.3/responses-match-description';
const DESCRIBED = 'openapi/9.3/responses-described';

// Loosely typed: the tests reach deep into OpenAPI documents to change one field.
type Doc = Record<string, any>;

let seq = 0;

interface Sent {
  method?: string;
  path: string;
  role?: string;
  status: number;
  type?: string;
  body?: unknown;
}

/** An exchange as the client records it: a role's token shows as `Bearer $VARIABLE`. */
function ex(s: Sent): Exchange {
  const body = s.body === undefined ? '' : typeof s.body === 'string' ? s.body : JSON.stringify(s.body);
  const headers: Record<string, string> = s.type === undefined ? {} : { 'content-type': s.type };
  return {
    seq: ++seq,
    startedAt: '2026-01-01T00:00:00.000Z',
    request: {
      method: s.method ?? 'GET',
      url: s.path.startsWith('http') ? s.path : `${BASE}${s.path}`,
      headers: s.role === undefined ? {} : { authorization: `Bearer $ASI_TOKEN_${s.role.toUpperCase()}` },
      ...(s.role === undefined ? {} : { tokenRole: s.role }),
    },
    response: { status: s.status, headers, body, bodyBytes: body.length, truncated: false },
    timings: { totalMs: 1 },
  };
}

function documentFetch(doc: unknown, status = 200): Exchange {
  return ex({ path: '/openapi.json', status, type: 'application/json', body: doc });
}

function context(served: ServedDescription | undefined): RecordContext {
  return {
    baseUrl: BASE,
    messages: { routes: [{ path: '/deal-agents/da_1/messages', template: '/deal-agents/{agent_id}/messages', body: { message: 'hi' } }] },
    limits: { read: 600, write: 60, windowS: 60 },
    ...(served === undefined ? {} : { servedDescription: served }),
  };
}

const JSON_TYPE = 'application/json; charset=utf-8';
const LAST_PAGE = { operations: [], next_cursor: null };
const ENVELOPE = { error: { code: 'auth.token_missing', category: 'permanent', message: 'm', request_id: 'req_1' } };

/** The two requirements' findings over a record that opens with the document's fetch. */
function judged(doc: unknown, ...exchanges: Exchange[]): { matches: Finding; described: Finding } {
  const record = [documentFetch(doc), ...exchanges];
  const findings = judgeExchanges(record, context(servedDescriptionOf(record, BASE)), (id) => id === MATCHES || id === DESCRIBED);
  return { matches: findings.find((f) => f.requirement === MATCHES)!, described: findings.find((f) => f.requirement === DESCRIBED)! };
}

function page(body: unknown = LAST_PAGE, type = JSON_TYPE): Exchange {
  return ex({ path: '/credits/operations?limit=5', role: 'primary', status: 200, type, body });
}

describe('responses against the served description', () => {
  test('the canonical contract and conformant bodies pass both requirements, naming what they judged', () => {
    const row = { operation_uuid: 'u', operation_type: 't', feature: 'f', credits: 1.5, metadata: {}, timestamp: '2026-01-01T00:00:00Z', workspace_id: 'ws' };
    const { matches, described } = judged(contractCopy(), page({ operations: [row], next_cursor: 'c', has_more: true }), page(), ex({ path: '/me', status: 401, type: JSON_TYPE, body: ENVELOPE }));
    expect(matches).toMatchObject({ verdict: 'pass', note: expect.stringMatching(/^judged on 3 exchanges over 2 routes and 2 statuses; not reached: GET \/me 429/) });
    expect(described.verdict).toBe('pass');
  });

  test('next_cursor declared a string fails on the last page, quoting both, with the operation and the pointer', () => {
    const doc = contractCopy();
    doc['components']['schemas']['CreditsOperations']['properties']['next_cursor'] = { type: 'string' };
    const { matches } = judged(doc, page({ operations: [], next_cursor: 'c' }), page());
    expect(matches.verdict).toBe('fail');
    expect(matches.actual).toBe(
      '1 of 2 responses with a JSON body the served description gives a schema for: GET /v1/credits/operations?limit=5 → 200: GET /credits/operations 200 application/json (getCreditsOperations): `/next_cursor`: the served description says {"type":"string"}; the server sent null',
    );
    expect(matches.exchanges).toHaveLength(1);
  });

  test('a closed error object without request_id fails on every error that carries one', () => {
    const doc = contractCopy();
    const error = doc['components']['schemas']['Error']['properties']['error'];
    error['additionalProperties'] = false;
    delete error['properties']['request_id'];
    error['required'] = ['code', 'category', 'message'];
    const { matches } = judged(doc, ex({ path: '/me', status: 401, type: JSON_TYPE, body: ENVELOPE }));
    expect(matches.actual).toContain('GET /me 401 application/json: `/error`: the served description says {"additionalProperties":false}; the server sent `request_id`: "req_1"');
  });

  test('a 3.0 `nullable` left in a 3.1 document allows the null its author meant', () => {
    const doc = contractCopy();
    doc['components']['schemas']['CreditsOperations']['properties']['next_cursor'] = { type: 'string', nullable: true };
    expect(judged(doc, page()).matches.verdict).toBe('pass');
  });

  test('an Error schema that only leaves request_id out of its required list contradicts nothing', () => {
    const doc = contractCopy();
    doc['components']['schemas']['Error']['properties']['error']['required'] = ['code', 'category', 'message'];
    expect(judged(doc, ex({ path: '/me', status: 401, type: JSON_TYPE, body: ENVELOPE })).matches.verdict).toBe('pass');
  });

  test('credits declared an integer fails on a row of 1.5; the date-time format is never asserted', () => {
    const doc = contractCopy();
    doc['components']['schemas']['CreditOperation']['properties']['credits'] = { type: 'integer' };
    const row = { operation_uuid: 'u', operation_type: 't', feature: 'f', credits: 1.5, metadata: {}, timestamp: '2026-01-01 00:00:00+01' };
    const { matches } = judged(doc, page({ operations: [row], next_cursor: null }));
    expect(matches.actual).toContain('`/operations/0/credits`: the served description says {"type":"integer"}; the server sent 1.5');
    expect(matches.actual).not.toContain('timestamp');
  });

  test('a failed anyOf is quoted whole, and problems past the cap are counted', () => {
    const doc = contractCopy();
    doc['components']['schemas']['CreditsOperations']['properties']['next_cursor'] = { anyOf: [{ type: 'string' }, { type: 'null' }] };
    doc['components']['schemas']['CreditOperation']['additionalProperties'] = false;
    const row = { operation_uuid: 'u', operation_type: 't', feature: 'f', credits: 1, metadata: {}, timestamp: 't', a: 1, b: 2, c: 3, d: 4 };
    const { matches } = judged(doc, page({ operations: [], next_cursor: 5 }), page({ operations: [row], next_cursor: null }));
    expect(matches.actual).toContain('`/next_cursor`: the served description says {"anyOf":[{"type":"string"},{"type":"null"}]}; the server sent 5');
    expect(matches.actual).not.toContain('{"type":"null"}; the server');
    expect(matches.actual).toContain('the server sent `c`: 3; and 1 more');
    expect(LISTED_SCHEMA_PROBLEMS).toBe(3);
  });

  test('ranges and default describe a status; the exact code comes first', () => {
    const doc = contractCopy();
    const responses = doc['paths']['/me']['get']['responses'];
    responses['4XX'] = { description: 'x', content: { 'application/json': { schema: { type: 'string' } } } };
    responses['default'] = { description: 'x', content: { 'application/json': { schema: { type: 'array' } } } };
    const { matches } = judged(
      doc,
      ex({ path: '/me', status: 401, type: JSON_TYPE, body: ENVELOPE }),
      ex({ path: '/me', status: 404, type: JSON_TYPE, body: ENVELOPE }),
      ex({ path: '/me', status: 500, type: JSON_TYPE, body: ENVELOPE }),
    );
    expect(matches.actual).toMatch(/^2 of 3 /);
    expect(matches.actual).toContain('GET /me 4XX application/json');
    expect(matches.actual).toContain('GET /me default application/json');
  });

  test('extra fields pass unless the served document itself closes the object', () => {
    expect(judged(contractCopy(), ex({ path: '/me', status: 401, type: JSON_TYPE, body: { error: { ...ENVELOPE.error, hint: 'x' } } })).matches.verdict).toBe('pass');
    // The contract closes the envelope's top level: a second top-level key contradicts it.
    expect(judged(contractCopy(), ex({ path: '/me', status: 401, type: JSON_TYPE, body: { ...ENVELOPE, trace: 'x' } })).matches.actual).toContain('the server sent `trace`: "x"');
  });

  test('bodies that are not JSON, cut short or HEAD are not judged; an undescribed response is an omission only', () => {
    const cut = page();
    cut.response!.truncated = true;
    const head = ex({ method: 'HEAD', path: '/credits/operations', role: 'primary', status: 200, type: JSON_TYPE });
    const html = ex({ path: '/me', status: 401, type: JSON_TYPE, body: '<html>' });
    const teapot = ex({ path: '/credits/operations', role: 'primary', status: 418, type: JSON_TYPE, body: ENVELOPE });
    const { matches, described } = judged(contractCopy(), cut, head, html, teapot);
    expect(matches).toMatchObject({ verdict: 'pass', note: expect.stringContaining('gives a schema for none of the JSON responses') });
    expect(described.verdict).toBe('fail');
    expect(described.actual).toContain('GET /credits/operations in the served description declares no 418 response (nor 4XX, nor default)');
  });

  test('a media type the status does not declare is an omission, not a contradiction', () => {
    const doc = contractCopy();
    const ok = doc['paths']['/credits/operations']['get']['responses']['200'];
    ok['content'] = { 'text/plain': { schema: { type: 'string' } } };
    const { matches, described } = judged(doc, page());
    expect(matches.verdict).toBe('pass');
    expect(described.actual).toContain('GET /credits/operations 200 in the served description declares text/plain, not application/json');
  });

  test('routes the description leaves out are omissions; unknown routes are not judged', () => {
    const doc = contractCopy();
    delete doc['paths']['/me'];
    const { described } = judged(doc, ex({ path: '/me', status: 401, type: JSON_TYPE, body: ENVELOPE }), ex({ path: '/nope', status: 404, type: JSON_TYPE, body: ENVELOPE }));
    expect(described.actual).toMatch(/^1 of 2 responses .*the served description has no path for \/me$/);
  });
});

describe('the served description in the record', () => {
  test('a record without it leaves both requirements not run, saying why', () => {
    const { matches, described } = (() => {
      const findings = judgeExchanges([page()], context(servedDescriptionOf([page()], BASE)));
      return { matches: findings.find((f) => f.requirement === MATCHES)!, described: findings.find((f) => f.requirement === DESCRIBED)! };
    })();
    expect(matches).toMatchObject({ verdict: 'not-run', note: 'this run did not fetch /openapi.json (the openapi suite does)' });
    expect(described.verdict).toBe('not-run');
  });

  test('a context without it (a record judged elsewhere) is not run', () => {
    const f = judgeExchanges([page()], context(undefined)).find((x) => x.requirement === MATCHES);
    expect(f?.note).toMatch(/no served description in its record/);
  });

  test('the first 200 is the document; a refusal or an unreadable body says why there is none', () => {
    expect(servedDescriptionOf([documentFetch({ error: 'x' }, 401)], BASE)).toEqual({ available: false, why: expect.stringMatching(/^this run has no served description: GET \/openapi.json answered 401/) });
    expect(servedDescriptionOf([ex({ path: '/openapi.json', status: 200, body: '{"openapi": ' })], BASE)).toMatchObject({ available: false, why: expect.stringContaining('body is not JSON') });
    const first = documentFetch(contractCopy());
    expect(servedDescriptionOf([documentFetch({}, 503), first, documentFetch({ openapi: '3.1.0', paths: {} })], BASE)).toMatchObject({ available: true, seq: first.seq });
  });

  test('the record keeps whole only a fetch that holds a readable document', () => {
    const cut = documentFetch(contractCopy());
    cut.response!.truncated = true;
    expect(holdsServedDescription(documentFetch(contractCopy()), BASE)).toBe(true);
    expect([cut, documentFetch(contractCopy(), 503), documentFetch('[]'), page()].map((e) => holdsServedDescription(e, BASE))).toEqual([false, false, false, false]);
  });

  test('an OAS 3.0 document or another schema dialect is not read as JSON Schema 2020-12', () => {
    expect(judged({ ...contractCopy(), openapi: '3.0.3' }, page()).matches.note).toMatch(/declares openapi "3.0.3", so its schemas are not JSON Schema 2020-12/);
    expect(judged({ ...contractCopy(), jsonSchemaDialect: 'https://example.com/dialect' }, page()).matches.verdict).toBe('not-run');
  });
});

describe('looking up a response in a description', () => {
  const doc: Doc = {
    openapi: '3.1.0',
    paths: {
      '/items/{id}': { get: { responses: { '200': { $ref: '#/components/responses/Item' } } } },
      '/items/latest': { get: { operationId: 'latest', responses: { '2XX': { description: 'x', content: { 'application/*': { schema: true }, '*/*': {} } } } } },
      '/v1/raw': { post: { responses: { default: { description: 'x' } } } },
    },
    components: { responses: { Item: { description: 'x', content: { 'application/json; charset=utf-8': { schema: { type: 'object' } } } } } },
  };

  test('a concrete path comes before a template; media keys match by essence, then by range', () => {
    expect(lookUpResponse(doc, { method: 'GET', paths: ['/items/latest'], status: 201, contentType: 'application/json' })).toMatchObject({
      described: true,
      response: { path: '/items/latest', operationId: 'latest', statusKey: '2XX', matched: { key: 'application/*', schemaPointer: '#/paths/~1items~1latest/get/responses/2XX/content/application~1*/schema' } },
    });
    expect(lookUpResponse(doc, { method: 'GET', paths: ['/items/7'], status: 200, contentType: 'application/json' })).toMatchObject({
      response: { path: '/items/{id}', matched: { schemaPointer: '#/components/responses/Item/content/application~1json%3B%20charset%3Dutf-8/schema' } },
    });
    expect(lookUpResponse(doc, { method: 'GET', paths: ['/items/latest'], status: 200, contentType: 'text/html' })).toMatchObject({ response: { matched: { key: '*/*' } } });
  });

  test('paths are tried under base_url, then from the host', () => {
    const post = ex({ method: 'POST', path: '/raw', status: 500 });
    expect(requestPaths(post, BASE)).toEqual(['/raw', '/v1/raw']);
    expect(lookUpResponse(doc, { method: 'POST', paths: requestPaths(post, BASE), status: 500, contentType: '' })).toMatchObject({ described: true, response: { path: '/v1/raw', statusKey: 'default' } });
    expect(requestPaths(ex({ path: 'http://elsewhere.invalid/v1/raw', status: 200 }), BASE)).toEqual([]);
  });

  test('what is left out is named', () => {
    expect(lookUpResponse(doc, { method: 'DELETE', paths: ['/items/7'], status: 200, contentType: '' })).toEqual({ described: false, omission: 'the served description has no DELETE /items/{id}' });
    expect(lookUpResponse(doc, { method: 'GET', paths: ['/items/7'], status: 404, contentType: '' })).toEqual({
      described: false,
      omission: 'GET /items/{id} in the served description declares no 404 response (nor 4XX, nor default)',
    });
  });

  test('a schema behind a remote reference is not judged, and nothing is fetched', () => {
    const remote: Doc = { openapi: '3.1.0', components: { schemas: { A: { $ref: 'https://example.invalid/a.json' } } } };
    expect(schemaProblems(remote, '#/components/schemas/A', 1)).toMatchObject({ judged: false });
  });
});
