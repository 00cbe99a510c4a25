import { PreflightError, TargetUnreachableError, type HarnessError } from '../errors.ts';
import { NOT_SENT_CODE, UNRESPONSIVE_AFTER } from '../http/client.ts';
import type { Exchange } from '../model/exchange.ts';
import type { ResolvedTarget } from '../profile/resolve-profile.ts';
import type { StopInput } from '../report/build-report.ts';
import { trimExchange } from '../model/evidence-trim.ts';
import { causeText, Interrupts } from './interrupts.ts';
import { preflight, type PreflightOptions } from './preflight.ts';

/**
 * How a run ends before its end, as data for its report: at the preflight (refused, unreachable,
 * interrupted), or cut short in the suites, each with the exchanges that led there.
 */

export interface PreflightEnd {
  stop: Extract<StopInput, { at: 'preflight' }>;
  /** What the CLI prints as its one line, with its exit code: refused or unreachable (none for an interrupt). */
  error?: HarnessError;
  /** An interrupt: the run was cut short, in these words. */
  cutShort?: string;
}

export interface PreflightStageOptions extends Omit<PreflightOptions, 'signal'> {
  /** Prints even with -q: that a signal stopped the run. */
  notice: (line: string) => void;
  /** The run command's listener for SIGINT and SIGTERM; the preflight listens itself when absent. */
  interrupts?: Interrupts;
}

/**
 * The preflight, its end as data: undefined when the target passed, else how the run ends there,
 * with the preflight's exchanges as evidence. An interrupt here (lib/runner/interrupts.ts) aborts
 * the preflight (the exchange under way ends at once) and the run ends interrupted, with its
 * reports; a second signal is only said (interrupts.ts says why).
 */
export async function preflightStage(target: ResolvedTarget, options: PreflightStageOptions): Promise<PreflightEnd | undefined> {
  const { notice, interrupts: given, ...preflightOptions } = options;
  const exchanges: Exchange[] = [];
  const abort = new AbortController();
  const interrupts = given ?? new Interrupts(notice).listen();
  let interrupted: string | undefined;
  const stopListening = interrupts.onInterrupt((cause) => {
    interrupted = causeText(cause);
    notice(`${interrupted}: stopping the run at the preflight`);
    abort.abort();
  });
  let failure: unknown;
  try {
    await preflight(target, {
      ...preflightOptions,
      signal: abort.signal,
      onExchange(exchange) {
        options.onExchange?.(exchange);
        exchanges.push(trimExchange(exchange));
      },
    });
  } catch (error) {
    failure = error;
  } finally {
    stopListening();
    if (given === undefined) interrupts.close();
  }
  if (interrupted !== undefined) {
    const reason = `interrupted by ${interrupted} during the preflight`;
    return { stop: { at: 'preflight', outcome: 'incomplete', reason, exchanges }, cutShort: reason };
  }
  if (failure === undefined) return undefined;
  if (failure instanceof PreflightError) return { stop: { at: 'preflight', outcome: 'refused', reason: failure.message, exchanges }, error: failure };
  if (failure instanceof TargetUnreachableError) return { stop: { at: 'preflight', outcome: 'unreachable', reason: failure.message, exchanges }, error: failure };
  throw failure;
}

/**
 * The last exchanges a run sent, as the evidence of a run cut short: for a target that stopped
 * answering, the ones that went unanswered (the requests refused unsent after them show nothing).
 */
export class LastSent {
  readonly #kept: Exchange[] = [];

  add(exchange: Exchange): void {
    if (exchange.error?.code === NOT_SENT_CODE) return;
    this.#kept.push(exchange);
    if (this.#kept.length > UNRESPONSIVE_AFTER) this.#kept.shift();
  }

  /** Within the evidence budget, oldest first. */
  exchanges(): Exchange[] {
    return this.#kept.map((e) => trimExchange(e));
  }
}
