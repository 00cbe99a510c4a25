import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { Redactor } from '../../lib/http/redactor.ts';
import { oracleMatches } from './regex-redaction-oracle.ts';

/**
 * The redactor decodes a text once and looks for each secret in that (lib/http/decoded-view.ts).
 * Whatever it leaves, the regular expression of every form of every secret finds nothing in:
 * secrets and texts drawn from alphabets full of escape marks, ASCII and not, with secrets written
 * into the text in forms mixed character by character.
 */
const SECRET_CHARS = ['a', 'B', 'z', '0', '9', '_', '-', '/', '.', '%', '\\', '&', '#', 'u', 'x', 'é', 'Σ', 'ß', '€', '😀'];
const NOISE_CHARS = [...SECRET_CHARS, ' ', '"', '$', ';', '{', '}', 'U', '1', 'f', 'F', '\n'];

const hex = (n: number, width: number): string => n.toString(16).padStart(width, '0');

/** One character of a secret as a target may echo it. */
function charForm(c: string): fc.Arbitrary<string> {
  const point = c.codePointAt(0)!;
  const units = [...Array(c.length).keys()].map((i) => c.charCodeAt(i));
  const forms: fc.Arbitrary<string>[] = [
    fc.constantFrom(c, c.toUpperCase().length === c.length ? c.toUpperCase() : c, c.toLowerCase()),
    fc.boolean().map((upper) => [...Buffer.from(c, 'utf8')].map((b) => `%${upper ? hex(b, 2).toUpperCase() : hex(b, 2)}`).join('')),
    fc.integer({ min: 1, max: 3 }).map((n) => units.map((u) => `${'\\'.repeat(n)}u${hex(u, 4)}`).join('')),
    fc.constant(`\\U${hex(point, 8)}`),
    fc.nat({ max: 3 }).map((z) => `\\u{${'0'.repeat(z)}${point.toString(16)}}`),
    fc.nat({ max: 2 }).map((z) => `&#x${'0'.repeat(z)}${point.toString(16).toUpperCase()};`),
    fc.constant(`&#${point};`),
  ];
  if (point < 0x100) forms.push(fc.constant(`\\x${hex(point, 2)}`));
  if (c === '/') forms.push(fc.constant('\\/'));
  return fc.oneof(...forms);
}

function writtenSecret(secret: string): fc.Arbitrary<string> {
  const mixed = fc.tuple(...[...secret].map(charForm)).map((parts) => parts.join(''));
  if (secret.length < 12) return mixed;
  const encoded = fc.tuple(fc.constantFrom('', 'x', 'xy', 'Bearer '), fc.constantFrom<BufferEncoding>('base64', 'base64url', 'hex')).map(([prefix, encoding]) => Buffer.from(`${prefix}${secret}`).toString(encoding));
  return fc.oneof(mixed, encoded);
}

const secretArb = fc.oneof(
  fc.array(fc.constantFrom(...SECRET_CHARS), { minLength: 1, maxLength: 14 }).map((cs) => cs.join('')),
  fc.uint8Array({ minLength: 8, maxLength: 8 }).map((b) => `asi_live_${Buffer.from(b).toString('hex')}`),
);

const caseArb = fc.array(secretArb, { minLength: 1, maxLength: 3 }).chain((secrets) =>
  fc.record({
    secrets: fc.constant(secrets),
    text: fc
      .array(fc.oneof(fc.array(fc.constantFrom(...NOISE_CHARS), { maxLength: 6 }).map((cs) => cs.join('')), fc.constantFrom(...secrets).chain(writtenSecret)), { maxLength: 8 })
      .map((parts) => parts.join('')),
  }),
);

describe('redaction finds every form the regular expression of all forms finds', () => {
  test('nothing of any secret is left in what it writes', () => {
    fc.assert(
      fc.property(caseArb, ({ secrets, text }) => {
        const redactor = new Redactor(secrets.map((value, i) => ({ value, placeholder: `$${"Q".repeat(i + 1)}` })));
        const out = redactor.redact(text);
        expect(oracleMatches(secrets, out)).toEqual([]);
      }),
      { seed: 20261128, numRuns: 150 },
    );
  });

  test('a text that holds a secret changes; one that holds none is returned as it was', () => {
    fc.assert(
      fc.property(caseArb, ({ secrets, text }) => {
        const redactor = new Redactor(secrets.map((value, i) => ({ value, placeholder: `$${"Q".repeat(i + 1)}` })));
        expect(redactor.redact(text) !== text).toBe(oracleMatches(secrets, text).length > 0);
      }),
      { seed: 20261129, numRuns: 150 },
    );
  });
});

/** Each form the decoding reads, every character of a secret with non-ASCII and astral characters written in it. */
describe('a secret of any script written wholly in one form', () => {
  const secret = 'Zé€Σß😀/x_9';
  const units = (c: string): number[] => [...Array(c.length).keys()].map((i) => c.charCodeAt(i));
  const forms: Array<[string, (c: string) => string]> = [
    ['upper case', (c) => (c.toUpperCase().length === c.length ? c.toUpperCase() : c)],
    ['percent-encoded UTF-8', (c) => [...Buffer.from(c, 'utf8')].map((b) => `%${hex(b, 2).toUpperCase()}`).join('')],
    ['\\uXXXX, surrogate pairs as two', (c) => units(c).map((u) => `\\u${hex(u, 4)}`).join('')],
    ['\\uXXXX behind two backslashes', (c) => units(c).map((u) => `\\\\u${hex(u, 4)}`).join('')],
    ['\\UXXXXXXXX', (c) => `\\U${hex(c.codePointAt(0)!, 8)}`],
    ['\\u{X}', (c) => `\\u{${c.codePointAt(0)!.toString(16)}}`],
    ['&#xX;', (c) => `&#x${c.codePointAt(0)!.toString(16)};`],
    ['&#N;', (c) => `&#${c.codePointAt(0)!};`],
  ];
  test.each(forms)('%s', (_name, form) => {
    const redactor = new Redactor([{ value: secret, placeholder: '$QQ' }]);
    expect(redactor.redact(`<${[...secret].map(form).join('')}>`)).toBe('<$QQ>');
  });
});

test('one astral character escaped as a surrogate pair among plain ones is found', () => {
  const redactor = new Redactor([{ value: 'key😀value', placeholder: '$QQ' }]);
  expect(redactor.redact('<key\\ud83d\\ude00value> and \\u0001')).toBe('<$QQ> and \\u0001');
});
