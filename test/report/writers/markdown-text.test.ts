import { describe, expect, test } from 'vitest';
import { codeCell, codeSpan, fencedBlock } from '../../../lib/report/writers/markdown-text.ts';

/** The backtick fence a code span opens with, and the longest backtick run inside it. */
function spanParts(span: string): { fence: number; inner: string } {
  const fence = /^`+/.exec(span)![0].length;
  expect(span.endsWith('`'.repeat(fence))).toBe(true);
  return { fence, inner: span.slice(fence, span.length - fence) };
}

function longestRun(text: string): number {
  return Math.max(0, ...(text.match(/`+/g) ?? []).map((m) => m.length));
}

describe('target text in Markdown (summary.md)', () => {
  const hostile = [
    'unbalanced `<img src=https://evil.example/pixel.gif>``',
    '``<img src=x onerror=alert(1)>`',
    '![pixel](https://evil.example/t.gif) [click](https://evil.example) @octocat <b>bold</b> https://evil.example',
    '`',
    '``` fence inside ```',
    'a | b | c',
    'line one\nline two\r\n| forged | row |',
  ];

  test.each(hostile)('a code span holds %j whole, on one line', (text) => {
    const span = codeSpan(text);
    const { fence, inner } = spanParts(span);
    expect(longestRun(inner)).toBeLessThan(fence);
    expect(span).not.toMatch(/[\r\n]/);
  });

  test('a code span keeps the text as written, controls escaped', () => {
    expect(codeSpan('<img src=x> @octocat')).toBe('`<img src=x> @octocat`');
    expect(codeSpan('a ``b`` c')).toBe('```a ``b`` c```');
    expect(codeSpan('`x`')).toBe('`` `x` ``');
    expect(codeSpan('bell\x07 \u202Eevil')).toBe('`bell\\x07 \\u202Eevil`');
    expect(codeSpan('')).toBe('');
  });

  test('a long text is cut to the cell size', () => {
    expect(codeSpan('x'.repeat(500), 20)).toBe(`\`${'x'.repeat(19)}…\``);
  });

  test('a table cell escapes every pipe and never breaks the row', () => {
    const cell = codeCell('a | b\n| c |');
    expect(cell).toBe('`a \\| b\\n\\| c \\|`');
    expect(cell.replace(/\\\|/g, '')).not.toContain('|');
  });

  test('a fenced block is longer than any backtick run inside, controls escaped, lines kept', () => {
    const block = fencedBlock('sh', "curl 'http://t/````' \x1b[2J\nsecond");
    expect(block).toEqual(['`````sh', "curl 'http://t/````' \\x1b[2J", 'second', '`````']);
    expect(fencedBlock('', 'plain')).toEqual(['```', 'plain', '```']);
  });
});
