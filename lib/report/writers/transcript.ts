import { createReadStream } from 'node:fs';
import { once } from 'node:events';
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

/** Characters of content (bodies and event data) an exchange holds. */
function contentChars(exchange: Exchange): number {
  const res = exchange.response;
  const request = exchange.request.body?.length ?? 0;
  if (res === undefined) return request;
  return request + res.body.length + (res.events ?? []).reduce((n, e) => n + e.data.length, 0);
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

/**
 * Reads the run's transcript (JSON lines, one redacted Exchange each, appended as requests
 * complete), line by line and within `keepChars` of content. A run that sent nothing leaves no
 * file: that is an empty transcript, not an error.
 */
export async function readTranscript(file: string, options: ReadTranscriptOptions = {}): Promise<Transcript> {
  const exchanges: Exchange[] = [];
  const budget = options.keepChars ?? Infinity;
  const contentOmitted = new Set<number>();
  let kept = 0;
  const unreadableLines = await eachExchange(file, (exchange) => {
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

/**
 * Calls `visit` with each exchange of the transcript, reading it line by line: a long run's
 * transcript is never held in memory whole. Returns how many lines were not an exchange.
 */
export async function eachExchange(file: string, visit: (exchange: Exchange) => void): Promise<number> {
  let stream;
  try {
    stream = createReadStream(file, { encoding: 'utf8' });
    await once(stream, 'open');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 0;
    throw error;
  }
  let unreadable = 0;
  for await (const line of createInterface({ input: stream, crlfDelay: Infinity })) {
    if (line.trim() === '') continue;
    try {
      const value: unknown = JSON.parse(line);
      if (isExchange(value)) visit(value);
      else unreadable += 1;
    } catch {
      unreadable += 1;
    }
  }
  return unreadable;
}
