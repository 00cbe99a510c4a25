/**
 * One request and what came back: the unit of evidence. Every writer (HTML, HAR, curl)
 * works from this record. Secrets are already replaced by placeholders such as
 * `$ASI_TOKEN` when an Exchange is created: nothing downstream needs to redact again.
 */
export interface RecordedRequest {
  method: string;
  url: string;
  /** Header names in lower case; Authorization shows a placeholder, never a token. */
  headers: Record<string, string>;
  body?: string;
  /** Token role used (`primary`, ...) or undefined when none was sent by the client. */
  tokenRole?: string;
  /**
   * What curl needs besides the request to open the same connection, when the run has any: CA
   * bundle, client certificate and key (paths relative to the working folder), the key's
   * passphrase and the proxy (as the `$VAR` that holds them).
   */
  transport?: RequestTransport;
}

export interface RequestTransport {
  cacert?: string;
  cert?: string;
  key?: string;
  pass?: string;
  proxy?: string;
}

export interface SseEventRecord {
  event: string;
  data: string;
  id?: string;
  /** Milliseconds since the request was sent. */
  atMs: number;
}

export interface RecordedResponse {
  status: number;
  headers: Record<string, string>;
  /** The body as text, cut at the excerpt limit. */
  body: string;
  bodyBytes: number;
  /** Bytes of the body as they came, when a content coding was undone (bodyBytes counts decoded bytes). */
  encodedBytes?: number;
  truncated: boolean;
  /** For event streams: events in arrival order (a record may keep only the first ones). */
  events?: SseEventRecord[];
  /** Events received and left out of this record (evidence and transcript keep a bounded number). */
  eventsOmitted?: number;
  /** For event streams: arrival of each chunk, ms since the request was sent. */
  chunkTimes?: number[];
  /** Chunk arrivals left out of this record. */
  chunkTimesOmitted?: number;
  /** For event streams: whether the server closed the stream within the read budget. */
  streamClosed?: boolean;
}

export interface Exchange {
  /** Sequence number within the run, for cross-references in reports. */
  seq: number;
  startedAt: string;
  request: RecordedRequest;
  response?: RecordedResponse;
  /** Transport failure (timeout, refused, too large, redirect refused): a stable code and a message. */
  error?: { code: string; message: string };
  timings: { totalMs: number; headersMs?: number };
  /** Pool charged when the token was used, from the method (§8.1). */
  pool?: 'read' | 'write';
  /**
   * The profile's fault hooks that were switched on when the request was sent (a §7 drill), by
   * name: a 503 then is the drill's answer, not an outage of the target's own.
   */
  faults?: string[];
}
