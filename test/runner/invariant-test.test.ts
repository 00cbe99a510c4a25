import { describe, expect, test } from 'vitest';
import { RecordJudge } from '../../lib/invariants/judge-record.ts';
import { invariantTest } from '../../lib/runner/invariant-test.ts';

const CONTEXT = { baseUrl: 'http://t.invalid/v1', messages: { routes: [] }, limits: { read: 600, write: 60, windowS: 60 } };

describe('the run-wide rules as a test of the run', () => {
  test('a full run that reached nothing a rule binds says so: not run, with what it binds', () => {
    const lines: string[] = [];
    const t = invariantTest(new RecordJudge(CONTEXT).findings(), 0, 'must', false, (l) => lines.push(l));
    expect(t?.findings.find((f) => f.requirement === 'errors/7/envelope')).toMatchObject({ verdict: 'not-run' });
    expect(lines.join('\n')).toContain('- errors/7/envelope no exchange of this run was one of the error responses this rule binds');
  });

  test('a partial run keeps only what its exchanges gave the rules to judge', () => {
    expect(invariantTest(new RecordJudge(CONTEXT).findings(), 0, 'must', true, () => {})).toBeUndefined();
  });
});
