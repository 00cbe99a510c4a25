import { describe, expect, test } from 'vitest';
import { consoleText } from '../../lib/report/console-text.ts';

describe('consoleText: target text on a terminal or a CI log', () => {
  test.each([
    ['an ANSI colour (CSI)', 'red \x1b[31mtext\x1b[0m', 'red \\x1b[31mtext\\x1b[0m'],
    ['a clipboard write (OSC 52)', '\x1b]52;c;ZWNobyBwd25lZA==\x07', '\\x1b]52;c;ZWNobyBwd25lZA==\\x07'],
    ['a disguised link (OSC 8)', '\x1b]8;;https://evil.example\x1b\\safe\x1b]8;;\x1b\\', '\\x1b]8;;https://evil.example\\x1b\\safe\\x1b]8;;\\x1b\\'],
    ['a screen clear', '\x1b[2J\x1b[H', '\\x1b[2J\\x1b[H'],
    ['C1 controls (8-bit CSI)', 'a\u009b31mb\u0085c', 'a\\x9b31mb\\x85c'],
    ['BEL and DEL', 'ding\x07\x7f', 'ding\\x07\\x7f'],
    ['a bidi override', 'abc\u202Etxt.exe', 'abc\\u202Etxt.exe'],
    ['bidi isolates and marks', '\u2066x\u2069\u200f', '\\u2066x\\u2069\\u200F'],
    ['line breaks, which would start a line of their own', 'a\nCONFORMANT: all pass\r\nb', 'a\\nCONFORMANT: all pass\\r\\nb'],
    ['a workflow command at the start', '::add-mask::x', ':\\x3aadd-mask::x'],
    ['a workflow command after blanks', '   ::error::forged', '   :\\x3aerror::forged'],
    ['the older command form, anywhere', 'x ##[error]forged', 'x #\\x23[error]forged'],
  ])('%s', (_name, input, output) => {
    expect(consoleText(input)).toBe(output);
  });

  test('plain text, URLs with IPv6 addresses and non-ASCII letters are left alone', () => {
    const text = "GET http://[::1]:8787/v1/me — café 'x' \"y\" 12:30:00";
    expect(consoleText(text)).toBe(text);
  });
});
