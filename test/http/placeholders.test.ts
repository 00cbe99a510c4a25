import { describe, expect, test } from 'vitest';
import { placeholderName, placeholdersIn, withSecrets } from '../../lib/http/placeholders.ts';

const primary = { value: 'asi_live_0a1b', placeholder: '$ASI_TOKEN' };
const secondary = { value: 'asi_live_9f8e', placeholder: '$ASI_TOKEN_2' };

describe('placeholders of a recorded request', () => {
  test.each([
    ['a header', 'Token $ASI_TOKEN', ['$ASI_TOKEN']],
    ['the query string', 'from=2026&access_token=$ASI_TOKEN', ['$ASI_TOKEN']],
    ['the query string, percent-encoded', 'access_token=%24ASI_TOKEN_2&x=1', ['$ASI_TOKEN_2']],
    ['a cookie', 'cookie: access_token=$ASI_TOKEN_2', ['$ASI_TOKEN_2']],
    ['a JSON body', '{"input":"hi","access_token":"$ASI_TOKEN"}', ['$ASI_TOKEN']],
    ['a header of the run', 'x-gateway-key: $GATEWAY_KEY', ['$GATEWAY_KEY']],
    ['nothing', 'a $ sign and ASI_TOKEN without one', []],
  ])('in %s', (_where, text, found) => {
    expect(placeholdersIn(text, ['$ASI_TOKEN', '$GATEWAY_KEY'])).toEqual(found);
  });

  test('$ASI_TOKEN_2 is not $ASI_TOKEN followed by _2, whichever secrets are known', () => {
    expect(placeholdersIn('a=$ASI_TOKEN_2', ['$ASI_TOKEN'])).toEqual(['$ASI_TOKEN_2']);
    expect(withSecrets('a=$ASI_TOKEN_2&b=$ASI_TOKEN', [primary])).toBe('a=$ASI_TOKEN_2&b=asi_live_0a1b');
    expect(withSecrets('a=$ASI_TOKEN_2&b=$ASI_TOKEN', [primary, secondary])).toBe('a=asi_live_9f8e&b=asi_live_0a1b');
  });

  test('a percent-encoded placeholder is filled percent-encoded', () => {
    expect(withSecrets('t=%24ASI_TOKEN', [{ value: 'a b/c', placeholder: '$ASI_TOKEN' }])).toBe('t=a%20b%2Fc');
  });

  test('only `$NAME` is a placeholder', () => {
    expect(placeholderName('$ASI_TOKEN')).toBe('ASI_TOKEN');
    expect(placeholderName('ASI_TOKEN')).toBeUndefined();
    expect(placeholderName('$ASI TOKEN')).toBeUndefined();
  });
});
