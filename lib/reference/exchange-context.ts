import type { IncomingMessage, ServerResponse } from 'node:http';
import { gzipSync } from 'node:zlib';
import type { TokenRecord } from './tokens.ts';
import type { ReferenceState } from './state.ts';

/** Largest request body the reference reads; more answers 413 with the envelope. */
export const MAX_REQUEST_BODY_BYTES = 256 * 1024;

export type BodyResult = { ok: true; text: string } | { ok: false; reason: 'too-large' | 'aborted' };

export type Category = 'permanent' | 'transient' | 'rate_limited';

/** One request being answered: what every route handler gets. */
export class ExchangeContext {
  /** Headers to add to whatever is sent (rate-limit headers, request id). */
  readonly headers: Record<string, string> = {};
  token: TokenRecord | undefined;
  /** Pool the request was charged to, once the limiter ran. */
  pool: 'read' | 'write' | undefined;
  params: Record<string, string> = {};
  /** The JSON body's `access_token` field (defect `auth-body-token-accepted` only). */
  bodyFieldToken: string | undefined;
  /** The `request_id` an error body carries instead of the X-Request-Id (set by defects only). */
  errorRequestId: string | undefined;

  constructor(
    readonly req: IncomingMessage,
    readonly res: ServerResponse,
    readonly url: URL,
    /** Path below the base path, e.g. `/credits/operations`. */
    readonly path: string,
    readonly requestId: string,
    readonly state: ReferenceState,
  ) {
    this.headers['x-request-id'] = requestId;
  }

  /** Leaves the X-RateLimit-* headers out of whatever is sent (defects only). */
  dropPoolHeaders(): void {
    for (const name of Object.keys(this.headers)) if (name.startsWith('x-ratelimit-')) delete this.headers[name];
  }

  get method(): string {
    return (this.req.method ?? 'GET').toUpperCase();
  }

  header(name: string): string | undefined {
    const v = this.req.headers[name.toLowerCase()];
    return Array.isArray(v) ? v.join(', ') : v;
  }

  sendJson(status: number, body: unknown, extra: Record<string, string> = {}): void {
    const text = JSON.stringify(body);
    this.send(status, text, { 'content-type': 'application/json; charset=utf-8', ...extra });
  }

  /** The header of a defect that labels a JSON body text/plain (the body unchanged); none while the switch is off. */
  mislabelledIf(defect: string): Record<string, string> {
    return this.state.defects.has(defect) ? { 'content-type': 'text/plain; charset=utf-8' } : {};
  }

  send(status: number, text: string, extra: Record<string, string> = {}): void {
    if (this.res.headersSent) return;
    // Variant: every body gzipped though the request asked for no coding (RFC 9110 §12.5.3 allows
    // any then), as a gateway that compresses everything does. HEAD says what GET would send.
    const compressed = text !== '' && this.state.variants.has('transport-compressed');
    const body = compressed ? gzipSync(text) : text;
    const coding: Record<string, string> = compressed ? { 'content-encoding': 'gzip', vary: 'Accept-Encoding' } : {};
    const headers = { ...this.headers, ...extra, ...coding, 'content-length': String(Buffer.byteLength(body)) };
    this.res.writeHead(status, headers);
    this.res.end(this.method === 'HEAD' ? undefined : body);
  }

  /** §7: `{"error": {code, category, message, request_id, details?}}`, request_id equal to X-Request-Id. */
  sendError(status: number, code: string, category: Category, message: string, details?: Record<string, unknown>, extra: Record<string, string> = {}): void {
    const defects = this.state.defects;
    const routeError = status === 404 || status === 405;
    const wireCategory = routeError && defects.has('errors-category-unknown') ? 'client_error' : category;
    const requestId = this.errorRequestId ?? (defects.has('errors-request-id-mismatch') ? `${this.requestId}-body` : this.requestId);
    const wireStatus = code === 'auth.token_missing' && defects.has('auth-token-missing-403') ? 403 : status;
    const wireMessage = routeError && defects.has('errors-message-empty') ? '' : this.state.variants.has('errors-other-wording') ? otherWording(status, code) : message;
    const wireCode = routeError && defects.has('errors-code-empty') ? '' : code;
    const error: Record<string, unknown> = { code: wireCode, category: wireCategory, message: wireMessage, request_id: requestId };
    if (details !== undefined) error['details'] = details;
    // Variant: fields of the vendor's own inside `error`, which §7's envelope leaves open.
    if (this.state.variants.has('errors-extra-fields')) Object.assign(error, { docs_url: `https://docs.example.com/errors/${code}`, retryable: category === 'transient', trace_id: `tr-${requestId}` });
    const labelled = { ...extra, ...this.mislabelledIf('errors-json-as-text-plain'), ...(wireStatus === 401 ? this.state.unauthorizedPoolHeaders() : {}) };
    this.sendJson(wireStatus, routeError && defects.has('errors-envelope-flat') ? error : { error }, labelled);
  }

  /** The body as read once (a defect may read it before the route does). */
  private body: Promise<BodyResult> | undefined;

  /** Reads the request body, refusing more than MAX_REQUEST_BODY_BYTES; later calls get the same read. */
  readBody(): Promise<BodyResult> {
    this.body ??= this.readBodyOnce();
    return this.body;
  }

  /** A field of the body read as a JSON object (what some defects look at); undefined for any other body. */
  async bodyField(name: string): Promise<unknown> {
    const body = await this.readBody();
    if (!body.ok) return undefined;
    try {
      const parsed: unknown = JSON.parse(body.text);
      return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>)[name] : undefined;
    } catch {
      return undefined;
    }
  }

  private readBodyOnce(): Promise<BodyResult> {
    return new Promise((resolve) => {
      const chunks: Buffer[] = [];
      let size = 0;
      let done = false;
      this.req.on('data', (chunk: Buffer) => {
        if (done) return;
        size += chunk.length;
        if (size > MAX_REQUEST_BODY_BYTES) {
          done = true;
          resolve({ ok: false, reason: 'too-large' });
          return;
        }
        chunks.push(chunk);
      });
      this.req.on('end', () => {
        if (!done) resolve({ ok: true, text: Buffer.concat(chunks).toString('utf8') });
        done = true;
      });
      this.req.on('error', () => {
        if (!done) resolve({ ok: false, reason: 'aborted' });
        done = true;
      });
    });
  }
}

export type RouteHandler = (ctx: ExchangeContext) => void | Promise<void>;

export interface Route {
  /** Path template below the base path, with `{name}` segments. */
  path: string;
  methods: string[];
  handler: RouteHandler;
  /** Unauthenticated routes (§4.2) skip bearer auth and the token limiter. */
  public?: boolean;
  /**
   * Whether the resource the path names exists for the token's workspace (params set); the
   * handler answers 404 when it does not. Variant `ratelimit-lookup-before-limiter` asks first.
   */
  exists?: (ctx: ExchangeContext) => boolean;
}

/**
 * Variant `errors-other-wording`: every error message in another vendor's words, terse and with
 * the status first. §7: "Human-readable English text. Clients must not match on it."
 */
function otherWording(status: number, code: string): string {
  return `Request failed with HTTP ${status} (${code.replace(/[._]/g, ' ')}). See the documentation for this error code.`;
}
