import type { Reporter, TestCase } from 'vitest/node';
import { requirementById } from '../catalogue/index.ts';
import { consoleText } from '../report/console-text.ts';
import { combineVerdicts, levelAdjusted } from '../report/report-model.ts';
import type { TestRecord } from '../suite/test-record.ts';
import type { WaitNotice } from '../suite/worker-files.ts';
import { findingsOf, skipNoteOf } from './findings-collector.ts';
import { suiteName } from './suite-files.ts';
import { VERDICT_MARK } from '../model/words.ts';

/** Longest silence while the run waits: a line says what for and how long is left at least this often. */
export const HEARTBEAT_MS = 10_000;
/** A wait with this much or more left gets a line as soon as it is seen. */
const LONG_WAIT_MS = 5_000;
/** How often the waits the worker announced are looked at. */
export const LOOK_EVERY_MS = 1_000;

/** Where the reporter learns what the suites' worker is waiting for (lib/suite/wait-notices.ts). */
export interface WaitSource {
  waits: () => readonly WaitNotice[];
  now?: () => number;
}

/**
 * Progress on long runs: a line per suite and per test as it finishes, on stderr; and while the
 * worker waits (a pool healing, a window to pass), a line when a long wait begins and then so that
 * no HEARTBEAT_MS go by without one, saying what for and how long is left. A cancelled run reports
 * some tests a second time, as skipped: a test gets one line, and one left out by the cancel says
 * why in the run's words (`cancelNote`), not vitest's.
 */
export class ProgressReporter implements Reporter {
  readonly #write: (line: string) => void;
  readonly #failOn: 'must' | 'should';
  readonly #waits: WaitSource | undefined;
  readonly #now: () => number;
  readonly #announced = new Set<number>();
  readonly #cancelNote: () => string | undefined;
  readonly #seen = new Set<string>();
  #done = 0;
  #started: number;
  #lastLineAt: number;
  #timer: NodeJS.Timeout | undefined;
  /** The suite whose header was printed last: a header comes with its first test, so a suite --only left empty prints none. */
  #header: string | undefined;

  constructor(write: (line: string) => void, failOn: 'must' | 'should', waits?: WaitSource, cancelNote: () => string | undefined = () => undefined) {
    this.#failOn = failOn;
    this.#cancelNote = cancelNote;
    this.#waits = waits;
    this.#now = waits?.now ?? Date.now;
    this.#started = this.#now();
    this.#lastLineAt = this.#started;
    this.#write = (line) => {
      this.#lastLineAt = this.#now();
      write(line);
    };
  }

  onTestRunStart(): void {
    if (this.#waits === undefined || this.#timer !== undefined) return;
    this.#timer = setInterval(() => this.lookAtWaits(), LOOK_EVERY_MS);
    this.#timer.unref();
  }

  onTestRunEnd(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
  }

  onTestCaseReady(testCase: TestCase): void {
    this.#headerOf(testCase.module.moduleId);
  }

  /** The suite's header, unless it was the last one printed. */
  #headerOf(file: string): void {
    const suite = suiteName(file);
    if (suite === this.#header) return;
    this.#header = suite;
    this.#write(`\n${suite}`);
  }

  onTestCaseResult(testCase: TestCase): void {
    if (this.#seen.has(testCase.id)) return;
    this.#seen.add(testCase.id);
    this.#headerOf(testCase.module.moduleId);
    this.#done += 1;
    const result = testCase.result();
    const record: TestRecord | undefined = testCase.meta().asi;
    const findings = findingsOf(record, result.state, (result.errors ?? []).map((e) => e.message), skipNoteOf(testCase, this.#cancelNote()));
    const verdict =
      combineVerdicts(findings.map((f) => levelAdjusted(f.verdict, requirementById(f.requirement)?.level ?? 'MUST', this.#failOn))) ?? 'inconclusive';
    const ms = testCase.diagnostic()?.duration;
    this.#write(`  ${VERDICT_MARK[verdict]} ${consoleText(testCase.name)}${ms === undefined ? '' : ` (${Math.round(ms)} ms)`}  ${this.#tally()}`);
    const why = findings.find((f) => f.verdict === verdict && f.note !== undefined)?.note;
    // The note may quote the target: it never starts a line of its own (console-text.ts).
    if ((verdict === 'not-run' || verdict === 'inconclusive') && why !== undefined) this.#write(`      why: ${consoleText(why)}`);
  }

  /**
   * One look at the worker's waits: a wait with LONG_WAIT_MS or more left gets a line when it is
   * first seen, and every wait one whenever the next look would come HEARTBEAT_MS or more after the
   * last line. Called by the timer; public for the self-tests, which drive it with a clock of their own.
   */
  lookAtWaits(): void {
    const now = this.#now();
    const waits = this.#waits?.waits() ?? [];
    const quiet = now - this.#lastLineAt + LOOK_EVERY_MS > HEARTBEAT_MS;
    for (const w of waits) {
      const fresh = !this.#announced.has(w.id);
      this.#announced.add(w.id);
      if (!quiet && !(fresh && w.untilMs - now >= LONG_WAIT_MS)) continue;
      // The news that a test began may come after its wait: the wait says whose it is.
      if (w.testFile !== undefined) this.#headerOf(w.testFile);
      this.#write(`  … waiting for ${consoleText(w.what)}: ${left(w.untilMs - now)}  ${this.#tally()}`);
    }
  }

  #tally(): string {
    return `[${this.#done} done, ${Math.round((this.#now() - this.#started) / 1000)}s]`;
  }
}

function left(ms: number): string {
  return ms > 0 ? `${Math.ceil(ms / 1000)} s left` : 'due now';
}
