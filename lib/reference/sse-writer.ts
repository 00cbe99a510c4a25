import type { ServerResponse } from 'node:http';
import { constants, createBrotliCompress } from 'node:zlib';
import type { SwitchSet } from './switches.ts';

/**
 * How the reference frames its event stream. The default is the plainest legal form (LF line
 * ends, `event:` and one `data:` line per event); the variants take the other forms the HTML
 * event-stream grammar allows, so the calibration proves the harness accepts them.
 */
export interface SseFraming {
  lineEnd: '\n' | '\r\n' | '\r';
  /** `: keepalive` comment lines between events. */
  comments: boolean;
  /** An `id:` line on every event. */
  ids: boolean;
  /** A `retry:` field before the first event. */
  retryMs?: number;
  /** The JSON of each event spread over several `data:` lines (the parser joins them with LF). */
  multilineData: boolean;
  /** A byte order mark before the first line (the grammar allows one). */
  bom: boolean;
  /** `data:{...}` with no space after the colon. */
  noSpace: boolean;
}

export function framingOf(variants: SwitchSet): SseFraming {
  const lineEnd = variants.has('conversation-framing-crlf') ? '\r\n' : variants.has('conversation-framing-cr') ? '\r' : '\n';
  const framing: SseFraming = {
    lineEnd,
    comments: variants.has('conversation-framing-comments'),
    ids: variants.has('conversation-framing-id-retry'),
    multilineData: variants.has('conversation-framing-multiline-data'),
    bom: variants.has('conversation-framing-bom'),
    noSpace: variants.has('conversation-framing-no-space'),
  };
  if (variants.has('conversation-framing-id-retry')) framing.retryMs = 3000;
  return framing;
}

/** The data lines of one event: the JSON text, spread over several lines when the framing asks. */
export function dataText(data: unknown, framing: SseFraming): string {
  // JSON.stringify escapes every LF and CR inside strings, so only the indentation breaks lines.
  return framing.multilineData ? JSON.stringify(data, null, 2) : JSON.stringify(data);
}

/** One event as text: `event:`, optional `id:`, a `data:` line per line of the payload, a blank line. */
export function frameEvent(name: string, payload: string, framing: SseFraming, id?: string): string {
  const sep = framing.noSpace ? ':' : ': ';
  const lines = [`event${sep}${name}`];
  if (id !== undefined) lines.push(`id${sep}${id}`);
  for (const line of payload.split('\n')) lines.push(`data${sep}${line}`);
  return lines.join(framing.lineEnd) + framing.lineEnd + framing.lineEnd;
}

/**
 * Writes one event stream to a response. Each event goes out in its own write as soon as it is
 * given, unless `buffered` is set (a defect: everything is held back and flushed at the end).
 */
export class SseWriter {
  readonly #res: ServerResponse;
  readonly #framing: SseFraming;
  readonly #buffered: boolean;
  readonly #compressed: boolean;
  /** Where event text goes: the response, or a brotli encoder before it (flushed at every write). */
  #out: { write(text: string): void; end(): void };
  #held = '';
  #count = 0;
  #clientGone = false;

  constructor(res: ServerResponse, framing: SseFraming, options: { buffered?: boolean; compressed?: boolean } = {}) {
    this.#res = res;
    this.#framing = framing;
    this.#buffered = options.buffered === true;
    this.#compressed = options.compressed === true;
    this.#out = { write: (text) => res.write(text), end: () => res.end() };
    res.on('close', () => {
      this.#clientGone = true;
    });
  }

  /** True once the client went away: the turn stops writing. */
  get clientGone(): boolean {
    return this.#clientGone || this.#res.destroyed;
  }

  open(status: number, headers: Record<string, string>): void {
    this.#res.writeHead(status, this.#compressed ? { ...headers, 'content-encoding': 'br', vary: 'Accept-Encoding' } : headers);
    this.#res.flushHeaders();
    if (this.#compressed) {
      const encoder = createBrotliCompress();
      encoder.pipe(this.#res);
      this.#out = {
        write: (text) => {
          encoder.write(text);
          encoder.flush(constants.BROTLI_OPERATION_FLUSH);
        },
        end: () => encoder.end(),
      };
    }
    let preamble = this.#framing.bom ? '\uFEFF' : '';
    if (this.#framing.comments) preamble += `: stream open${this.#framing.lineEnd}`;
    if (this.#framing.retryMs !== undefined) preamble += `retry: ${this.#framing.retryMs}${this.#framing.lineEnd}${this.#framing.lineEnd}`;
    if (preamble !== '') this.#write(preamble);
  }

  /** Writes an event whose payload is already text (JSON, or not, for a defect). */
  eventText(name: string, payload: string): void {
    this.#count += 1;
    let text = this.#framing.comments ? `: keepalive${this.#framing.lineEnd}` : '';
    text += frameEvent(name, payload, this.#framing, this.#framing.ids ? String(this.#count) : undefined);
    this.#write(text);
  }

  event(name: string, data: unknown): void {
    this.eventText(name, dataText(data, this.#framing));
  }

  end(): void {
    if (this.#buffered && this.#held !== '' && !this.clientGone) this.#out.write(this.#held);
    this.#held = '';
    this.#out.end();
  }

  #write(text: string): void {
    if (this.clientGone) return;
    if (this.#buffered) this.#held += text;
    else this.#out.write(text);
  }
}
