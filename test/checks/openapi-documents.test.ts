import { describe, expect, test } from 'vitest';
import { readServedDocument, servedFinding } from '../../lib/checks/openapi-documents.ts';
import { versionFinding } from '../../lib/checks/openapi-version.ts';
import { documentExchange } from './openapi-fixtures.ts';

describe('readServedDocument and servedFinding', () => {
  test('a JSON object with 200 is served', () => {
    const doc = readServedDocument('json', documentExchange('json', 200, '{"openapi":"3.1.0"}'));
    expect(doc.parsed).toEqual({ ok: true, value: { openapi: '3.1.0' } });
    expect(servedFinding('openapi/9.3/json-served', doc).verdict).toBe('pass');
  });
  test('a YAML mapping with 200 is served', () => {
    const doc = readServedDocument('yaml', documentExchange('yaml', 200, 'openapi: 3.1.0\ninfo:\n  title: t\n'));
    expect(doc.parsed).toEqual({ ok: true, value: { openapi: '3.1.0', info: { title: 't' } } });
  });
  test('a YAML document that is JSON text is YAML too', () => {
    const doc = readServedDocument('yaml', documentExchange('yaml', 200, '{"openapi": "3.1.0"}'));
    expect(doc.parsed.ok).toBe(true);
  });
  test('401 is not served', () => {
    const body = JSON.stringify({ error: { code: 'auth.token_missing', category: 'permanent', message: 'm', request_id: 'r' } });
    const finding = servedFinding('openapi/9.3/json-served', readServedDocument('json', documentExchange('json', 401, body)));
    expect(finding.verdict).toBe('fail');
    expect(finding.actual).toMatch(/^answered 401/);
  });
  test.each([
    ['json', '{"openapi": "3.1.0",}', /not JSON/],
    ['json', '["openapi"]', /not an object/],
    ['yaml', 'openapi: 3.1.0\nopenapi: 3.0.3\n', /not YAML/],
    ['yaml', 'openapi: 3.1.0\n---\nopenapi: 3.1.0\n', /not YAML/],
    ['yaml', 'just a string', /not an object/],
    ['yaml', 'a: [1, 2\n', /not YAML/],
  ] as const)('%s body %j is not served', (format, body, why) => {
    const doc = readServedDocument(format, documentExchange(format, 200, body));
    expect(doc.parsed.ok).toBe(false);
    expect(doc.parsed.ok ? '' : doc.parsed.why).toMatch(why);
  });
  test('a cut body is not served', () => {
    const ex = documentExchange('json', 200, '{"openapi"');
    ex.response!.truncated = true;
    ex.response!.bodyBytes = 10_000_000;
    expect(readServedDocument('json', ex).parsed).toEqual({ ok: false, why: 'body cut at 10 characters of 10000000 bytes' });
  });
  test('a transport error is not served', () => {
    const ex = documentExchange('json', 200, '');
    delete ex.response;
    ex.error = { code: 'ECONNREFUSED', message: 'connect refused' };
    const finding = servedFinding('openapi/9.3/json-served', readServedDocument('json', ex));
    expect(finding.actual).toContain('ECONNREFUSED');
  });
});

describe('versionFinding', () => {
  const json = (body: string) => readServedDocument('json', documentExchange('json', 200, body));
  const yaml = (body: string) => readServedDocument('yaml', documentExchange('yaml', 200, body));
  test('3.1.0 in both passes', () => {
    expect(versionFinding('openapi/9.3/version-3.1.0', [json('{"openapi":"3.1.0"}'), yaml('openapi: 3.1.0\n')]).verdict).toBe('pass');
  });
  test('3.0.3 fails, naming the document', () => {
    const f = versionFinding('openapi/9.3/version-3.1.0', [json('{"openapi":"3.1.0"}'), yaml('openapi: 3.0.3\n')]);
    expect(f.verdict).toBe('fail');
    expect(f.actual).toBe('/openapi.yaml declares openapi "3.0.3"');
  });
  test('a number is not the string 3.1.0', () => {
    const f = versionFinding('openapi/9.3/version-3.1.0', [yaml('openapi: 3.1\n')]);
    expect(f.actual).toBe('/openapi.yaml declares openapi 3.1');
  });
  test('3.1.1 is not 3.1.0', () => {
    expect(versionFinding('openapi/9.3/version-3.1.0', [json('{"openapi":"3.1.1"}')]).verdict).toBe('fail');
  });
  test('a missing field fails', () => {
    expect(versionFinding('openapi/9.3/version-3.1.0', [json('{}')]).actual).toBe('/openapi.json declares openapi undefined');
  });
  test('a document that was not served is left out; none at all is inconclusive', () => {
    const unserved = readServedDocument('json', documentExchange('json', 401, '{}'));
    expect(versionFinding('openapi/9.3/version-3.1.0', [unserved, yaml('openapi: 3.1.0\n')]).verdict).toBe('pass');
    expect(versionFinding('openapi/9.3/version-3.1.0', [unserved]).verdict).toBe('inconclusive');
  });
});
