import { createReadStream } from 'node:fs';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { readFile } from 'node:fs/promises';
import type { Exchange } from '../../model/exchange.ts';

export interface Transcript {
  /** Every exchange of the run, in the order requests were sent (by sequence number). */
  exchanges: Exchange[];
  /** Lines that were not an exchange (a run cut off mid-write leaves a partial last line). */
  unreadableLines: number;
}

function isExchange(value: unknown): value is Exchange {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  const req = v['request'] as Record<string, unknown> | undefined;
  return typeof v['seq'] === 'number' && typeof req === 'object' && req !== null && typeof req['method'] === 'string' && typeof req['url'] === 'string';
}

/**
 * Reads the run's transcript (JSON lines, one redacted Exchange each, appended as requests
 * complete). A run that sent nothing leaves no file: that is an empty transcript, not an error.
 */
export async function readTranscript(file: string): Promise<Transcript> {
  let content: string;
  try {
    content = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { exchanges: [], unreadableLines: 0 };
    throw error;
  }
  const exchanges: Exchange[] = [];
  let unreadableLines = 0;
  for (const line of content.split('\n')) {
    if (line.trim() === '') continue;
    try {
      const value: unknown = JSON.parse(line);
      if (isExchange(value)) exchanges.push(value);
      else unreadableLines += 1;
    } catch {
      unreadableLines += 1;
    }
  }
  // Lines are appended when responses complete; requests were sent in sequence order.
  exchanges.sort((a, b) => a.seq - b.seq);
  return { exchanges, unreadableLines };
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
