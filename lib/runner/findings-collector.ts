import type { Reporter, SerializedError, TestCase, TestModule } from 'vitest/node';
import type { Finding } from '../model/finding.ts';
import { inconclusive, notRun } from '../model/finding.ts';
import type { ReportedTest } from '../report/build-report.ts';
import type { TestRecord } from '../suite/test-record.ts';
import { suiteName } from './suite-files.ts';

/** One finished suite test: what the report needs, and where and how it ran. */
export interface CollectedTest extends ReportedTest {
  suite: string;
  state: 'passed' | 'failed' | 'skipped' | 'pending';
  requests: number;
}

function firstLine(text: string): string {
  return text.split('\n').find((l) => l.trim() !== '')?.trim() ?? text;
}

/**
 * Turns what a test left behind into findings. A test that broke (an exception, a timeout)
 * leaves its requirements inconclusive; a declared requirement the test said nothing about is
 * inconclusive too, so a check can never pass by forgetting to report.
 */
export function findingsOf(record: TestRecord | undefined, state: CollectedTest['state'], errors: string[], skipNote: string | undefined): Finding[] {
  const declared = record?.requirements ?? [];
  if (record?.error !== undefined) return declared.map((id) => inconclusive(id, `the test broke: ${firstLine(record.error!)}`));
  const findings = [...(record?.findings ?? [])];
  const spoken = new Set(findings.map((f) => f.requirement));
  for (const id of declared) {
    if (spoken.has(id)) continue;
    if (state === 'skipped') findings.push(notRun(id, skipNote ?? 'skipped'));
    else if (state === 'failed') findings.push(inconclusive(id, `the test broke: ${firstLine(errors[0] ?? 'unknown error')}`));
    else findings.push(inconclusive(id, 'the test reported no finding for this requirement'));
  }
  return findings;
}

/** Why a skipped test was skipped: the run's cancel note for a test a cancel left out, vitest's note otherwise. */
export function skipNoteOf(testCase: TestCase, cancelNote: string | undefined): string | undefined {
  const result = testCase.result();
  if (result.state !== 'skipped') return undefined;
  const record = testCase.meta().asi;
  const cancelled = cancelNote !== undefined && record?.findings.length === 0 && record.error === undefined;
  return cancelled ? cancelNote : result.note;
}

/**
 * The reporter that gathers findings from each test's meta (never from positions or titles). A
 * cancelled run reports some tests twice (as they were, then as skipped): the last word counts.
 */
export class FindingsCollector implements Reporter {
  readonly #tests = new Map<string, CollectedTest>();
  readonly runErrors: string[] = [];
  /** Said of every test a cancelled run left out, instead of vitest's own words. */
  cancelNote: string | undefined;

  get tests(): CollectedTest[] {
    return [...this.#tests.values()];
  }

  onTestCaseResult(testCase: TestCase): void {
    const result = testCase.result();
    const record = testCase.meta().asi;
    const errors = (result.errors ?? []).map((e) => e.message);
    const skipNote = skipNoteOf(testCase, this.cancelNote);
    const ms = testCase.diagnostic()?.duration;
    this.#tests.set(testCase.id, {
      suite: suiteName(testCase.module.moduleId),
      title: testCase.name,
      state: result.state,
      requirements: record?.requirements ?? [],
      findings: findingsOf(record, result.state, errors, skipNote),
      requests: record?.requests ?? 0,
      ...(ms === undefined ? {} : { durationMs: ms }),
    });
  }

  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<SerializedError>): void {
    for (const m of testModules) {
      for (const e of m.errors()) this.runErrors.push(`${suiteName(m.moduleId)}: ${firstLine(e.message)}`);
    }
    for (const e of unhandledErrors) this.runErrors.push(`unhandled: ${firstLine(e.message ?? String(e))}`);
  }
}
