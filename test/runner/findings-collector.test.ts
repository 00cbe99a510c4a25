import { describe, expect, test } from 'vitest';
import { findingsOf } from '../../lib/runner/findings-collector.ts';
import { pass } from '../../lib/model/finding.ts';

describe('findingsOf', () => {
  test('a declared requirement without a finding is inconclusive: a check cannot pass by saying nothing', () => {
    const f = findingsOf({ requirements: ['a/1/x', 'a/1/y'], findings: [pass('a/1/x')] }, 'passed', [], undefined);
    expect(f.map((x) => [x.requirement, x.verdict])).toEqual([
      ['a/1/x', 'pass'],
      ['a/1/y', 'inconclusive'],
    ]);
  });

  test('a test that broke leaves its requirements inconclusive with the first line of the error', () => {
    const f = findingsOf({ requirements: ['a/1/x'], findings: [], error: 'TypeError: boom\n    at x' }, 'failed', ['boom'], undefined);
    expect(f[0]).toMatchObject({ verdict: 'inconclusive', note: 'the test broke: TypeError: boom' });
  });

  test('a skipped test is not-run with its note; a timeout without meta is inconclusive', () => {
    expect(findingsOf({ requirements: ['a/1/x'], findings: [] }, 'skipped', [], 'no token')[0]).toMatchObject({ verdict: 'not-run', note: 'no token' });
    expect(findingsOf({ requirements: ['a/1/x'], findings: [] }, 'failed', ['Test timed out in 90000ms.'], undefined)[0]?.note).toContain('timed out');
  });
});
