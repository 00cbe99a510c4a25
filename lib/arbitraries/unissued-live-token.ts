import fc from 'fast-check';

export interface UnissuedLiveTokenConstraints {
  /** The server's live prefix (§5.2); default `asi`. */
  prefix?: string;
  /** Length of the hex part; default 32. */
  hexLength?: number;
}

const HEX = '0123456789abcdef'.split('');

/**
 * Well-formed `<prefix>_live_<hex>` tokens (§5.2) of the same shape as a real one. The chance of
 * hitting an issued token is 16^-hexLength: for any real hex length, never.
 */
export function unissuedLiveToken(constraints: UnissuedLiveTokenConstraints = {}): fc.Arbitrary<string> {
  const prefix = constraints.prefix ?? 'asi';
  const hexLength = constraints.hexLength ?? 32;
  return fc
    .array(fc.constantFrom(...HEX), { minLength: hexLength, maxLength: hexLength })
    .map((digits) => `${prefix}_live_${digits.join('')}`);
}
