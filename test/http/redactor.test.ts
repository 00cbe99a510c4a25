import { expect, test } from 'vitest';
import { Redactor } from '../../lib/http/redactor.ts';

test('replaces every occurrence of every token, longest first', () => {
  const r = new Redactor([
    { value: 'asi_live_abc', placeholder: '$ASI_TOKEN' },
    { value: 'asi_live_abcdef', placeholder: '$ASI_TOKEN_2' },
  ]);
  expect(r.redact('Bearer asi_live_abcdef and asi_live_abc, asi_live_abc')).toBe('Bearer $ASI_TOKEN_2 and $ASI_TOKEN, $ASI_TOKEN');
  expect(r.redactHeaders({ authorization: 'Bearer asi_live_abc' })).toEqual({ authorization: 'Bearer $ASI_TOKEN' });
});

test('an empty secret redacts nothing', () => {
  expect(new Redactor([{ value: '', placeholder: '$X' }]).redact('abc')).toBe('abc');
});
