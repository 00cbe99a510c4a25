import { describe, expect, test } from 'vitest';
import { validOasFinding } from '../../lib/checks/openapi-validity.ts';
import { contractCopy, ledgerGet, ledgerParameter, served } from './openapi-fixtures.ts';

const ID = 'openapi/9.3/valid-oas';
// Loosely typed: the tests reach deep into OpenAPI documents to change one field.
type Doc = Record<string, any>;

describe('validOasFinding', () => {
  test('the canonical contract is valid OAS 3.1', () => {
    const doc = contractCopy();
    expect(validOasFinding(ID, [served('json', doc), served('yaml', doc)])).toMatchObject({ verdict: 'pass' });
  });
  test('a minimal document is valid', () => {
    expect(validOasFinding(ID, [served('json', { openapi: '3.1.0', info: { title: 't', version: '1' }, paths: {} })]).verdict).toBe('pass');
  });
  test('extensions, examples and a servers entry are valid', () => {
    const doc = contractCopy();
    doc['servers'] = [{ url: 'http://127.0.0.1:8080/v1' }];
    doc['x-owner'] = { team: 'credits' };
    ledgerParameter(doc, 'limit')['example'] = 20;
    doc['components']['schemas']['CreditOperation']['examples'] = [{ operation_uuid: 'x' }];
    expect(validOasFinding(ID, [served('json', doc)]).verdict).toBe('pass');
  });
  test.each([
    ['a response without description', (doc: Doc) => delete ledgerGet(doc)['responses']['200']['description'], "must have required property 'description'"],
    ['a parameter in body', (doc: Doc) => (ledgerParameter(doc, 'from')['in'] = 'body'), 'must be equal to one of the allowed values'],
    ['an unknown top-level field', (doc: Doc) => (doc['produces'] = ['application/json']), 'must NOT have unevaluated properties'],
    ['no info', (doc: Doc) => delete doc['info'], "must have required property 'info'"],
    ['a Schema Object with a string minimum', (doc: Doc) => (ledgerParameter(doc, 'limit')['schema']['minimum'] = 'one'), 'must be number'],
    ['a component schema with a bad type', (doc: Doc) => (doc['components']['schemas']['Error']['type'] = 'record'), 'must be equal to one of the allowed values'],
    ['a media type key that is no media range', (doc: Doc) => {
      const content = ledgerGet(doc)['responses']['200']['content'];
      content['json'] = content['application/json'];
    }, 'must match format "media-range"'],
  ])('%s is invalid', (_what, change, message) => {
    const doc = contractCopy();
    change(doc);
    const f = validOasFinding(ID, [served('json', doc)]);
    expect(f.verdict).toBe('fail');
    expect(f.actual).toContain(message);
    expect(f.actual).toMatch(/^\/openapi\.json: /);
  });
  test('a long list of problems is cut after five', () => {
    const doc = contractCopy();
    for (const name of ['from', 'to', 'feature', 'cursor', 'limit']) ledgerParameter(doc, name)['in'] = 'body';
    const f = validOasFinding(ID, [served('json', doc)]);
    expect(f.actual).toMatch(/and \d+ more$/);
  });
  test('a Schema Object of another dialect is not judged by the 2020-12 meta-schema', () => {
    const doc = contractCopy();
    doc['components']['schemas']['Legacy'] = { $schema: 'http://json-schema.org/draft-04/schema#', type: 'object', exclusiveMinimum: true };
    expect(validOasFinding(ID, [served('json', doc)]).verdict).toBe('pass');
  });
  test('nothing readable is inconclusive', () => {
    expect(validOasFinding(ID, [served('json', {}, 404)]).verdict).toBe('inconclusive');
  });
});
