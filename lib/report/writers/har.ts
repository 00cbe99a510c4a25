import { STATUS_CODES } from 'node:http';
import type { Exchange } from '../../model/exchange.ts';
import type { Report } from '../report-model.ts';
import type { Transcript } from './transcript.ts';

/**
 * Characters of bodies and event data transcript.har keeps in all (read with this budget): a run
 * against a flooding target still writes a HAR of bounded size. Later exchanges keep their request
 * line, status and headers, and say that their content was left out.
 */
export const HAR_CONTENT_CHARS = 32 * 1024 * 1024;

const LEFT_OUT = `content left out: transcript.har keeps at most ${HAR_CONTENT_CHARS / 1024 / 1024} Mi characters of bodies and events in all`;

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
    bodySize: res.bodyBytes,
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

function entry(exchange: Exchange, leftOut: boolean): Record<string, unknown> {
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

/** transcript.har: every exchange of the run, in order, as HAR 1.2 with `_asi` fields. */
export function transcriptHar(report: Report, transcript: Transcript): string {
  const comment = [`run ${report.meta.runId} against ${report.meta.target.baseUrl}`];
  if (transcript.unreadableLines > 0) comment.push(`${transcript.unreadableLines} transcript lines could not be read`);
  const leftOut = transcript.contentOmitted ?? new Set<number>();
  if (leftOut.size > 0) comment.push(`${leftOut.size} exchanges without their content (${LEFT_OUT})`);
  const har = {
    log: {
      version: '1.2',
      creator: { name: report.meta.tool.name, version: report.meta.tool.version },
      comment: comment.join('; '),
      entries: transcript.exchanges.map((e) => entry(e, leftOut.has(e.seq))),
    },
  };
  return `${JSON.stringify(har)}\n`;
}
