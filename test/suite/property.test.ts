import { expect, test } from 'vitest';
import { inconclusive, notRun, pass, type Finding } from '../../lib/model/finding.ts';
import { passSample, replayOptions } from '../../lib/suite/property.ts';

const FROM = 'ledger/4.1/from-inclusive';
const TO = 'ledger/4.1/to-exclusive';
const SCHEMA = 'ledger/2.2/page-schema';
const NULL_CURSOR = 'ledger/2.2/null-cursor-on-last-page';

test('the replay of a failure chooses the requirement that failed, with the path under the property it came from', () => {
  const replay = replayOptions(FROM, -7, '3:1:0', [FROM, TO]);
  expect(replay(TO)).toBe(`--seed -7 --only ${TO} --replay ${FROM}=3:1:0`);
  expect(replay(FROM)).toBe(`--seed -7 --only ${FROM} --replay ${FROM}=3:1:0`);
});

test('a requirement the test does not declare is chosen beside one it does, so that --only selects the test', () => {
  expect(replayOptions(FROM, 5, '2', [FROM, TO])(SCHEMA)).toBe(`--seed 5 --only ${SCHEMA} --only ${FROM} --replay ${FROM}=2`);
});

test('without a shrink path, the seed alone replays it', () => {
  expect(replayOptions(TO, 5, undefined, [TO])(TO)).toBe(`--seed 5 --only ${TO}`);
});

test("a pass shows the first input's findings, and the passes of requirements only later inputs reached", () => {
  const first = [pass(FROM, [], 'first')];
  const second = [pass(FROM, [], 'second'), pass(TO, [], 'second')];
  const third = [pass(TO, [], 'third'), pass(SCHEMA, [], 'third'), inconclusive(NULL_CURSOR, 'a walk stopped at its budget')];
  const kept: string[] = [];
  const keep = (f: Finding): Finding => (kept.push(`${f.requirement} ${f.note ?? ''}`), f);
  const shown = [first, second, third].reduce<Finding[]>((sample, findings) => passSample(sample, findings, keep), []);
  expect(shown.map((f) => [f.requirement, f.note])).toEqual([
    [FROM, 'first'],
    [TO, 'second'],
    [SCHEMA, 'third'],
  ]);
  // The evidence trim runs only on what is kept.
  expect(kept).toEqual([`${FROM} first`, `${TO} second`, `${SCHEMA} third`]);
});

test('an input judged whole replaces one that left a requirement not run, and keeps what only that one reached', () => {
  const partial = [notRun(FROM, 'the target refused the text'), pass(SCHEMA, [], 'first')];
  const whole = [pass(FROM, [], 'second')];
  expect(passSample(passSample([], partial), whole).map((f) => [f.requirement, f.verdict])).toEqual([
    [FROM, 'pass'],
    [SCHEMA, 'pass'],
  ]);
});
