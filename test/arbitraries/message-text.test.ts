import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { messageBodyWith, messageText } from '../../lib/arbitraries/message-text.ts';

describe('messageText', () => {
  test('never generates an empty suffix and stays within its bound', () => {
    fc.assert(
      fc.property(messageText({ maxSuffixLength: 50 }), (s) => {
        expect(s.length).toBeGreaterThan(0);
        expect([...new Intl.Segmenter().segment(s)].length).toBeLessThanOrEqual(60);
      }),
      { numRuns: 200, seed: 7 },
    );
  });
});

describe('messageBodyWith', () => {
  test('appends the suffix to `message` and sets the stream flag', () => {
    expect(messageBodyWith({ message: 'Hi', agent: 'x' }, 'there', true)).toEqual({ message: 'Hi there', agent: 'x', stream: true });
    expect(messageBodyWith({ message: 'Hi', stream: true }, 'there', false)).toEqual({ message: 'Hi there', stream: false });
  });

  test('absent removes a stream flag the profile body carried; an empty suffix keeps the text', () => {
    expect(messageBodyWith({ message: 'Hi', stream: true }, '', 'absent')).toEqual({ message: 'Hi' });
  });

  test('without `message`, the first string field takes the suffix', () => {
    expect(messageBodyWith({ n: 1, content: 'Hi' }, 'you', 'absent')).toEqual({ n: 1, content: 'Hi you' });
    expect(messageBodyWith({ n: 1 }, 'you', true)).toEqual({ n: 1, stream: true });
  });
});
