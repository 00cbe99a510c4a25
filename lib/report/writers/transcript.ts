import { appendFileSync, createReadStream, readSync } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { once } from 'node:events';
import type { Exchange } from '../../model/exchange.ts';
import { cutExchange, TRANSCRIPT_BUDGET, type RecordBudget } from '../../model/evidence-trim.ts';
import { jsonText } from '../../model/json-text.ts';

/**
 * The run's transcript: JSON lines, one redacted Exchange each, appended as requests complete.
 * It is read line by line, never whole: a long run's transcript does not fit in memory.
 */

/**
 * Appends one exchange as a transcript line, within TRANSCRIPT_BUDGET (or the budget given): a
 * flood of events or a huge body costs the file a bounded line, and what was left out is counted.
 * Every part of the harness that sends (the preflight, the suites' worker) records through here,
 * as the exchange completes.
 */
export function appendExchange(file: string, exchange: Exchange, budget: RecordBudget = TRANSCRIPT_BUDGET): void {
  appendFileSync(file, `${jsonText(cutExchange(exchange, budget))}\n`);
}

/** Where one line sits in the transcript file, in bytes (its line end excluded). */
export interface LinePlace {
  offset: number;
  length: number;
}

export function isExchange(value: unknown): value is Exchange {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  const req = v['request'] as Record<string, unknown> | undefined;
  return typeof v['seq'] === 'number' && typeof req === 'object' && req !== null && typeof req['method'] === 'string' && typeof req['url'] === 'string';
}

/** The exchange a line holds, or undefined when it holds none (a run cut off mid-write leaves a partial last line). */
export function exchangeOfLine(line: string): Exchange | undefined {
  try {
    const value: unknown = JSON.parse(line);
    return isExchange(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Each line of the file and its place, read in chunks. Lines are split at LF bytes, which never
 * occur inside a UTF-8 sequence, so that places are exact. A missing file has no lines.
 */
export async function* linesOf(file: string): AsyncGenerator<{ text: string; place: LinePlace }> {
  const stream = createReadStream(file);
  try {
    await once(stream, 'open');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  let pending: Buffer[] = [];
  let lineStart = 0;
  let chunkStart = 0;
  const line = (): { text: string; place: LinePlace } => {
    const bytes = pending.length === 1 ? pending[0]! : Buffer.concat(pending);
    pending = [];
    return { text: bytes.toString('utf8'), place: { offset: lineStart, length: bytes.length } };
  };
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    let from = 0;
    for (let end = chunk.indexOf(0x0a); end >= 0; end = chunk.indexOf(0x0a, from)) {
      pending.push(chunk.subarray(from, end));
      yield line();
      from = end + 1;
      lineStart = chunkStart + from;
    }
    if (from < chunk.length) pending.push(chunk.subarray(from));
    chunkStart += chunk.length;
  }
  if (pending.length > 0) yield line();
}

/**
 * Calls `visit` with each exchange of the transcript and the place of its line, in the order
 * lines were written. Returns how many lines were not an exchange. A run that sent nothing
 * leaves no file: that is an empty transcript, not an error. With `mentioning`, lines without
 * that text are skipped unparsed (a search for a few exchanges need not parse them all).
 */
export async function eachExchange(file: string, visit: (exchange: Exchange, place: LinePlace) => void, mentioning?: string): Promise<number> {
  let unreadable = 0;
  for await (const { text, place } of linesOf(file)) {
    if (text.trim() === '' || (mentioning !== undefined && !text.includes(mentioning))) continue;
    const exchange = exchangeOfLine(text);
    if (exchange === undefined) unreadable += 1;
    else visit(exchange, place);
  }
  return unreadable;
}

/**
 * The exchange on the line at `place` of an open transcript, as eachExchange reported it. Read
 * synchronously: the line was just read once and sits in the page cache, and a read through the
 * thread pool for each exchange kept the HAR's writer waiting most of its time.
 */
export function exchangeAt(transcript: FileHandle, place: LinePlace): Exchange {
  const bytes = Buffer.alloc(place.length);
  const bytesRead = readSync(transcript.fd, bytes, 0, place.length, place.offset);
  const exchange = exchangeOfLine(bytes.toString('utf8', 0, bytesRead));
  if (exchange === undefined) throw new Error(`the transcript changed while it was read: no exchange at byte ${place.offset}`);
  return exchange;
}
