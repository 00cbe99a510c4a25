import type { Dispatcher } from 'undici';
import { request, errors as undiciErrors } from './undici-parts.ts';
import type { Exchange, RecordedRequest, RecordedResponse, RequestTransport } from '../model/exchange.ts';
import { poolOfMethod, type Pool } from '../spec-constants.ts';
import { Redactor, type Secret } from './redactor.ts';
import { pacingPoolOf } from './pacer.ts';
import { MAX_EVENTS, readEventStream, type StreamBudget } from './event-stream-reader.ts';
import type { Pacer } from './pacer.ts';
import { buildDispatcher } from './dispatcher.ts';
import { decodeBody, UNKNOWN_CODING_CODE } from './content-coding.ts';
import { requestTransportOf, transportSecrets, type TransportOptions } from './transport.ts';

export interface HttpLimits {
  connectTimeoutMs: number;
  headersTimeoutMs: number;
  /** Longest silence between two chunks of a body. */
  bodyTimeoutMs: number;
  /**
   * Deadline of the whole exchange, from sending to the last byte of the body: a target that
   * drips its body or sends endless `103 Early Hints` resets the other timers, never this one.
   * An event stream is read within it, under `stream`. Past it the exchange carries `ASI_DEADLINE`.
   */
  totalMs: number;
  /** Bodies past this are cut and the exchange carries the error `ASI_BODY_TOO_LARGE`. */
  maxResponseBytes: number;
  stream: StreamBudget;
}

export const DEFAULT_HTTP_LIMITS: HttpLimits = {
  connectTimeoutMs: 5_000,
  headersTimeoutMs: 15_000,
  bodyTimeoutMs: 15_000,
  totalMs: 30_000,
  maxResponseBytes: 4 * 1024 * 1024,
  stream: { totalMs: 30_000, idleMs: 10_000, maxBytes: 2 * 1024 * 1024, maxEvents: MAX_EVENTS },
};

/**
 * The limits `--timeout S` sets: the whole of every exchange, event streams included, within S
 * seconds. undici's own timers are backstops a second later, so that every overrun reads the same
 * (ASI_DEADLINE) instead of whichever timer happened to fire first.
 */
export function limitsForTimeout(seconds: number): Partial<HttpLimits> {
  const ms = seconds * 1000;
  const stream = DEFAULT_HTTP_LIMITS.stream;
  return {
    connectTimeoutMs: ms + 1000,
    headersTimeoutMs: ms + 1000,
    bodyTimeoutMs: ms + 1000,
    totalMs: ms,
    stream: { ...stream, totalMs: ms, idleMs: Math.min(stream.idleMs, ms) },
  };
}

/** The code of an exchange cut by its deadline (HttpLimits.totalMs). */
export const DEADLINE_CODE = 'ASI_DEADLINE';

export interface ClientOptions {
  baseUrl: string;
  /** Token values by role; never leave this module except as placeholders. */
  tokens: Record<string, Secret>;
  limits?: Partial<HttpLimits>;
  pacer?: Pacer;
  /** Called with every exchange once it is complete (transcript, request counts). */
  onExchange?: (exchange: Exchange) => void;
  /** Called once, with the reason, when the target counts as down (the run is then cut short). */
  onUnresponsive?: (reason: string) => void;
  /** Extra headers, TLS material and proxy of a target behind real infrastructure. */
  transport?: TransportOptions;
  /** Requests the client may have in flight to the target at once (its connections); 16 when absent. */
  maxInFlight?: number;
  /** The fault hooks switched on now (a drill): recorded on every exchange sent or answered while one is. */
  faultsOn?: () => readonly string[];
  /** Numbers this client's exchanges; one shared by every client of the process unless given. */
  sequence?: ExchangeSequence;
}

