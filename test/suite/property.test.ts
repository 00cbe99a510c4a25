import { expect, test } from 'vitest';
import { replayOptions } from '../../lib/suite/property.ts';

const FROM = 'ledger/4.1/from-inclusive';
const TO = 'ledger/4.1/to-exclusive';
const SCHEMA = 'ledger/2.2/page-schema';

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
