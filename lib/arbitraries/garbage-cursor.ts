import fc from 'fast-check';

/** Characters that no base64, hex, decimal or UUID text holds. */
const FOREIGN = [' ', '!', '*', '~', '{', '}', '(', ')', '|', '^', '`', '"', "'", '<', '>', '@', ';', ','] as const;
const PLAIN = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.';

/**
 * A cursor the server cannot have returned: text holding at least one character that no common
 * cursor encoding (base64 or base64url, hex, decimal, UUID, a timestamp) produces, so that no
 * scheme mistakes it for a position.
 */
export function garbageCursor(): fc.Arbitrary<string> {
  const plain = fc.string({ unit: fc.constantFrom(...PLAIN), maxLength: 40 });
  return fc.oneof(
    fc.constantFrom('not a cursor', '!', '{}', '~~~~', 'null!', '<cursor>'),
    fc.tuple(plain, fc.constantFrom(...FOREIGN), plain).map(([a, f, b]) => `${a}${f}${b}`),
  );
}
