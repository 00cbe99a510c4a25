import type { TestCase } from 'vitest/node';
import { describe, expect, test } from 'vitest';
import { HEARTBEAT_MS, LOOK_EVERY_MS, ProgressReporter } from '../../lib/runner/progress-reporter.ts';
import type { WaitNotice } from '../../lib/suite/worker-files.ts';

/** A reporter on a clock of the test's own, looked at every second as its timer would. */
function harness(waits: WaitNotice[]) {
  let now = 1_000_000;
  const lines: Array<{ at: number; line: string }> = [];
  const reporter = new ProgressReporter((line) => lines.push({ at: now, line }), 'must', { waits: () => waits, now: () => now });
  const advance = (ms: number): void => {
    for (let t = 0; t < ms; t += LOOK_EVERY_MS) {
      now += LOOK_EVERY_MS;
      reporter.lookAtWaits();
    }
  };
  return { reporter, lines, advance, now: () => now };
}

describe('ProgressReporter while the run waits', () => {
  test('a 52 s wait: a line as it begins, then never 10 s without one, each saying what for and how long is left', () => {
    const waits: WaitNotice[] = [];
    const h = harness(waits);
    waits.push({ id: 1, what: 'the timed probes of the read pool\'s 429 to finish', untilMs: h.now() + 52_000 });
    h.advance(52_000);
    waits.length = 0;
    h.advance(20_000);
    expect(h.lines[0]!.line).toBe("  … waiting for the timed probes of the read pool's 429 to finish: 51 s left  [0 done, 1s]");
    const times = h.lines.map((l) => l.at);
    for (let i = 1; i < times.length; i++) expect(times[i]! - times[i - 1]!).toBeLessThanOrEqual(HEARTBEAT_MS);
    expect(h.lines.map((l) => /: (\d+) s left/.exec(l.line)?.[1])).toEqual(['51', '41', '31', '21', '11', '1']);
  });

  test('other progress lines count: a wait under way while tests report gets no line of its own', () => {
    const waits: WaitNotice[] = [];
    const h = harness(waits);
    waits.push({ id: 1, what: 'a pool to heal', untilMs: h.now() + 3_000 });
    for (let i = 0; i < 5; i++) {
      h.advance(5_000);
      h.reporter.onTestCaseReady({ module: { moduleId: `/x/suites/suite-${i}.test.ts` } } as TestCase);
    }
    expect(h.lines.every((l) => !l.line.includes('waiting'))).toBe(true);
  });

  test('a wait past its instant says it is due; a short wait says nothing', () => {
    const waits: WaitNotice[] = [{ id: 1, what: 'the write pool to heal', untilMs: 0 }];
    const h = harness(waits);
    waits[0]!.untilMs = h.now() + 2_000;
    h.advance(12_000);
    expect(h.lines.map((l) => l.line)).toEqual(['  … waiting for the write pool to heal: due now  [0 done, 10s]']);
  });

  test('a wait begun by a test whose start has not been reported yet comes under its suite\'s header, printed once', () => {
    const waits: WaitNotice[] = [];
    const h = harness(waits);
    h.reporter.onTestCaseReady({ module: { moduleId: '/x/suites/ratelimit-limiter-fault.test.ts' } } as TestCase);
    waits.push({ id: 1, what: 'the exhausted pools to heal', untilMs: h.now() + 50_000, testFile: '/x/suites/ratelimit-recovery.test.ts' });
    h.advance(1_000);
    h.reporter.onTestCaseReady({ module: { moduleId: '/x/suites/ratelimit-recovery.test.ts' } } as TestCase);
    expect(h.lines.map((l) => l.line)).toEqual(['\nratelimit-limiter-fault', '\nratelimit-recovery', '  … waiting for the exhausted pools to heal: 49 s left  [0 done, 1s]']);
  });

  test('what the worker wrote is shown escaped', () => {
    const h = harness([{ id: 1, what: 'a pool\u001b[2J to heal', untilMs: 1_000_000 + 30_000 }]);
    h.advance(1_000);
    expect(h.lines[0]!.line).toContain('a pool\\x1b[2J to heal');
  });
});
