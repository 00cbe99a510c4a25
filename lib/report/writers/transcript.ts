import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import type { Exchange } from '../../model/exchange.ts';

export interface Transcript {
  /** Every exchange of the run, in the order requests were sent (by sequence number). */
  exchanges: Exchange[];
  /** Lines that were not an exchange (a run cut off mid-write leaves a partial last line). */
  unreadableLines: number;
  /** Sequence numbers of the exchanges whose bodies and events were left out to keep within `keepChars`. */
  contentOmitted?: Set<number>;
}

export interface ReadTranscriptOptions {
  /**
   * Characters of bodies and event data kept over the whole transcript, in the order lines were
   * written; later exchanges keep their request line, status and headers only. Unbounded if unset.
   */
  keepChars?: number;
}

function isExchange(value: unknown): value is Exchange {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  const req = v['request'] as Record<string, unknown> | undefined;
  return typeof v['seq'] === 'number' && typeof req === 'object' && req !== null && typeof req['method'] === 'string' && typeof req['url'] === 'string';
}

/**
 * Calls `onExchange` with each exchange of the run's transcript (JSON lines, one redacted
 * Exchange each, appended as requests complete), reading the file as a stream: a transcript may
 * be far larger than any string. A run that sent nothing leaves no file: no exchange, not an
 * error. Returns the number of lines that were not an exchange.
 */
export async function forEachTranscriptLine(file: string, onExchange: (exchange: Exchange) => void): Promise<number> {
  const input = createReadStream(file, { encoding: 'utf8' });
  const opened = new Promise<boolean>((resolve, reject) => {
    input.once('ready', () => resolve(true));
    input.once('error', (error: NodeJS.ErrnoException) => (error.code === 'ENOENT' ? resolve(false) : reject(error)));
  });
  if (!(await opened)) return 0;
  let unreadable = 0;
  for await (const line of createInterface({ input, crlfDelay: Infinity })) {
    if (line.trim() === '') continue;
    try {
      const value: unknown = JSON.parse(line);
      if (isExchange(value)) onExchange(value);
      else unreadable += 1;
    } catch {
      unreadable += 1;
    }
  }
  return unreadable;
}

/** Characters of content (body and event data) an exchange holds. */
function contentChars(exchange: Exchange): number {
  const res = exchange.response;
  if (res === undefined) return exchange.request.body?.length ?? 0;
  return (exchange.request.body?.length ?? 0) + res.body.length + (res.events ?? []).reduce((n, e) => n + e.data.length, 0);
}

/** The exchange without its bodies and events, counted as left out. */
function withoutContent(exchange: Exchange): Exchange {
  const res = exchange.response;
  const request = { ...exchange.request };
  delete request.body;
  if (res === undefined) return { ...exchange, request };
  const { events, chunkTimes, ...head } = res;
  const response = { ...head, body: '', truncated: true };
  if (events !== undefined) response.eventsOmitted = (res.eventsOmitted ?? 0) + events.length;
  if (chunkTimes !== undefined) response.chunkTimesOmitted = (res.chunkTimesOmitted ?? 0) + chunkTimes.length;
  return { ...exchange, request, response };
}

/** Reads the run's transcript, every exchange in sequence order, within `keepChars` of content. */
export async function readTranscript(file: string, options: ReadTranscriptOptions = {}): Promise<Transcript> {
  const exchanges: Exchange[] = [];
  const budget = options.keepChars ?? Infinity;
  let kept = 0;
  const contentOmitted = new Set<number>();
  const unreadableLines = await forEachTranscriptLine(file, (exchange) => {
    const chars = contentChars(exchange);
    if (kept + chars <= budget) {
      kept += chars;
      exchanges.push(exchange);
    } else {
      contentOmitted.add(exchange.seq);
      exchanges.push(withoutContent(exchange));
    }
  });
  // Lines are appended when responses complete; requests were sent in sequence order.
  exchanges.sort((a, b) => a.seq - b.seq);
  return { exchanges, unreadableLines, contentOmitted };
}
