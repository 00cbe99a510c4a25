import { describe, expect, test } from 'vitest';
import { readServedDocument, yamlNestingBound } from '../../lib/checks/openapi-documents.ts';
import type { Exchange } from '../../lib/model/exchange.ts';
import { MAX_NESTING, nestingDepth, parseTargetJson } from '../../lib/model/json-nesting.ts';

const DEEP = 100_000;

function served(path: string, body: string): Exchange {
  return {
    seq: 1,
    startedAt: '2026-01-01T00:00:00.000Z',
    request: { method: 'GET', url: `http://127.0.0.1/v1${path}`, headers: {} },
    response: { status: 200, headers: {}, body, bodyBytes: body.length, truncated: false },
    timings: { totalMs: 1 },
  };
}

describe('nesting depth, measured without recursion', () => {
  test('counts levels of objects and arrays, scalars none', () => {
    expect(nestingDepth(1)).toBe(0);
    expect(nestingDepth([])).toBe(1);
    expect(nestingDepth({ a: [{ b: 1 }] })).toBe(3);
  });

  test('measures a 100,000-deep value without overflowing, stopping past the cap', () => {
    const value: unknown = JSON.parse(`${'['.repeat(DEEP)}${']'.repeat(DEEP)}`);
    expect(nestingDepth(value)).toBe(MAX_NESTING + 1);
  });

  test('a body nested past the cap is not kept, and says why', () => {
    const parsed = parseTargetJson(`${'{"a":'.repeat(DEEP)}1${'}'.repeat(DEEP)}`);
    expect(parsed).toEqual({ ok: false, why: `body nests deeper than ${MAX_NESTING} levels: the harness does not walk it`, tooDeep: true });
    expect(parseTargetJson(`${'['.repeat(MAX_NESTING)}${']'.repeat(MAX_NESTING)}`).ok).toBe(true);
  });
});

describe('a served description too deep to walk', () => {
  test.each([
    ['a JSON object', '/openapi.json', 'json', `${'{"a":'.repeat(DEEP)}1${'}'.repeat(DEEP)}`],
    ['a YAML flow sequence', '/openapi.yaml', 'yaml', `openapi: 3.1.0\ninfo: ${'['.repeat(DEEP)}${']'.repeat(DEEP)}\n`],
    ['a YAML flow mapping', '/openapi.yaml', 'yaml', `${'{a: '.repeat(DEEP)}1${'}'.repeat(DEEP)}`],
    ['YAML compact sequences', '/openapi.yaml', 'yaml', `x:\n  ${'- '.repeat(DEEP)}1\n`],
  ] as const)('%s is unread, marked too deep, never parsed into a value', (_name, path, format, body) => {
    const document = readServedDocument(format, served(path, body));
    expect(document.parsed).toMatchObject({ ok: false, tooDeep: true });
  });

  test('YAML just past the cap, under the text bound, is caught after parsing', () => {
    const levels = MAX_NESTING + 1;
    const document = readServedDocument('yaml', served('/openapi.yaml', `a: ${'['.repeat(levels)}${']'.repeat(levels)}\n`));
    expect(document.parsed).toMatchObject({ ok: false, tooDeep: true });
  });

  test('the text bound counts flow brackets, not those in quotes or comments', () => {
    expect(yamlNestingBound('a: "[[[["\nb: \'{{{\' # [[[[\nc: [1, [2]]\n')).toBe(2);
    expect(yamlNestingBound(`${'['.repeat(DEEP)}`)).toBe(DEEP);
  });
});
