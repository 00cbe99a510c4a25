import { describe, expect, test } from 'vitest';
import { validateComponent, validateEventData } from '../../lib/contract/validate.ts';

const row = {
  operation_uuid: 'op_1',
  operation_type: 'agent_message',
  feature: 'deal_agent',
  credits: 1.5,
  metadata: { agent_id: 'da_1' },
  timestamp: '2024-05-01T10:00:00.123Z',
};

describe('validateComponent CreditOperation', () => {
  test('a complete row conforms', () => {
    expect(validateComponent('CreditOperation', row)).toEqual([]);
  });
  test('extra fields are allowed', () => {
    expect(validateComponent('CreditOperation', { ...row, workspace_id: 'ws_1' })).toEqual([]);
  });
  test.each(['operation_uuid', 'operation_type', 'feature', 'credits', 'metadata', 'timestamp'])('missing %s is reported', (field) => {
    const value: Record<string, unknown> = { ...row };
    delete value[field];
    expect(validateComponent('CreditOperation', value)).toEqual([
      { instancePath: '', keyword: 'required', message: `must have required property '${field}'` },
    ]);
  });
  test('all problems are listed at once', () => {
    const problems = validateComponent('CreditOperation', { ...row, credits: '1', metadata: [], feature: 3 });
    expect(problems.map((p) => `${p.instancePath} ${p.keyword}`).sort()).toEqual(['/credits type', '/feature type', '/metadata type']);
  });
  test.each(['2024-05-01T10:00:00+00:00', '2024-05-01T10:00:00', '2024-05-01 10:00:00Z', '2024-05-01t10:00:00z', '2024-02-30T00:00:00Z', '1714557600'])(
    'timestamp %s is rejected',
    (timestamp) => {
      expect(validateComponent('CreditOperation', { ...row, timestamp })).toEqual([
        { instancePath: '/timestamp', keyword: 'format', message: 'must match format "date-time"' },
      ]);
    },
  );
  test('integer credits are a number', () => {
    expect(validateComponent('CreditOperation', { ...row, credits: 0 })).toEqual([]);
  });
});

describe('validateComponent CreditsOperations', () => {
  test('a page with a cursor conforms', () => {
    expect(validateComponent('CreditsOperations', { operations: [row, row], next_cursor: 'abc' })).toEqual([]);
  });
  test('the last page with null conforms', () => {
    expect(validateComponent('CreditsOperations', { operations: [], next_cursor: null })).toEqual([]);
  });
  test('a missing next_cursor is reported (null is required, not absence)', () => {
    expect(validateComponent('CreditsOperations', { operations: [] })).toEqual([
      { instancePath: '', keyword: 'required', message: "must have required property 'next_cursor'" },
    ]);
  });
  test('a bad row is reported with its path', () => {
    const problems = validateComponent('CreditsOperations', { operations: [row, { ...row, timestamp: '2024-05-01T10:00:00+02:00' }], next_cursor: 7 });
    expect(problems.map((p) => `${p.instancePath} ${p.keyword}`)).toEqual(['/operations/1/timestamp format', '/next_cursor type']);
  });
  test('a non-object is reported', () => {
    expect(validateComponent('CreditsOperations', [row])).toEqual([{ instancePath: '', keyword: 'type', message: 'must be object' }]);
  });
});

describe('validateComponent Error', () => {
  const error = { code: 'auth.token_missing', category: 'permanent', message: 'No token.', request_id: 'req_1' };
  test('the envelope conforms, with and without details', () => {
    expect(validateComponent('Error', { error })).toEqual([]);
    expect(validateComponent('Error', { error: { ...error, details: { field: 'to' } } })).toEqual([]);
  });
  test('an unknown category is reported', () => {
    expect(validateComponent('Error', { error: { ...error, category: 'fatal' } }).map((p) => `${p.instancePath} ${p.keyword}`)).toEqual(['/error/category enum']);
  });
  test('a missing request_id is reported', () => {
    const { request_id: _omitted, ...rest } = error;
    expect(validateComponent('Error', { error: rest }).map((p) => `${p.instancePath} ${p.keyword}`)).toEqual(['/error required']);
  });
  test('details that are not an object are reported', () => {
    expect(validateComponent('Error', { error: { ...error, details: 'x' } }).map((p) => `${p.instancePath} ${p.keyword}`)).toEqual(['/error/details type']);
  });
  test('a second top-level key is reported: "a JSON object with one key `error`"', () => {
    expect(validateComponent('Error', { error, trace: 'x' }).map((p) => p.keyword)).toEqual(['additionalProperties']);
  });
  test('a bare error object is reported', () => {
    expect(validateComponent('Error', error).map((p) => p.keyword)).toContain('required');
  });
});

describe('validateEventData', () => {
  test.each([
    ['text_delta', { content: 'Hel' }],
    ['tool_use', { id: 't1', tool_name: 'crm_lookup' }],
    ['tool_result', { id: 't1' }],
    ['done', { conversation_id: 'c1', messages: [] }],
    ['error', { code: 'upstream.unavailable', category: 'transient', message: 'Try later.' }],
  ] as const)('%s with its fields conforms', (event, data) => {
    expect(validateEventData(event, data)).toEqual([]);
  });
  test('extra fields are allowed', () => {
    expect(validateEventData('text_delta', { content: 'x', index: 3 })).toEqual([]);
  });
  test.each([
    ['text_delta', { content: 1 }],
    ['tool_use', { id: 7, tool_name: 'crm_lookup' }],
    ['tool_result', { id: 7 }],
  ] as const)('%s with %j conforms: §6 gives these fields no type', (event, data) => {
    expect(validateEventData(event, data)).toEqual([]);
  });
  test.each([
    ['text_delta', {}, ['required']],
    ['tool_use', { id: 't1' }, ['required']],
    ['tool_result', { tool_name: 'x' }, ['required']],
    ['done', { conversation_id: 'c1', messages: {} }, ['type']],
    ['error', { code: 'x', category: 'fatal', message: 'm' }, ['enum']],
    ['error', 'boom', ['type']],
  ] as const)('%s with %j is reported', (event, data, keywords) => {
    expect(validateEventData(event, data).map((p) => p.keyword)).toEqual(keywords);
  });
});
