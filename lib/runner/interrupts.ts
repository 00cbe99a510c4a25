/** What stops a run from outside: a signal, or npm/npx having ended without waiting for it. */
export type InterruptCause = 'SIGINT' | 'SIGTERM' | 'wrapper-gone';

const SIGNALS = ['SIGINT', 'SIGTERM'] as const;
const WATCH_MS = 200;

/** The words for a cause, as `interrupted by ...` in a report. */
export function causeText(cause: InterruptCause): string {
  return cause === 'wrapper-gone' ? 'the end of npm or npx, which started the run' : cause;
}

/**
 * One listener for SIGINT and SIGTERM for a whole run: from before its preflight to after its
 * reports, so that no signal at any moment ends the process before the faults are off and the
 * reports written. The first interrupt is handed to whoever is listening (lib/runner/run-control.ts
 * while the suites run) and remembered for those who come later.
 *
 * A second signal does not end the process at once: it says so and the cleanup goes on. One Ctrl-C
 * may arrive twice (`npm start` forwards the signal its process group already delivered), and a CI
 * cancel often sends SIGINT then SIGTERM moments apart; ending on the second would leave a fault
 * on and no report. The cleanup is bounded (each hook command by its 30 s timeout); SIGKILL
 * remains for whoever must end it now.
 *
 * npm and npx run the harness under /bin/sh. A SIGTERM to the npm process alone kills that shell,
 * and npm ends at once without passing the signal on: the harness, orphaned, would go on with the
 * run unseen. Started by npm (npm_lifecycle_event is set), it watches its parent process and
 * stops as if interrupted when it is gone. Not otherwise: `nohup asi-conformance run &` or setsid
 * is someone's way of saying "carry on without me".
 */
export class Interrupts {
  readonly #say: (line: string) => void;
  readonly #handlers = new Set<(cause: InterruptCause) => void>();
  #timer: NodeJS.Timeout | undefined;
  #onSignal = (signal: (typeof SIGNALS)[number]): void => this.#receive(signal);
  cause: InterruptCause | undefined;

  constructor(say: (line: string) => void) {
    this.#say = say;
  }

  listen(env: NodeJS.ProcessEnv = process.env): this {
    for (const s of SIGNALS) process.on(s, this.#onSignal);
    if (env['npm_lifecycle_event'] !== undefined) {
      const parent = process.ppid;
      this.#timer = setInterval(() => {
        if (process.ppid === parent) return;
        clearInterval(this.#timer);
        // A signal to the whole group ends the wrapper too: it is already pending here and, handled
        // in this same turn of the event loop, names the cause before the wrapper's end does.
        setImmediate(() => {
          if (this.cause === undefined) this.#receive('wrapper-gone');
        });
      }, WATCH_MS);
      this.#timer.unref();
    }
    return this;
  }

  /** The listener of SIGINT and SIGTERM that must stay when vitest's are taken out. */
  owns(listener: unknown): boolean {
    return listener === this.#onSignal;
  }

  close(): void {
    clearInterval(this.#timer);
    for (const s of SIGNALS) process.off(s, this.#onSignal);
  }

  /** Calls `handler` at the first interrupt, or at once (on the next tick) when it has come already. */
  onInterrupt(handler: (cause: InterruptCause) => void): () => void {
    const cause = this.cause;
    if (cause !== undefined) queueMicrotask(() => handler(cause));
    else this.#handlers.add(handler);
    return () => this.#handlers.delete(handler);
  }

  #receive(cause: InterruptCause): void {
    if (this.cause !== undefined) {
      this.#say(`${cause} again: the run is already stopping; it ends once the faults are off and the reports written (SIGKILL would end it now and leave them)`);
      return;
    }
    this.cause = cause;
    clearInterval(this.#timer);
    if (this.#handlers.size === 0) this.#say(`${causeText(cause)}: stopping the run as soon as it can; its reports are written first`);
    for (const handler of this.#handlers) handler(cause);
  }
}
