import { describe, expect, test } from 'vitest';
import { escapeHtml, escapeXmlAttribute, escapeXmlText, excerpt, shorten, visibleControls } from '../../../lib/report/writers/text.ts';

describe('visibleControls', () => {
  test.each([
    ['NUL', 'a\u0000b', 'a\\x00b'],
    ['escape', '\u001b[31m', '\\x1b[31m'],
    ['form feed', '\f', '\\x0c'],
    ['U+FFFE', '\ufffe', '\\uFFFE'],
    ['lone high surrogate', 'x\ud800y', 'x\\uD800y'],
    ['lone low surrogate', '\udc00', '\\uDC00'],
  ])('%s becomes visible', (_name, input, output) => {
    expect(visibleControls(input)).toBe(output);
  });

  test.each([
    ['tab, LF, CR', '\t\n\r'],
    ['a surrogate pair', '😀'],
    ['DEL and C1 controls (allowed in XML 1.0)', '\u007f\u0085'],
    ['text', 'plain <text> & "quotes"'],
  ])('%s stay as they are', (_name, input) => {
    expect(visibleControls(input)).toBe(input);
  });
});

describe('escaping', () => {
  test('HTML escapes the five markup characters', () => {
    expect(escapeHtml(`<a href="x" title='y'>&</a>`)).toBe('&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;');
  });

  test('XML text keeps line ends, escapes markup', () => {
    expect(escapeXmlText('a < b\n&c > d')).toBe('a &lt; b\n&amp;c &gt; d');
  });

  test('an XML attribute keeps line ends and tabs as references', () => {
    expect(escapeXmlAttribute('"a"\n\'b\'\t\r')).toBe('&quot;a&quot;&#10;&#39;b&#39;&#9;&#13;');
  });
});

describe('excerpt and shorten', () => {
  test('an excerpt never splits a surrogate pair', () => {
    expect(excerpt('ab😀cd', 3)).toEqual({ text: 'ab', omitted: 4 });
    expect(excerpt('abc', 3)).toEqual({ text: 'abc', omitted: 0 });
  });

  test('shorten folds white space and marks the cut', () => {
    expect(shorten('one\n  two   three', 100)).toBe('one two three');
    expect(shorten('abcdefghij', 5)).toBe('abcd…');
  });
});

test('bidirectional controls become visible, as on the console', () => {
  expect(visibleControls('abc\u202Etxt.exe \u2066x\u2069\u200f\u061c')).toBe('abc\\u202Etxt.exe \\u2066x\\u2069\\u200F\\u061C');
});
