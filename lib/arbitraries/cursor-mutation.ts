import fc from 'fast-check';
import { parseTargetJson } from '../model/json-nesting.ts';

/**
 * A change a client might make to a cursor: cut whole base64 groups from its end, extend it by
 * one, change one character that is neither first nor last, or drop its first character. Whether
 * the change alters what the cursor says is decided apart (`altersEveryReading`): in base64 a
 * character before `=` may only touch padding bits, and hex ignores case.
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

/** A JSON value written with sorted keys, so that two texts of the same data compare equal. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const o = value as Record<string, unknown>;
    return `{${Object.keys(o)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson(o[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}

/**
 * What a cursor text may stand for under the encodings cursors are commonly made of: the text
 * itself; its bytes read as base64 or base64url, whole or piece by piece between separators,
 * leniently (padding bits and stray characters ignored, as Node's decoder does); hex, in any case;
 * JSON, as data.
 */
function readings(text: string): string[] {
  const out = [`text:${text}`, `base64:${Buffer.from(text, 'base64').toString('hex')}`];
  out.push(`base64-pieces:${text.split(/[^A-Za-z0-9+/\-_=]+/).map((piece) => Buffer.from(piece, 'base64').toString('hex')).join('.')}`);
  if (/^[0-9a-fA-F]+$/.test(text)) out.push(`hex:${text.toLowerCase()}`);
  // Not JSON, or too deep for canonicalJson's walk: no such reading.
  const parsed = parseTargetJson(text);
  if (parsed.ok) out.push(`json:${canonicalJson(parsed.value)}`);
  return out;
}

/**
 * Whether an altered cursor says something else than the original under every common reading.
 * Only then does a server that answers it as a position, or with the same page, fail to notice
 * tampering: `In0=` and `In3=` are the same bytes, and a server serving the same page is right.
 */
export function altersEveryReading(original: string, altered: string): boolean {
  const before = new Set(readings(original));
  return readings(altered).every((r) => !before.has(r));
}
