import { expect, test } from 'vitest';
import { describeSecret, keyText, looksLikeToken } from '../../lib/profile/secret-text.ts';

test('tokens are told from variable names', () => {
  for (const t of ['asi_live_5ec7e75ec7e75ec7', 'ACME_LIVE_00ff', '0123456789abcdef0123']) expect(looksLikeToken(t)).toBe(true);
  for (const n of ['ASI_TOKEN', 'ASI_TOKEN_WS2', 'MY_VERY_LONG_VARIABLE_NAME_FOR_TOKENS', 'deadbeefcafe']) expect(looksLikeToken(n)).toBe(false);
});

test('a value is described by kind and length only', () => {
  expect(describeSecret('asi_live_5ec7e7')).toBe('a string of 15 characters (value not shown)');
  expect(describeSecret(['a', 'b'])).toBe('a list of 2 items');
  expect(describeSecret({ env: 'X', asi_live_5ec7e75ec7: 1 })).toBe('a mapping with keys env, (a key of 19 characters, not shown: it looks like a token)');
  expect(describeSecret(42)).toBe('a number (value not shown)');
});

test('a key is shown as written unless it looks like a token', () => {
  expect(keyText('primay')).toBe('primay');
  expect(keyText('asi_live_5ec7e75ec7')).not.toContain('5ec7');
});
