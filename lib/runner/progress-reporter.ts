import type { Reporter, TestCase } from 'vitest/node';
import { requirementById } from '../catalogue/index.ts';
import { consoleText } from '../report/console-text.ts';
import { combineVerdicts, levelAdjusted } from '../report/report-model.ts';
import type { TestRecord } from '../suite/test-record.ts';
import { findingsOf, skipNoteOf } from './findings-collector.ts';
import { suiteName } from './suite-files.ts';

const MARK = { pass: '✓', fail: '×', warn: '!', 'not-run': '-', inconclusive: '?' } as const;

/**
 * Progress on long runs: a line per suite and per test as it finishes, on stderr. A cancelled run
 * reports some tests a second time, as skipped: a test gets one line, and one left out by the
 * cancel says why in the run's words (`cancelNote`), not vitest's.
 */
export class ProgressReporter implements Reporter {
  readonly #write: (line: string) => void;
  readonly #failOn: 'must' | 'should';
  readonly #cancelNote: () => string | undefined;
  readonly #seen = new Set<string>();
  #done = 0;
  #started = Date.now();
  /** The suite whose header was printed last: a header comes with its first test, so a suite --only left empty prints none. */
  #header: string | undefined;

  constructor(write: (line: string) => void, failOn: 'must' | 'should', cancelNote: () => string | undefined = () => undefined) {
    this.#write = write;
    this.#failOn = failOn;
    this.#cancelNote = cancelNote;
  }

  onTestCaseReady(testCase: TestCase): void {
    const suite = suiteName(testCase.module.moduleId);
    if (suite === this.#header) return;
    this.#header = suite;
    this.#write(`\n${suite}`);
  }

  onTestCaseResult(testCase: TestCase): void {
    if (this.#seen.has(testCase.id)) return;
    this.#seen.add(testCase.id);
    this.#done += 1;
    const result = testCase.result();
    const record: TestRecord | undefined = testCase.meta().asi;
    const findings = findingsOf(record, result.state, (result.errors ?? []).map((e) => e.message), skipNoteOf(testCase, this.#cancelNote()));
    const verdict =
      combineVerdicts(findings.map((f) => levelAdjusted(f.verdict, requirementById(f.requirement)?.level ?? 'MUST', this.#failOn))) ?? 'inconclusive';
    const ms = testCase.diagnostic()?.duration;
    const elapsed = Math.round((Date.now() - this.#started) / 1000);
    this.#write(`  ${MARK[verdict]} ${consoleText(testCase.name)}${ms === undefined ? '' : ` (${Math.round(ms)} ms)`}  [${this.#done} done, ${elapsed}s]`);
    const why = findings.find((f) => f.verdict === verdict && f.note !== undefined)?.note;
    // The note may quote the target: it never starts a line of its own (console-text.ts).
    if ((verdict === 'not-run' || verdict === 'inconclusive') && why !== undefined) this.#write(`      why: ${consoleText(why)}`);
  }
}