export interface SendOptions {
  method?: string;
  /** Path relative to base_url, e.g. `/credits/operations`. */
  path: string;
  /**
   * Query parameters, URL-encoded by the client; or a raw query string (without `?`) sent
   * byte for byte, for tests that must control the encoding.
   */
  query?: Record<string, string | number | boolean | undefined> | string;
  /** Role of the token to send (`primary`, ...); omit or null for none. */
  token?: string | null;
  /** An exact Authorization header value for auth probes; recorded redacted like everything else. */
  authorization?: string;
  /**
   * For auth probes: a role's token sent anywhere but `Authorization: Bearer` (§5.1), without the
   * suite ever holding it. Recorded redacted like everything else.
   */
  misplacedToken?: MisplacedToken;
  headers?: Record<string, string>;
  /** A JSON value (serialised, content-type set) or a raw string sent as is. */
  json?: unknown;
  body?: string;
  /** Read the response as an event stream, whatever its content-type says. */
  stream?: boolean;
  /** Bypass pacing: the rate-limit suite provokes 429s on purpose and must see them. */
  unpaced?: boolean;
}

/**
 * Where a misplaced token goes: under another Authorization scheme (`name` the scheme, empty for
 * the bare token), in the query string, a cookie, or a field of the JSON body.
 */
export interface MisplacedToken {
  role: string;
  as: 'scheme' | 'query' | 'cookie' | 'json-field';
  name: string;
  /** Under a scheme only: text written after the token (`Bearer <token> x`, a header of several words). */
  after?: string;
}

/**
 * Numbers a run's exchanges, from `first` on. A run sends from two threads (the preflight from the
 * main process, the suites from their worker), each with its own module state: each takes its own
 * sequence over a range of its own (the worker's starts after the preflight's last), so that `seq`
 * names one exchange of the run.
 */
export class ExchangeSequence {
  #last: number;
  constructor(first = 1) {
    this.#last = first - 1;
  }
  next(): number {
    this.#last += 1;
    return this.#last;
  }
  /** The number the next exchange takes. */
  get upcoming(): number {
    return this.#last + 1;
  }
}

const processSequence = new ExchangeSequence();

/** Consecutive requests without any response after which the target counts as down for the run. */
export const UNRESPONSIVE_AFTER = 4;

/** The code of a request not sent because the target counted as down. */
export const NOT_SENT_CODE = 'ASI_TARGET_UNRESPONSIVE';

/** Query string from a record, in insertion order, percent-encoding every reserved character. */
export function encodeQuery(query: SendOptions['query']): string {
  if (query === undefined) return '';
  if (typeof query === 'string') return query;
  const parts: string[] = [];
  for (const [k, v] of Object.entries(query)) {
    if (v === undefined) continue;
    parts.push(`${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`);
  }
  return parts.join('&');
}

function flattenHeaders(raw: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(raw)) {
    if (v === undefined) continue;
    out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
  }
  return out;
}

/**
 * The only way the harness talks to a target. One undici Agent per run with every timeout set,
 * a response-size cap, redirects never followed, and the Authorization header only ever sent to
 * the origin of base_url. Each exchange is recorded with secrets already replaced.
 */
export class HttpClient {
  readonly baseUrl: string;
  readonly limits: HttpLimits;
  readonly #origin: string;
  readonly #tokens: Record<string, Secret>;
  readonly #redactor: Redactor;
  readonly #agent: Dispatcher;
  /** Extra headers for base_url's origin (`--header`, profile `headers`); a test's own headers win. */
  readonly #extraHeaders: Record<string, string>;
  readonly #requestTransport: RequestTransport | undefined;
  readonly #pacer: Pacer | undefined;
  readonly #onExchange: ((exchange: Exchange) => void) | undefined;
  readonly #onUnresponsive: ((reason: string) => void) | undefined;
  readonly #faultsOn: () => readonly string[];
  readonly #sequence: ExchangeSequence;
  #silentInARow = 0;
  #unresponsive: string | undefined;
  /** Closing or destroying the agent, once either began: the other then has nothing left to do. */
  #ended: Promise<void> | undefined;

