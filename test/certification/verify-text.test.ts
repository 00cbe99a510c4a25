import { describe, expect, test } from 'vitest';
import { verificationText } from '../../lib/certification/verify-text.ts';
import type { Verification } from '../../lib/certification/verify-bundle.ts';
import { verification } from './verification-fixture.ts';

const DEMO = 'a demo of the embedded reference implementation, not of an implementation under test';

/** The verdict line: the last line verify prints. */
function verdict(v: Verification): string {
  return verificationText(v).split('\n').at(-1)!;
}

describe("verify's verdict line says what the run tested first", () => {
  test('a certification of a target', () => {
    expect(verdict(verification())).toBe("CERTIFICATION: a full run at the spec's limits, every requirement selected and judged, no waiver, by an unmodified asi-conformance 0.2.0.");
  });

  test('the embedded reference: a demo that certifies no implementation, never a bare CERTIFICATION', () => {
    const run = { id: 'run-1', baseUrl: 'http://127.0.0.1:4010/v1', embedded: true, startedAt: '2026-11-25T10:00:00.000Z' };
    expect(verdict(verification({ run, scope: [DEMO] }))).toBe(
      "REFERENCE DEMO, NO IMPLEMENTATION CERTIFIED: the embedded reference implementation passed a full run at the spec's limits, every requirement selected and judged, no waiver, by an unmodified asi-conformance 0.2.0.",
    );
    expect(verdict(verification({ run, scope: [DEMO, 'a subset of suites'], certification: { certifying: false, because: ['only chosen suites ran'] } }))).toBe(
      `REFERENCE DEMO, NOT A CERTIFICATION: ${DEMO}; a subset of suites; only chosen suites ran`,
    );
  });

  test.each([
    [['a subset of suites'], 'NOT A CERTIFICATION: a subset of suites; r'],
    [['with 2 waivers'], 'NOT A CERTIFICATION: with 2 waivers; r'],
    [["at limits other than the spec's"], "NOT A CERTIFICATION: at limits other than the spec's; r"],
  ])('%j leads the reasons', (scope, line) => {
    expect(verdict(verification({ scope, certification: { certifying: false, because: ['r'] } }))).toBe(line);
  });
});
