import fc from 'fast-check';

/**
 * A change a client might make to a cursor: cut whole base64 groups from its end, extend it by
 * one, change one character that is neither first nor last, or drop its first character. Each
 * changes the decoded bytes of a base64 text, so even a server that decodes leniently sees
 * another value; changing the last character is avoided (in base64 it may only touch padding bits).
 */
export type CursorMutation =
  | { kind: 'truncate'; chars: 4 | 8 }
  | { kind: 'extend'; suffix: 'AAAA' | 'xyz0' }
  | { kind: 'replace'; at: number; shift: number }
  | { kind: 'drop-first' };

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

export function cursorMutation(): fc.Arbitrary<CursorMutation> {
  return fc.oneof(
    fc.constantFrom(4 as const, 8 as const).map((chars) => ({ kind: 'truncate' as const, chars })),
    fc.constantFrom('AAAA' as const, 'xyz0' as const).map((suffix) => ({ kind: 'extend' as const, suffix })),
    fc.record({ at: fc.double({ min: 0, max: 1, noNaN: true }), shift: fc.integer({ min: 1, max: ALPHABET.length - 1 }) }).map(({ at, shift }) => ({ kind: 'replace' as const, at, shift })),
    fc.constant({ kind: 'drop-first' as const }),
  );
}

/** The cursor changed as the mutation says; never equal to the cursor it started from. */
export function applyCursorMutation(cursor: string, m: CursorMutation): string {
  const chars = [...cursor];
  switch (m.kind) {
    case 'truncate':
      return chars.length > m.chars ? chars.slice(0, chars.length - m.chars).join('') : `${cursor}!`;
    case 'extend':
      return `${cursor}${m.suffix}`;
    case 'drop-first':
      return chars.length > 1 ? chars.slice(1).join('') : `${cursor}!`;
    case 'replace': {
      if (chars.length < 3) return `${cursor}!`;
      const i = 1 + Math.min(chars.length - 3, Math.floor(m.at * (chars.length - 2)));
      const old = chars[i]!;
      const from = ALPHABET.indexOf(old);
      chars[i] = from === -1 ? ALPHABET[m.shift % ALPHABET.length]! : ALPHABET[(from + m.shift) % ALPHABET.length]!;
      return chars.join('');
    }
  }
}
