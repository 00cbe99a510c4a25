import { describe, expect, test } from 'vitest';
import type { TracedRequest } from '../../lib/checks/client-trace.ts';
import { timelineSvg } from '../../lib/client-grading/timeline-svg.ts';
import { parseXml } from '../report/xml-tree.ts';

function request(method: string, target: string, atMs: number, status: number, retryAfter?: string): TracedRequest {
  const headers: Record<string, string> = retryAfter === undefined ? {} : { 'retry-after': retryAfter };
  return { method, target, headers: {}, body: '', receivedAtMs: atMs, answer: { status, headers, body: '' } };
}

describe('timelineSvg', () => {
  const trace = [
    request('GET', '/v1/credits/operations', 10_000, 429, '2'),
    request('GET', '/v1/credits/operations?<script>', 10_500, 429, '2'),
    request('GET', '/v1/credits/operations', 13_000, 200),
    request('POST', '/v1/agents', 13_100, 400),
  ];
  const svg = timelineSvg('rate-limited', trace, [{ at: 1, requirement: 'client/8.1/retry-after-honoured', verdict: 'fail' }]);

  test('is well-formed, titled and described for assistive technology', () => {
    const root = parseXml(svg);
    expect(root.name).toBe('svg');
    expect(root.attributes['role']).toBe('img');
    const [title, desc] = root.children;
    expect(title?.text).toBe('Scenario rate-limited: requests over time by rate pool');
    expect(desc?.text).toContain('4 request(s)');
    expect(root.attributes['aria-labelledby']).toBe(`${title?.attributes['id']} ${desc?.attributes['id']}`);
  });

  test('overlapping refusals of a pool are one shaded span to the end of the last Retry-After', () => {
    const spans = parseXml(svg).children.filter((c) => c.attributes['class'] === 'refused');
    expect(spans).toHaveLength(1);
    expect(spans[0]!.children[0]!.text).toBe('read pool refused at +0.00 s (2 429s, the last with Retry-After 2 s): nothing to this pool before +2.50 s');
  });

  test('marks each answer by shape, rings the judged request, and escapes what the client sent', () => {
    expect(svg.match(/class="m-429"/g)).toHaveLength(2);
    expect(svg.match(/class="m-ok"/g)).toHaveLength(1);
    expect(svg.match(/class="m-4xx"/g)).toHaveLength(1);
    expect(svg.match(/class="judged"/g)).toHaveLength(1);
    expect(svg).not.toContain('<script>');
    expect(svg).toContain('judged by client/8.1/retry-after-honoured: fail');
  });
});
