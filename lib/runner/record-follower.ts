import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { ServedDescriptionFinder, type ServedDescription } from '../checks/openapi-served-description.ts';
import type { Exchange } from '../model/exchange.ts';
import { exchangeOfLine } from '../report/writers/transcript.ts';

/** How often the transcript is looked at while the suites append to it. */
const FOLLOW_EVERY_MS = 1_000;

/**
 * Lines read in one turn of the event loop: the embedded reference answers in this thread, and a
 * burst's hundreds of lines read at once would hold its answers back.
 */
const LINES_PER_TURN = 64;

/** What a follower hands each exchange to: a judge of the run-wide rules (lib/invariants/judge-record.ts). */
export interface ExchangeSink {
  add(exchange: Exchange): void;
}

/**
 * The run's exchange record read while the suites append to it, in the order its lines were
 * written. Each exchange goes to `visit` as soon as its line is whole, and to the judge that
 * `judgeWith` makes once the served description is found (an input of every run-wide rule): those
 * read before it first. The run's long waits absorb what judging the whole record after the last
 * answer cost. `finish` reads the rest, the same exchanges in the same order as one pass at the
 * end; a run that fetched no description is judged there, with the finder's word on why.
 */
export class RecordFollower<J extends ExchangeSink> {
  readonly #file: string;
  readonly #served: ServedDescriptionFinder;
  readonly #judgeWith: (served: ServedDescription) => J;
  readonly #visit: (exchange: Exchange) => void;
  #judge: J | undefined;
  /** Exchanges read before the served description was found, judged once it is. */
  #unjudged: Exchange[] = [];
  /** Whole lines read and not yet handled. */
  #lines: string[] = [];
  /** Bytes of the file read so far, and those of a line not yet ended. */
  #offset = 0;
  #tail: Buffer = Buffer.alloc(0);
  #timer: NodeJS.Timeout | undefined;
  #turn: Promise<void> = Promise.resolve();
  #finished = false;
  /** What went wrong in a look during the run: thrown by finish, where the run's end can report it. */
  #failed: { error: unknown } | undefined;
  /** Lines read that held no exchange (a run cut off mid-write leaves a partial last one), as eachExchange counts them. */
  #unreadable = 0;

  constructor(file: string, baseUrl: string, judgeWith: (served: ServedDescription) => J, visit: (exchange: Exchange) => void) {
    this.#file = file;
    this.#served = new ServedDescriptionFinder(baseUrl);
    this.#judgeWith = judgeWith;
    this.#visit = visit;
  }

  /** Starts looking at the file every FOLLOW_EVERY_MS; a timer that keeps no process alive. */
  start(): void {
    this.#timer = setInterval(() => {
      this.#turn = this.#turn
        .then(() => this.#follow())
        .catch((error: unknown) => {
          this.#failed ??= { error };
          this.stop();
        });
    }, FOLLOW_EVERY_MS);
    this.#timer.unref();
  }

  /** Stops looking at the file: a run that broke before finish leaves no timer behind. */
  stop(): void {
    clearInterval(this.#timer);
    this.#finished = true;
  }

  /** Lines read so far that held no exchange. */
  get unreadableLines(): number {
    return this.#unreadable;
  }

  /** Reads the rest of the file and returns the judge, with the served description it was made with. */
  async finish(): Promise<{ judge: J; served: ServedDescription }> {
    clearInterval(this.#timer);
    await this.#turn;
    if (this.#failed !== undefined) throw this.#failed.error;
    this.#finished = true;
    this.#read(true);
    for (const line of this.#lines.splice(0)) this.#handle(line);
    const served = this.#served.result();
    this.#judge ??= this.#madeJudge(served);
    return { judge: this.#judge, served };
  }

  async #follow(): Promise<void> {
    if (this.#finished) return;
    this.#read(false);
    while (this.#lines.length > 0 && !this.#finished) {
      for (const line of this.#lines.splice(0, LINES_PER_TURN)) this.#handle(line);
      await nextTurn();
    }
  }

  /** Appends the file's new whole lines to #lines (and, at the end, an unended last one, as eachExchange reads it). */
  #read(atEnd: boolean): void {
    let fd: number;
    try {
      fd = openSync(this.#file, 'r');
    } catch {
      return;
    }
    try {
      const size = fstatSync(fd).size;
      if (size > this.#offset) {
        const bytes = Buffer.alloc(size - this.#offset);
        const read = readSync(fd, bytes, 0, bytes.length, this.#offset);
        this.#offset += read;
        this.#split(bytes.subarray(0, read));
      }
    } finally {
      closeSync(fd);
    }
    if (atEnd && this.#tail.length > 0) {
      this.#lines.push(this.#tail.toString('utf8'));
      this.#tail = Buffer.alloc(0);
    }
  }

  /** Lines end at LF bytes, which never occur inside a UTF-8 sequence. */
  #split(chunk: Buffer): void {
    let from = 0;
    for (let end = chunk.indexOf(0x0a); end >= 0; end = chunk.indexOf(0x0a, from)) {
      const piece = chunk.subarray(from, end);
      this.#lines.push((this.#tail.length === 0 ? piece : Buffer.concat([this.#tail, piece])).toString('utf8'));
      this.#tail = Buffer.alloc(0);
      from = end + 1;
    }
    if (from < chunk.length) this.#tail = Buffer.concat([this.#tail, chunk.subarray(from)]);
  }

  #handle(line: string): void {
    if (line.trim() === '') return;
    const exchange = exchangeOfLine(line);
    if (exchange === undefined) {
      this.#unreadable += 1;
      return;
    }
    this.#visit(exchange);
    if (this.#judge !== undefined) {
      this.#judge.add(exchange);
      return;
    }
    this.#unjudged.push(exchange);
    // Found, the description is final: a later fetch changes nothing (ServedDescriptionFinder).
    if (this.#served.add(exchange)) this.#judge = this.#madeJudge(this.#served.result());
  }

  #madeJudge(served: ServedDescription): J {
    const judge = this.#judgeWith(served);
    for (const exchange of this.#unjudged.splice(0)) judge.add(exchange);
    return judge;
  }
}
