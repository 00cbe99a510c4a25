import { EventEmitter } from 'node:events';
import { ThreadsPoolWorker, type PoolOptions, type PoolRunnerInitializer, type PoolWorker, type WorkerRequest } from 'vitest/node';

/** The name vitest knows the kept thread's pool by. */
export const KEPT_THREAD_POOL = 'asi-kept-thread';

/** A message of the worker protocol, answered here instead of by the thread. */
function response(type: 'started' | 'stopped'): { __vitest_worker_response__: true; type: 'started' | 'stopped' } {
  return { __vitest_worker_response__: true, type };
}

/**
 * One worker thread for every run of a vitest instance kept for many runs (calibration runs
 * hundreds). Vitest ends its worker when a run's queue is empty; starting a thread, its runtime
 * and the packages the suites load cost about 0.4 CPU seconds a run, more than most switches'
 * own work. Here each run's pool worker is a view on the same thread: the first start sets the
 * thread up, later starts and every stop are answered without it, and the thread ends with
 * `close()`. The thread keeps vitest's module cache between runs; lib/suite/run-modules.ts
 * clears it at the start of each run, so every run still evaluates the suites and lib afresh.
 */
export class KeptThread {
  #thread: ThreadsPoolWorker | undefined;
  #setUp = false;

  /** The pool to give vitest as its `pool` option. */
  readonly pool: PoolRunnerInitializer = {
    name: KEPT_THREAD_POOL,
    createPoolWorker: (options: PoolOptions): PoolWorker => new KeptThreadView(this, options),
  };

  /**
   * The thread, started on first use (once only: each start of vitest's thread worker pipes its
   * output again). A thread that ended on its own is forgotten, and the next run starts another.
   */
  async thread(options: PoolOptions): Promise<ThreadsPoolWorker> {
    if (this.#thread === undefined) {
      const thread = new ThreadsPoolWorker(options);
      this.#thread = thread;
      this.#setUp = false;
      await thread.start();
      thread.on('exit', () => {
        if (this.#thread === thread) this.#thread = undefined;
      });
    }
    return this.#thread;
  }

  /** Whether the thread has been set up by a first `start` message (later ones are answered here). */
  takeSetUp(): boolean {
    const was = this.#setUp;
    this.#setUp = true;
    return was;
  }

  async close(): Promise<void> {
    const thread = this.#thread;
    this.#thread = undefined;
    if (thread !== undefined) await thread.stop();
  }
}

/** What one run's pool runner sees of the kept thread: its messages while the run lasts. */
class KeptThreadView implements PoolWorker {
  readonly name = KEPT_THREAD_POOL;
  readonly #kept: KeptThread;
  readonly #options: PoolOptions;
  readonly #events = new EventEmitter();
  #thread: ThreadsPoolWorker | undefined;
  readonly #relay = {
    message: (data: unknown): void => void this.#events.emit('message', data),
    error: (error: unknown): void => void this.#events.emit('error', error),
    exit: (code: unknown): void => void this.#events.emit('exit', code),
  };

  constructor(kept: KeptThread, options: PoolOptions) {
    this.#kept = kept;
    this.#options = options;
  }

  on(event: string, callback: (arg: unknown) => void): void {
    this.#events.on(event, callback);
  }

  off(event: string, callback: (arg: unknown) => void): void {
    this.#events.off(event, callback);
  }

  send(message: WorkerRequest): void {
    const answered = message.type === 'stop' ? 'stopped' : message.type === 'start' && this.#kept.takeSetUp() ? 'started' : undefined;
    if (answered === undefined) {
      this.#thread?.send(message);
      return;
    }
    // After the caller has started waiting for it, as the thread's answer would come.
    setImmediate(() => this.#events.emit('message', response(answered)));
  }

  deserialize(data: unknown): unknown {
    return data;
  }

  async start(): Promise<void> {
    this.#thread = await this.#kept.thread(this.#options);
    for (const [event, relay] of Object.entries(this.#relay)) this.#thread.on(event, relay);
  }

  /** Lets go of the thread without ending it: the next run's view takes it up. */
  async stop(): Promise<void> {
    const thread = this.#thread;
    this.#thread = undefined;
    if (thread !== undefined) for (const [event, relay] of Object.entries(this.#relay)) thread.off(event, relay);
  }
}
