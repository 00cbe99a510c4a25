import { describe, expect, test } from 'vitest';
import { documentsAgreeFinding, firstDifference, jsonPointer } from '../../lib/checks/openapi-agreement.ts';
import { readServedDocument } from '../../lib/checks/openapi-documents.ts';
import { contractCopy, documentExchange, served } from './openapi-fixtures.ts';

describe('firstDifference', () => {
  test('equal data, keys in another order', () => {
    expect(firstDifference({ a: 1, b: [1, { c: null }] }, { b: [1, { c: null }], a: 1 })).toBeUndefined();
  });
  test.each([
    [{ a: 1 }, { a: 2 }, '/a', '1', '2'],
    [{ a: 1 }, { a: '1' }, '/a', '1', '"1"'],
    [{ a: 1 }, {}, '/a', '1', 'absent'],
    [{}, { b: true }, '/b', 'absent', 'true'],
    [[1, 2], [1], '/1', '2', 'absent'],
    [{ a: [1, { 'x/y': 1 }] }, { a: [1, { 'x/y': 2 }] }, '/a/1/x~1y', '1', '2'],
    [{ a: null }, { a: {} }, '/a', 'null', '{}'],
    [{ a: [] }, { a: {} }, '/a', '[]', '{}'],
    [1, 2, '', '1', '2'],
  ])('%j vs %j differ at %s', (left, right, pointer, l, r) => {
    expect(firstDifference(left, right)).toEqual({ pointer, left: l, right: r });
  });
  test('the first difference in the left document order is reported', () => {
    expect(firstDifference({ a: 1, b: 1 }, { a: 2, b: 2 })?.pointer).toBe('/a');
  });
  test('jsonPointer escapes ~ and /', () => {
    expect(jsonPointer(['paths', '/credits/operations', 'a~b', 0])).toBe('/paths/~1credits~1operations/a~0b/0');
  });
});

describe('documentsAgreeFinding', () => {
  test('the contract as JSON and as YAML agree', () => {
    const doc = contractCopy();
    expect(documentsAgreeFinding('openapi/9.3/documents-agree', served('json', doc), served('yaml', doc)).verdict).toBe('pass');
  });
  test('a changed bound is reported at its pointer', () => {
    const doc = contractCopy();
    const other = contractCopy();
    other['info']['version'] = 'v2';
    const f = documentsAgreeFinding('openapi/9.3/documents-agree', served('json', doc), served('yaml', other));
    expect(f.verdict).toBe('fail');
    expect(f.actual).toBe('first difference at /info/version: JSON "v1", YAML "v2"');
  });
  test('a document that cannot be read makes the comparison inconclusive', () => {
    const unserved = readServedDocument('yaml', documentExchange('yaml', 500, ''));
    expect(documentsAgreeFinding('openapi/9.3/documents-agree', served('json', contractCopy()), unserved).verdict).toBe('inconclusive');
  });
});
