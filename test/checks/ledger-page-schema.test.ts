import { describe, expect, test } from 'vitest';
import { NEXT_CURSOR_PRESENT, PAGE_SCHEMA, pageSchemaFailures, pageSchemaFindings, RATE_LIMIT_HEADERS, ROW_SCHEMA, TIMESTAMP_UTC_Z } from '../../lib/checks/ledger-page-schema.ts';
import { errorExchange, ledgerExchange, page, readHeaders, row } from './ledger-fixtures.ts';

const POOL = { limit: 600, windowS: 60 };

function verdicts(findings: ReturnType<typeof pageSchemaFindings>): Record<string, string> {
  return Object.fromEntries(findings.map((f) => [f.requirement, f.verdict]));
}

describe('pageSchemaFindings', () => {
  test('a well-formed page passes all five requirements', () => {
    const v = verdicts(pageSchemaFindings([ledgerExchange(page([row(1), row(2, { credits: 0, metadata: { a: [1] } })], 'abc'))], POOL));
    expect(v).toEqual({ [ROW_SCHEMA]: 'pass', [TIMESTAMP_UTC_Z]: 'pass', [PAGE_SCHEMA]: 'pass', [NEXT_CURSOR_PRESENT]: 'pass', [RATE_LIMIT_HEADERS]: 'pass' });
  });

  test('extra fields on rows and page are allowed', () => {
    const body = { ...page([row(1, { workspace_id: 'w' })], null), has_more: false };
    expect(pageSchemaFailures([ledgerExchange(body)], POOL)).toEqual([]);
  });

  test.each([
    ['credits as a string', row(1, { credits: '1.5' }), ROW_SCHEMA],
    ['metadata null', row(1, { metadata: null }), ROW_SCHEMA],
    ['operation_uuid missing', (({ operation_uuid: _, ...rest }) => rest)(row(1)), ROW_SCHEMA],
    ['timestamp +00:00', row(1, { timestamp: '2025-02-20T10:00:00+00:00' }), TIMESTAMP_UTC_Z],
    ['timestamp without seconds', row(1, { timestamp: '2025-02-20T10:00Z' }), TIMESTAMP_UTC_Z],
    ['timestamp lowercase z', row(1, { timestamp: '2025-02-20T10:00:00z' }), TIMESTAMP_UTC_Z],
    ['timestamp a number', row(1, { timestamp: 1740045600 }), ROW_SCHEMA],
  ])('%s fails %s only', (_what, bad, id) => {
    const failures = pageSchemaFailures([ledgerExchange(page([row(2), bad], null))], POOL);
    expect(failures.map((f) => f.requirement)).toEqual([id]);
  });

  test('next_cursor left out or a number fails next-cursor-present', () => {
    expect(pageSchemaFailures([ledgerExchange({ operations: [] })], POOL).map((f) => f.requirement)).toEqual([NEXT_CURSOR_PRESENT]);
    expect(pageSchemaFailures([ledgerExchange({ operations: [], next_cursor: 5 })], POOL).map((f) => f.requirement)).toEqual([NEXT_CURSOR_PRESENT]);
  });

  test('operations as an object, or a body that is not JSON, fails page-schema', () => {
    expect(pageSchemaFailures([ledgerExchange({ operations: { a: row(1) }, next_cursor: null })], POOL).map((f) => f.requirement)).toEqual([PAGE_SCHEMA]);
    expect(pageSchemaFailures([ledgerExchange('<html>')], POOL).map((f) => f.requirement)).toEqual([PAGE_SCHEMA]);
  });

  test('missing rate-limit headers fail rate-limit-headers', () => {
    const headers = readHeaders();
    delete headers['x-ratelimit-remaining'];
    const failures = pageSchemaFailures([ledgerExchange(page([], null), { headers })], POOL);
    expect(failures.map((f) => f.requirement)).toEqual([RATE_LIMIT_HEADERS]);
  });

  test('the first failing page is the evidence and the count of failing pages is told', () => {
    const good = ledgerExchange(page([row(1)], 'c'));
    const bad1 = ledgerExchange(page([row(2, { credits: 'x' })], 'd'));
    const bad2 = ledgerExchange(page([row(3, { credits: 'y' })], null));
    const [f] = pageSchemaFailures([good, bad1, bad2], POOL);
    expect(f?.exchanges).toEqual([bad1]);
    expect(f?.actual).toContain('2 of 3 pages');
  });

  test('no 200 answer: inconclusive, and no failures to report', () => {
    expect(new Set(pageSchemaFindings([errorExchange(400)], POOL).map((f) => f.verdict))).toEqual(new Set(['inconclusive']));
    expect(pageSchemaFailures([errorExchange(400)], POOL)).toEqual([]);
  });
});
