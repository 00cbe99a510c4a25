/**
 * Keeps a write the harness sends in the background (the write pool's first refill, whose POSTs
 * leave ledger rows) out of a span in which a suite counts the ledger around a fault (the limiter
 * drill, which must see no row appear): the write goes wholly before the count, or waits for it.
 */
export class BackgroundWriteGate {
  #due?: { atMs: number; sending: boolean; done: Promise<void>; end(): void };
  #counting?: Promise<void>;

  /** `holdMs`: the longest a write waits for a count (one cut short by a timeout may never end). */
  constructor(private readonly holdMs: number) {}

  /** A background write is due at `atMs` (harness ms). */
  due(atMs: number): void {
    let end = (): void => {};
    const done = new Promise<void>((resolve) => (end = resolve));
    this.#due = { atMs, sending: false, done, end };
  }

  /** The due write is over, sent or not (idempotent). */
  over(): void {
    this.#due?.end();
    this.#due = undefined;
  }

  /**
   * What a count must let finish first: the write when it is going out or due within `clearMs`;
   * undefined when there is none or it is further off (it then waits for the count).
   */
  inTheWay(clearMs: number, nowMs = Date.now()): { atMs: number; done: Promise<void> } | undefined {
    const due = this.#due;
    return due !== undefined && (due.sending || due.atMs - nowMs < clearMs) ? due : undefined;
  }

  /** Runs `count` with background writes held: one due meanwhile goes once it has ended. */
  async counting<R>(count: () => Promise<R>): Promise<R> {
    let end = (): void => {};
    const counting = new Promise<void>((resolve) => (end = resolve));
    this.#counting = counting;
    try {
      return await count();
    } finally {
      if (this.#counting === counting) this.#counting = undefined;
      end();
    }
  }

  /** Runs the background write once no count is under way, or once it has waited `holdMs`. */
  async write<T>(work: () => Promise<T>): Promise<T> {
    const heldUntil = Date.now() + this.holdMs;
    while (this.#counting !== undefined && Date.now() < heldUntil) await within(this.#counting, heldUntil - Date.now());
    // No wait between the look above and this mark, so no count starts in between.
    if (this.#due !== undefined) this.#due.sending = true;
    try {
      return await work();
    } finally {
      this.over();
    }
  }
}

/** Waits for `event`, or `ms` at most. */
export async function within(event: Promise<void>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const bound = new Promise<void>((resolve) => (timer = setTimeout(resolve, Math.max(0, ms))));
  try {
    await Promise.race([event, bound]);
  } finally {
    clearTimeout(timer);
  }
}