  constructor(options: ClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.#origin = new URL(this.baseUrl).origin;
    this.#tokens = options.tokens;
    this.#redactor = new Redactor([...Object.values(options.tokens), ...transportSecrets(options.transport)]);
    this.limits = { ...DEFAULT_HTTP_LIMITS, ...options.limits };
    this.#pacer = options.pacer;
    this.#onExchange = options.onExchange;
    this.#onUnresponsive = options.onUnresponsive;
    this.#faultsOn = options.faultsOn ?? (() => []);
    this.#sequence = options.sequence ?? processSequence;
    this.#agent = buildDispatcher(this.limits, options.transport, options.maxInFlight);
    this.#extraHeaders = Object.fromEntries((options.transport?.headers ?? []).map((h) => [h.name, h.value]));
    this.#requestTransport = requestTransportOf(options.transport, this.baseUrl);
  }

  hasToken(role: string): boolean {
    return this.#tokens[role] !== undefined;
  }

  /** The shell variable that reproduces a role's token in curl lines. */
  placeholderOf(role: string): string | undefined {
    return this.#tokens[role]?.placeholder;
  }

  /**
   * The public shape of a role's token (§5.2 `<prefix>_live_<hex>`): its prefix and hex length,
   * so that probes can send well-formed tokens the server never issued. Never the token itself.
   */
  tokenShape(role: string): { prefix: string; hexLength: number } | undefined {
    const value = this.#tokens[role]?.value;
    const m = value === undefined ? null : /^([^\s]+)_live_([0-9a-fA-F]+)$/.exec(value);
    return m === null ? undefined : { prefix: m[1]!, hexLength: m[2]!.length };
  }

  redact(text: string): string {
    return this.#redactor.redact(text);
  }

  urlFor(path: string, query?: SendOptions['query']): string {
    const q = encodeQuery(query);
    return `${this.baseUrl}${path}${q === '' ? '' : `?${q}`}`;
  }

