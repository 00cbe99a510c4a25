import { closeSync, openSync, readSync, writeSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { STATUS_CODES } from 'node:http';
import { jsonStringBytes } from '../../model/json-bytes.ts';
import type { Exchange } from '../../model/exchange.ts';
import type { Report } from '../report-model.ts';
import { eachExchange, exchangeAt, type LinePlace } from './transcript.ts';
import { jsonText } from '../../model/json-text.ts';

/**
 * Bytes of bodies and event data transcript.har keeps in all, as written (escapes included): a
 * run against a flooding target still writes a HAR of bounded size. Later exchanges keep their
 * request line, status and headers, and say that their content was left out.
 */
export const HAR_CONTENT_BYTES = 32 * 1024 * 1024;

const LEFT_OUT = `content left out: transcript.har keeps at most ${HAR_CONTENT_BYTES / 1024 / 1024} MiB of bodies and events in all, as written`;

/** HAR 1.2 (http://www.softwareishard.com/blog/har-12-spec/), the subset this harness can fill. */
interface HarNameValue {
  name: string;
  value: string;
}

function nameValues(headers: Record<string, string>): HarNameValue[] {
  return Object.entries(headers).map(([name, value]) => ({ name, value }));
}

function queryStringOf(url: string): HarNameValue[] {
  try {
    return [...new URL(url).searchParams].map(([name, value]) => ({ name, value }));
  } catch {
    return [];
  }
}

function mimeTypeOf(headers: Record<string, string>, fallback: string): string {
  return headers['content-type'] ?? fallback;
}

/**
 * Bytes of content (bodies and event data) an exchange's entry holds, as written. Each line of
 * the transcript is already within its own budget as written (TRANSCRIPT_BUDGET).
 */
function contentBytes(exchange: Exchange): number {
  const res = exchange.response;
  const request = jsonStringBytes(exchange.request.body ?? '');
  if (res === undefined) return request;
  return request + jsonStringBytes(res.body) + (res.events ?? []).reduce((n, e) => n + jsonStringBytes(e.data), 0);
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

function request(exchange: Exchange, leftOut: boolean): Record<string, unknown> {
  const req = exchange.request;
  const har: Record<string, unknown> = {
    method: req.method,
    url: req.url,
    httpVersion: 'HTTP/1.1',
    cookies: [],
    headers: nameValues(req.headers),
    queryString: queryStringOf(req.url),
    headersSize: -1,
    bodySize: req.body === undefined ? 0 : Buffer.byteLength(req.body),
  };
  if (req.body !== undefined) har['postData'] = { mimeType: mimeTypeOf(req.headers, 'application/octet-stream'), text: req.body };
  if (leftOut) har['comment'] = LEFT_OUT;
  return har;
}

function response(exchange: Exchange, leftOut: boolean): Record<string, unknown> {
  const res = exchange.response;
  // HAR requires a response; a transport failure has none (status 0, as browsers record it).
  if (res === undefined) {
    return {
      status: 0,
      statusText: '',
      httpVersion: '',
      cookies: [],
      headers: [],
      content: { size: 0, mimeType: 'x-unknown' },
      redirectURL: '',
      headersSize: -1,
      bodySize: -1,
      ...(exchange.error === undefined ? {} : { _error: `${exchange.error.code}: ${exchange.error.message}` }),
    };
  }
  const content: Record<string, unknown> = { size: res.bodyBytes, mimeType: mimeTypeOf(res.headers, 'x-unknown'), text: res.body };
  // HAR 1.2: `size` is the decoded length, `bodySize` what came over the wire, `compression` the difference.
  if (res.encodedBytes !== undefined) content['compression'] = res.bodyBytes - res.encodedBytes;
  if (leftOut) content['comment'] = LEFT_OUT;
  else if (res.truncated) content['comment'] = `body cut: the transcript keeps the first ${res.body.length} characters of ${res.bodyBytes} bytes`;
  return {
    status: res.status,
    statusText: STATUS_CODES[res.status] ?? '',
    httpVersion: 'HTTP/1.1',
    cookies: [],
    headers: nameValues(res.headers),
    content,
    redirectURL: res.headers['location'] ?? '',
    headersSize: -1,
    bodySize: res.encodedBytes ?? res.bodyBytes,
  };
}

function timings(exchange: Exchange): Record<string, number> {
  const total = Math.max(0, exchange.timings.totalMs);
  const wait = Math.min(total, Math.max(0, exchange.timings.headersMs ?? total));
  return { blocked: -1, dns: -1, connect: -1, ssl: -1, send: 0, wait, receive: total - wait };
}

/** What HAR has no field for: the harness's own record of the exchange. */
function asiFields(exchange: Exchange): Record<string, unknown> {
  const fields: Record<string, unknown> = { seq: exchange.seq, tokenRole: exchange.request.tokenRole ?? null, pool: exchange.pool ?? null, error: exchange.error ?? null };
  const res = exchange.response;
  if (res !== undefined) {
    fields['truncated'] = res.truncated;
    if (res.events !== undefined) fields['events'] = res.events;
    if (res.eventsOmitted !== undefined) fields['eventsOmitted'] = res.eventsOmitted;
    if (res.chunkTimes !== undefined) fields['chunkTimes'] = res.chunkTimes;
    if (res.chunkTimesOmitted !== undefined) fields['chunkTimesOmitted'] = res.chunkTimesOmitted;
    if (res.streamClosed !== undefined) fields['streamClosed'] = res.streamClosed;
  }
  return fields;
}

export function entry(recorded: Exchange, leftOut: boolean): Record<string, unknown> {
  const exchange = leftOut ? withoutContent(recorded) : recorded;
  return {
    startedDateTime: exchange.startedAt,
    time: Math.max(0, exchange.timings.totalMs),
    request: request(exchange, leftOut),
    response: response(exchange, leftOut),
    cache: {},
    timings: timings(exchange),
    _asi: asiFields(exchange),
  };
}

export interface HarOptions {
  /** Bytes of content kept in all; HAR_CONTENT_BYTES unless set. */
  contentBytes?: number;
}

/** One line of the transcript, where the HAR puts it and whether it keeps its content. */
interface PlannedEntry {
  seq: number;
  place: LinePlace;
  leftOut: boolean;
}

/** Which exchanges keep their content: in the order lines were written, while `budget` bytes of content last. */
class ContentBudget {
  #kept = 0;
  constructor(private readonly budget: number) {}

  /** Whether `exchange`, the next as written, is left without its content. */
  leavesOut(exchange: Exchange): boolean {
    const bytes = contentBytes(exchange);
    const leftOut = this.#kept + bytes > this.budget;
    if (!leftOut) this.#kept += bytes;
    return leftOut;
  }
}

/**
 * The HAR's entries, made as the run's record is read while the run waits on its target
 * (lib/runner/record-follower.ts), in the order its lines were written: each entry's text goes to
 * `file`, a working file of the run, and only its place is kept. At the end transcript.har puts
 * them in order, where reading every exchange of the transcript twice and writing each out took
 * most of the time from the run's last answer to its reports. The same exchanges in the same
 * order make the same entries as transcriptHarPieces without them (a self-test holds them equal).
 */
export class HarEntryLog {
  readonly #fd: number;
  readonly #budget: ContentBudget;
  readonly #planned: PlannedEntry[] = [];
  #offset = 0;
  /** Lines of the record that held no exchange, as its reader counted them (the HAR's comment says how many). */
  unreadableLines = 0;

  constructor(file: string, options: HarOptions = {}) {
    this.#fd = openSync(file, 'w+');
    this.#budget = new ContentBudget(options.contentBytes ?? HAR_CONTENT_BYTES);
  }

  /** The next exchange of the record, as its lines were written. */
  add(exchange: Exchange): void {
    const leftOut = this.#budget.leavesOut(exchange);
    const bytes = Buffer.from(jsonText(entry(exchange, leftOut)));
    writeSync(this.#fd, bytes);
    this.#planned.push({ seq: exchange.seq, place: { offset: this.#offset, length: bytes.length }, leftOut });
    this.#offset += bytes.length;
  }

  /** The entries by sequence number, and the text of each as it is read. */
  ordered(): { planned: PlannedEntry[]; textAt(place: LinePlace): string } {
    const planned = [...this.#planned].sort((a, b) => a.seq - b.seq);
    return {
      planned,
      textAt: (place) => {
        const bytes = Buffer.alloc(place.length);
        const read = readSync(this.#fd, bytes, 0, place.length, place.offset);
        return bytes.toString('utf8', 0, read);
      },
    };
  }

  close(): void {
    closeSync(this.#fd);
  }
}

/** The head of transcript.har, up to its entries. */
function harHead(report: Report, planned: readonly PlannedEntry[], unreadableLines: number): string {
  const comment = [`run ${report.meta.runId} against ${report.meta.target.baseUrl}`];
  if (unreadableLines > 0) comment.push(`${unreadableLines} transcript lines could not be read`);
  const leftOut = planned.filter((p) => p.leftOut).length;
  if (leftOut > 0) comment.push(`${leftOut} exchanges without their content (${LEFT_OUT})`);
  const log = { version: '1.2', creator: { name: report.meta.tool.name, version: report.meta.tool.version }, comment: comment.join('; ') };
  return `{"log":${jsonText(log).slice(0, -1)},"entries":[`;
}

/**
 * transcript.har: every exchange of the run, in order, as HAR 1.2 with `_asi` fields. Yielded in
 * pieces (the head, one entry each, the tail) that join into one JSON document, so that a file
 * of any size is written holding one exchange at a time. A first pass over the transcript
 * settles the order (by sequence number; lines are appended as responses complete) and which
 * exchanges keep their content (in the order lines were written, within `contentBytes`). With
 * `entries` (made while the run read its record), that pass is done and the entries are written.
 */
export async function* transcriptHarPieces(report: Report, transcriptFile: string, options: HarOptions & { entries?: HarEntryLog } = {}): AsyncGenerator<string> {
  if (options.entries !== undefined) {
    const { planned, textAt } = options.entries.ordered();
    yield harHead(report, planned, options.entries.unreadableLines);
    for (const [i, p] of planned.entries()) yield `${i === 0 ? '' : ','}${textAt(p.place)}`;
    yield ']}}\n';
    return;
  }
  const budget = new ContentBudget(options.contentBytes ?? HAR_CONTENT_BYTES);
  const planned: PlannedEntry[] = [];
  const unreadableLines = await eachExchange(transcriptFile, (exchange, place) => {
    planned.push({ seq: exchange.seq, place, leftOut: budget.leavesOut(exchange) });
  });
  planned.sort((a, b) => a.seq - b.seq);

  yield harHead(report, planned, unreadableLines);
  if (planned.length > 0) {
    const transcript = await open(transcriptFile, 'r');
    try {
      for (const [i, p] of planned.entries()) {
        yield `${i === 0 ? '' : ','}${jsonText(entry(exchangeAt(transcript, p.place), p.leftOut))}`;
      }
    } finally {
      await transcript.close();
    }
  }
  yield ']}}\n';
}
