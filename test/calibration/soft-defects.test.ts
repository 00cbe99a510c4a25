import { describe, expect, test } from 'vitest';
import { mustFailuresBesideSoftBreaks } from '../../lib/calibration/calibrate.ts';
import { requireRequirement } from '../../lib/catalogue/index.ts';
import { fail, pass } from '../../lib/model/finding.ts';
import type { RequirementResult } from '../../lib/report/report-model.ts';
import { DEFECTS } from '../../lib/reference/defects/index.ts';

function failed(id: string, actual: string): RequirementResult {
  return { requirement: requireRequirement(id), verdict: 'fail', findings: [fail(id, 'what the spec fixes', actual, [])], tests: [] };
}

function passed(id: string): RequirementResult {
  return { requirement: requireRequirement(id), verdict: 'pass', findings: [pass(id)], tests: [] };
}

const SHOULD = 'conversation/6/event-names';
const MUST = 'conversation/6/single-terminal-event';

/** The calibration's own check (lib/calibration/calibrate.ts): the full calibration runs it on every defect. */
describe('a defect that breaks only SHOULD or INFO requirements', () => {
  test('fails no MUST beside them: one that fails is named with what it saw', () => {
    const problems = mustFailuresBesideSoftBreaks([failed(SHOULD, 'an event named thinking'), failed(MUST, 'the last event is thinking')], [SHOULD]);
    expect(problems).toEqual([`${MUST} (MUST) is fail beside the SHOULD or INFO this defect breaks: the last event is thinking`]);
  });

  test('a SHOULD or INFO failing beside them, or a MUST that passes, is no problem', () => {
    expect(mustFailuresBesideSoftBreaks([failed(SHOULD, 'x'), failed('conversation/6/incremental-delivery', 'y'), passed(MUST)], [SHOULD])).toEqual([]);
  });

  test('a defect that breaks a MUST may fail other MUSTs with it (what follows from a broken MUST is not judged here)', () => {
    expect(mustFailuresBesideSoftBreaks([failed(MUST, 'x'), failed('errors/7/envelope', 'y')], [MUST])).toEqual([]);
  });

  test('the reference has such defects, so the full calibration exercises the check', () => {
    const soft = DEFECTS.filter((d) => d.breaks.every((id) => requireRequirement(id).level !== 'MUST')).map((d) => d.name);
    expect(soft).toContain('conversation-stream-unknown-event');
    expect(soft.length).toBeGreaterThan(10);
  });
});
