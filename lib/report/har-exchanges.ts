import type { Exchange } from '../model/exchange.ts';

interface HarNameValue {
  name: string;
  value: string;
}

interface HarEntry {
  startedDateTime: string;
  time: number;
  request: { method: string; url: string; headers: HarNameValue[]; postData?: { text?: string } };
  response: { status: number; headers: HarNameValue[]; content?: { text?: string; size?: number; compression?: number }; bodySize?: number };
  _asi?: { seq?: number; tokenRole?: string | null; pool?: 'read' | 'write' | null; truncated?: boolean };
}

function headersOf(list: readonly HarNameValue[]): Record<string, string> {
  return Object.fromEntries(list.map((h) => [h.name.toLowerCase(), h.value]));
}

/**
 * The exchanges of a transcript.har, as the run recorded them, so far as HAR holds them: the
 * request and response with their headers and bodies (where the HAR kept them), the token role and
 * pool from the harness's `_asi` fields, in the order of their sequence numbers. What reads the
 * record (the coverage, the run-wide rules) reads a HAR the same way.
 */
export function exchangesOfHar(har: unknown): Exchange[] {
  const entries = ((har as { log?: { entries?: unknown } }).log?.entries ?? []) as HarEntry[];
  return entries
    .map((e, i): Exchange => {
      const asi = e._asi ?? {};
      const exchange: Exchange = {
        seq: asi.seq ?? i + 1,
        startedAt: e.startedDateTime,
        request: { method: e.request.method, url: e.request.url, headers: headersOf(e.request.headers) },
        timings: { totalMs: e.time },
      };
      if (e.request.postData?.text !== undefined) exchange.request.body = e.request.postData.text;
      if (typeof asi.tokenRole === 'string') exchange.request.tokenRole = asi.tokenRole;
      if (asi.pool === 'read' || asi.pool === 'write') exchange.pool = asi.pool;
      // Status 0: no response came (a transport failure).
      if (e.response.status !== 0) {
        const body = e.response.content?.text ?? '';
        exchange.response = { status: e.response.status, headers: headersOf(e.response.headers), body, bodyBytes: e.response.content?.size ?? body.length, truncated: asi.truncated === true };
        // A body whose content coding was undone: HAR's bodySize is what came over the wire.
        if (typeof e.response.content?.compression === 'number' && typeof e.response.bodySize === 'number') exchange.response.encodedBytes = e.response.bodySize;
      }
      return exchange;
    })
    .sort((a, b) => a.seq - b.seq);
}