  async send(options: SendOptions): Promise<Exchange> {
    if (options.misplacedToken !== undefined) return this.send(this.#misplace(options, options.misplacedToken));
    const method = (options.method ?? 'GET').toUpperCase();
    const url = this.urlFor(options.path, options.query);
    // Redirects are never followed, but keep the guarantee local too: a token (and any extra
    // header, which may be a gateway's key) only goes to base_url's origin.
    const sameOrigin = new URL(url).origin === this.#origin;
    const headers: Record<string, string> = { 'user-agent': 'asi-conformance', ...(sameOrigin ? this.#extraHeaders : {}), ...lowerKeys(options.headers ?? {}) };
    let body = options.body;
    if (options.json !== undefined) {
      body = JSON.stringify(options.json);
      headers['content-type'] ??= 'application/json';
    }
    const role = options.token ?? undefined;
    const secret = role === undefined ? undefined : this.#tokens[role];
    if (role !== undefined && secret === undefined) throw new Error(`no token configured for role "${role}"`);
    if (secret !== undefined && sameOrigin) headers['authorization'] = `Bearer ${secret.value}`;
    if (options.authorization !== undefined && sameOrigin) headers['authorization'] = options.authorization;

    const pool = poolOfMethod(method);
    if (this.#unresponsive !== undefined) return this.#refused(method, url, headers, body, role, pool);
    const pacing = pacingPoolOf(options.path, role, pool);
    const paced = pacing !== undefined && options.unpaced !== true && this.#pacer !== undefined;
    for (;;) {
      if (paced) await this.#pacer!.before(pacing.role, pacing.pool);
      const exchange = await this.#perform(method, url, headers, body, options.stream === true, role, pool);
      this.#noteTransport(exchange);
      if (paced) {
        const retryMs = this.#pacer!.after(pacing.role, pacing.pool, exchange);
        if (retryMs !== undefined) {
          // A 429 the harness did not provoke: honour Retry-After and send the same request again.
          this.#onExchange?.(exchange);
          await this.#pacer!.retryAfter(pacing.role, pacing.pool, retryMs);
          continue;
        }
      } else if (pacing !== undefined) {
        // An unpaced request still tells the budget service where its pool stands.
        this.#pacer?.observe(pacing.role, pacing.pool, exchange);
      }
      this.#onExchange?.(exchange);
      return exchange;
    }
  }

  /** The request with the token written where `misplaced` says, and no bearer token of its own. */
  #misplace(options: SendOptions, misplaced: MisplacedToken): SendOptions {
    const { misplacedToken: _placed, token: _token, ...rest } = options;
    const secret = this.#tokens[misplaced.role];
    if (secret === undefined) throw new Error(`no token configured for role "${misplaced.role}"`);
    const value = secret.value;
    switch (misplaced.as) {
      case 'scheme':
        return { ...rest, authorization: `${misplaced.name === '' ? value : `${misplaced.name} ${value}`}${misplaced.after ?? ''}` };
      case 'query': {
        const query = encodeQuery(rest.query);
        const param = `${encodeURIComponent(misplaced.name)}=${encodeURIComponent(value)}`;
        return { ...rest, query: query === '' ? param : `${query}&${param}` };
      }
      case 'cookie':
        return { ...rest, headers: { ...rest.headers, cookie: `${misplaced.name}=${value}` } };
      case 'json-field': {
        const json = typeof rest.json === 'object' && rest.json !== null && !Array.isArray(rest.json) ? rest.json : {};
        return { ...rest, json: { ...json, [misplaced.name]: value } };
      }
    }
  }

  /**
   * A target that stops answering must not turn a run into hours of timeouts: after a few
   * consecutive requests without any response, every later request fails at once and its checks
   * end inconclusive.
   */
  #noteTransport(exchange: Exchange): void {
    const code = exchange.error?.code ?? '';
    // A body dripped past the deadline is as good as no answer: it counts as silence too.
    const timedOut = code === DEADLINE_CODE || (exchange.response === undefined && /TIMEOUT|ECONNREFUSED|ECONNRESET|UND_ERR_SOCKET/.test(code));
    this.#silentInARow = timedOut ? this.#silentInARow + 1 : 0;
    if (this.#silentInARow >= UNRESPONSIVE_AFTER && this.#unresponsive === undefined) {
      this.#unresponsive = exchange.error?.code ?? 'no response';
      this.#onUnresponsive?.(`${UNRESPONSIVE_AFTER} requests in a row without a response: ${this.#unresponsive}`);
    }
  }

  #refused(method: string, url: string, headers: Record<string, string>, body: string | undefined, role: string | undefined, pool: Pool | undefined): Exchange {
    const request: RecordedRequest = { method, url: this.#redactor.redact(url), headers: this.#redactor.redactHeaders(headers) };
    if (body !== undefined) request.body = this.#redactor.redact(body);
    if (role !== undefined) request.tokenRole = role;
    if (this.#requestTransport !== undefined) request.transport = this.#requestTransport;
    const exchange: Exchange = {
      seq: this.#sequence.next(),
      startedAt: new Date().toISOString(),
      request,
      timings: { totalMs: 0 },
      error: { code: NOT_SENT_CODE, message: `not sent: the target stopped answering (${UNRESPONSIVE_AFTER} requests in a row: ${this.#unresponsive})` },
    };
    if (role !== undefined && pool !== undefined) exchange.pool = pool;
    this.#onExchange?.(exchange);
    return exchange;
  }

  async #perform(
    method: string,
    url: string,
    headers: Record<string, string>,
    body: string | undefined,
    asStream: boolean,
    role: string | undefined,
    pool: Pool | undefined,
  ): Promise<Exchange> {
    const recordedRequest: RecordedRequest = {
      method,
      url: this.#redactor.redact(url),
      headers: this.#redactor.redactHeaders(headers),
    };
    if (body !== undefined) recordedRequest.body = this.#redactor.redact(body);
    if (role !== undefined) recordedRequest.tokenRole = role;
    if (this.#requestTransport !== undefined) recordedRequest.transport = this.#requestTransport;
    const exchange: Exchange = {
      seq: this.#sequence.next(),
      startedAt: new Date().toISOString(),
      request: recordedRequest,
      timings: { totalMs: 0 },
    };
    if (role !== undefined && pool !== undefined) exchange.pool = pool;
    const faultsAtStart = this.#faultsOn();
    const started = Date.now();
    const deadline = new AbortController();
    let headersCame = false;
    // Made only when the deadline passes: an error's stack costs every request that makes one.
    // Before the headers, the deadline says so; after them, the body's message adds what came.
    const timer = setTimeout(() => {
      const what = headersCame ? 'no complete answer' : 'no response';
      deadline.abort(Object.assign(new Error(`${what} within the deadline of ${this.limits.totalMs} ms`), { code: DEADLINE_CODE }));
    }, this.limits.totalMs);
    try {
      const res = await request(url, {
        method: method as 'GET',
        headers,
        body: body ?? null,
        dispatcher: this.#agent,
        signal: deadline.signal,
      });
      exchange.timings.headersMs = Date.now() - started;
      headersCame = true;
      const resHeaders = this.#redactor.redactHeaders(flattenHeaders(res.headers));
      const isStream = asStream || (resHeaders['content-type'] ?? '').toLowerCase().startsWith('text/event-stream');
      const response: RecordedResponse = { status: res.statusCode, headers: resHeaders, body: '', bodyBytes: 0, truncated: false };
      // A compressed body is judged as what it encodes; its bytes count decoded (content-coding.ts).
      const decoded = decodeBody(res.body, resHeaders['content-encoding']);
      const unknownCoding = (bytes: number): boolean => {
        if (!('unknown' in decoded) || bytes === 0) return false;
        exchange.error = { code: UNKNOWN_CODING_CODE, message: `the body (HTTP ${res.statusCode}, ${bytes} bytes) has the content coding ${JSON.stringify(decoded.unknown)}, which the harness cannot undo: it is not judged` };
        exchange.timings.totalMs = Date.now() - started;
        this.#noteFaults(exchange, faultsAtStart);
        return true;
      };
      if (isStream && method !== 'HEAD') {
        // The reader keeps its own budget, cut to what is left of the deadline, and stops cleanly.
        clearTimeout(timer);
        const budget = { ...this.limits.stream, totalMs: Math.min(this.limits.stream.totalMs, this.limits.totalMs) };
        const reading = await readEventStream(decoded.body, started, budget);
        if (unknownCoding(reading.bytes)) return exchange;
        const redacted = this.#redactor.redactStream(reading.text, reading.events);
        response.body = redacted.text;
        response.bodyBytes = reading.bytes;
        response.events = redacted.events;
        response.chunkTimes = reading.chunkTimes;
        response.streamClosed = reading.closed;
        if (reading.cutShort !== undefined) {
          response.truncated = reading.cutShort === 'too-large';
          const what = reading.tooManyEvents === true ? ` (more than ${budget.maxEvents ?? 0} events)` : '';
          exchange.error = { code: streamErrorCode(reading.cutShort), message: `event stream ${reading.cutShort} after ${reading.bytes} bytes${what}` };
        }
      } else {
        const { text, bytes, cut } = await readCapped(decoded.body, this.limits.maxResponseBytes);
        if (unknownCoding(bytes)) return exchange;
        if (cut !== undefined && cut !== 'too-large') {
          // Half a body is no answer to judge: the exchange has no response, as when the headers never came.
          const e = describeTransportError(cut.error, this.#redactor);
          exchange.error = { code: e.code, message: `${e.message} (HTTP ${res.statusCode}, ${bytes} bytes of body received)` };
          exchange.timings.totalMs = Date.now() - started;
          this.#noteFaults(exchange, faultsAtStart);
          return exchange;
        }
        response.body = this.#redactor.redact(text);
        response.bodyBytes = bytes;
        response.truncated = cut === 'too-large';
        if (cut === 'too-large') exchange.error = { code: 'ASI_BODY_TOO_LARGE', message: `response body exceeds ${this.limits.maxResponseBytes} bytes` };
      }
      const encodedBytes = 'unknown' in decoded ? undefined : decoded.encodedBytes();
      if (encodedBytes !== undefined) response.encodedBytes = encodedBytes;
      exchange.response = response;
    } catch (err) {
      exchange.error = describeTransportError(err, this.#redactor);
    } finally {
      clearTimeout(timer);
    }
    exchange.timings.totalMs = Date.now() - started;
    this.#noteFaults(exchange, faultsAtStart);
    return exchange;
  }

  /** A drill's fault on when the request left or when its answer ended: the exchange says so. */
  #noteFaults(exchange: Exchange, atStart: readonly string[]): void {
    const faults = [...new Set([...atStart, ...this.#faultsOn()])].sort();
    if (faults.length > 0) exchange.faults = faults;
  }

  /** Closes the connections once the exchanges under way have ended. */
  close(): Promise<void> {
    this.#ended ??= this.#agent.close();
    return this.#ended;
  }

  /** Ends every exchange under way at once (an interrupted run): each is recorded with the transport error. */
  destroy(): Promise<void> {
    this.#ended ??= this.#agent.destroy();
    return this.#ended;
  }
}

function streamErrorCode(cut: 'total-timeout' | 'idle-timeout' | 'too-large'): string {
  return cut === 'too-large' ? 'ASI_STREAM_TOO_LARGE' : cut === 'idle-timeout' ? 'ASI_STREAM_STALLED' : 'ASI_STREAM_TIMEOUT';
}

/**
 * Bytes kept of a body cut at maxResponseBytes. A cut body is judged no further than "cut" (it is
 * no whole document), so only evidence and the transcript read it, and they keep less than this;
 * holding megabytes of it through a test, and of every body cut after it, would cost the run.
 */
const KEPT_OF_CUT_BODY = 64 * 1024;

/** The text of the first `maxBytes` of `chunks`, decoded on its own (not cut from a longer string). */
function startOf(chunks: Buffer[], maxBytes: number): string {
  const total = chunks.reduce((n, c) => n + c.length, 0);
  return Buffer.concat(chunks, Math.min(total, maxBytes)).toString('utf8');
}

/**
 * Reads a body up to `maxBytes`; of a longer one, keeps only its start (KEPT_OF_CUT_BODY). A body
 * that fails midway (the deadline, a reset) does not throw: the caller learns why it stopped and
 * how many bytes came, and says so.
 */
async function readCapped(
  body: AsyncIterable<Buffer> & { destroy: (err?: Error) => unknown },
  maxBytes: number,
): Promise<{ text: string; bytes: number; cut?: 'too-large' | { error: unknown } }> {
  const chunks: Buffer[] = [];
  let bytes = 0;
  try {
    for await (const chunk of body) {
      bytes += chunk.length;
      if (bytes > maxBytes) {
        chunks.push(chunk.subarray(0, Math.max(0, chunk.length - (bytes - maxBytes))));
        body.destroy(new Error('response too large'));
        return { text: startOf(chunks, Math.min(maxBytes, KEPT_OF_CUT_BODY)), bytes, cut: 'too-large' };
      }
      chunks.push(chunk);
    }
  } catch (error) {
    return { text: Buffer.concat(chunks).toString('utf8'), bytes, cut: { error } };
  }
  return { text: Buffer.concat(chunks).toString('utf8'), bytes };
}

function describeTransportError(err: unknown, redactor: Redactor): { code: string; message: string } {
  const e = err as { code?: string; message?: string; cause?: { code?: string; message?: string } };
  const code = e.code ?? e.cause?.code ?? (err instanceof undiciErrors.UndiciError ? 'UND_ERR' : 'ASI_TRANSPORT');
  const message = e.message ?? e.cause?.message ?? String(err);
  return { code, message: redactor.redact(message) };
}

function lowerKeys(h: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h)) out[k.toLowerCase()] = v;
  return out;
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Sleeps until the Unix ms `atMs` (at once when it has passed). */
export function sleepUntil(atMs: number): Promise<void> {
  return sleep(Math.max(0, atMs - Date.now()));
}
