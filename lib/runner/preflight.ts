import { parseEnvelope } from '../checks/error-envelope.ts';
import { jsonBody } from '../checks/json-body.ts';
import { PreflightError, TargetUnreachableError } from '../errors.ts';
import { hookHostNotes } from '../hooks/hook-hosts.ts';
import { HttpClient, limitsForTimeout, type ExchangeSequence, type HttpLimits, type SendOptions } from '../http/client.ts';
import { connectionHint, tlsPortHint } from '../http/connection-hint.ts';
import type { TransportOptions } from '../http/transport.ts';
import type { Exchange } from '../model/exchange.ts';
import type { ResolvedTarget } from '../profile/resolve-profile.ts';
import { ME_PATH } from '../spec-constants.ts';

/** The preflight waits less than a suite would: a wrong URL or token must end a run within seconds. */
export const PREFLIGHT_TIMEOUT_MS = 10_000;

export interface PreflightOptions {
  limits?: Partial<HttpLimits>;
  /** The same headers, TLS material and proxy as the suites: reachable must mean reachable for them. */
  transport?: TransportOptions;
  progress?: (line: string) => void;
  /** Numbers the preflight's exchanges within the run. */
  sequence?: ExchangeSequence;
  /** Called with every exchange the preflight completes: they belong to the run's record like any other. */
  onExchange?: (exchange: Exchange) => void;
  /** Aborts the preflight (an interrupt): the exchange under way ends at once, no other is sent. */
  signal?: AbortSignal;
}

async function unreachable(url: string, exchange: Exchange, transport: TransportOptions | undefined): Promise<TargetUnreachableError> {
  const e = exchange.error;
  const hint = e === undefined ? undefined : (connectionHint(e.code, url, transport) ?? (await tlsPortHint(e.code, url, transport)));
  return new TargetUnreachableError(url, e === undefined ? 'no answer' : `${e.code}: ${e.message}${hint === undefined ? '' : ` (${hint})`}`);
}

function isHtml(exchange: Exchange): boolean {
  return /^\s*text\/html/i.test(exchange.response?.headers['content-type'] ?? '');
}

function redirected(exchange: Exchange): string | undefined {
  const res = exchange.response;
  if (res === undefined || res.status < 300 || res.status > 399) return undefined;
  return `${exchange.request.method} ${exchange.request.url} answered ${res.status}${res.headers['location'] === undefined ? '' : ` to ${res.headers['location']}`}; redirects are never followed (a token must not travel on), so give the final URL as base_url`;
}

/**
 * Before any suite: base_url answers the spec's unauthenticated routes under it, the primary
 * token is accepted, and the target looks like an ASI v1 server rather than a web page. A wrong
 * URL or token ends the run here in a few seconds with one line (exit 2), instead of a minute of
 * failures that all say the same thing; a target that does not answer at all is exit 3.
 * Any other answer (a 5xx, a 429, a missing header) is left to the suites to judge.
 * First it names the fault hooks that point at another host than the target's.
 */
export async function preflight(target: ResolvedTarget, options: PreflightOptions = {}): Promise<void> {
  const baseUrl = target.profile.baseUrl;
  for (const note of hookHostNotes(target.profile)) options.progress?.(`preflight: note: ${note}`);
  // Every exchange of the preflight ends within its deadline: the run's --timeout, at most 10 s.
  const deadline = Math.min(options.limits?.totalMs ?? PREFLIGHT_TIMEOUT_MS, PREFLIGHT_TIMEOUT_MS);
  const limits: Partial<HttpLimits> = { ...options.limits, ...limitsForTimeout(deadline / 1000) };
  const transport = options.transport;
  const { signal } = options;
  const recording = {
    ...(transport === undefined ? {} : { transport }),
    ...(options.sequence === undefined ? {} : { sequence: options.sequence }),
    ...(options.onExchange === undefined ? {} : { onExchange: options.onExchange }),
  };
  const client = new HttpClient({ baseUrl, tokens: target.tokens, limits, ...recording });
  const stop = (): void => void client.destroy();
  signal?.addEventListener('abort', stop);
  const send = (via: HttpClient, request: SendOptions): Promise<Exchange> => {
    signal?.throwIfAborted();
    return via.send(request);
  };
  try {
    // > GET | /health | Uses a separate per-IP limiter. Consumes no token points.
    const health = await send(client, { path: '/health' });
    if (health.response === undefined) throw await unreachable(baseUrl, health, transport);
    const moved = redirected(health);
    if (moved !== undefined) throw new PreflightError(moved);
    if (health.response.status === 404 || health.response.status === 410) {
      let hint = 'base_url is the API root with the version segment last, e.g. https://api.example.com/v1 (§4, §9.1)';
      if (!/\/v1$/.test(baseUrl)) {
        // Another version segment (…/v2) is replaced, not extended.
        const v1 = `${baseUrl.replace(/\/v\d+$/, '')}/v1`;
        const versioned = new HttpClient({ baseUrl: v1, tokens: {}, limits, ...recording });
        const stopProbe = (): void => void versioned.destroy();
        signal?.addEventListener('abort', stopProbe);
        const probe = await send(versioned, { path: '/health' }).finally(() => {
          signal?.removeEventListener('abort', stopProbe);
          return versioned.close();
        });
        if (probe.response !== undefined && probe.response.status >= 200 && probe.response.status < 300) hint = `did you mean --base-url ${v1} ? (GET ${v1}/health answers ${probe.response.status})`;
        else hint = `base_url ends in the version segment, e.g. ${v1} (§4, §9.1)`;
      }
      throw new PreflightError(`no ASI v1 server at ${baseUrl}: GET ${baseUrl}/health answered ${health.response.status}; ${hint}`);
    }
    // > Every endpoint except the unauthenticated routes requires the header `Authorization: Bearer <API_TOKEN>`.
    const me = await send(client, { path: ME_PATH, token: 'primary' });
    if (me.response === undefined) throw await unreachable(baseUrl, me, transport);
    const meMoved = redirected(me);
    if (meMoved !== undefined) throw new PreflightError(meMoved);
    const status = me.response.status;
    const token = `tokens.primary (${target.tokens['primary']?.placeholder ?? 'the primary token'})`;
    if (status === 401) {
      const envelope = parseEnvelope(me);
      const code = envelope.ok ? envelope.error.code : 'no error envelope';
      throw new PreflightError(`token rejected: 401 ${code} at GET ${ME_PATH}; check ${token}: it must be a live token of this server's workspace`);
    }
    // A web page at any status (a sign-in page, a gateway's or a firewall's block page) is not this
    // interface, nor a 4xx whose body is not JSON: §7 "All error responses use this envelope: a
    // JSON object". A 2xx payload of /me is "not shown" (§4.3), so only a web page is refused
    // there; a 5xx or a 429 may come from anything in between and is left to the suites.
    const notJson = status >= 400 && status < 500 && status !== 429 && !jsonBody(me).ok;
    if (status === 404 || status === 410 || isHtml(me) || notJson) {
      const what = isHtml(me) ? `${status} with a web page (${me.response.headers['content-type']})` : notJson ? `${status} with a body that is not JSON` : String(status);
      // A TLS front that answers plain HTTP with a page of its own ("The plain HTTP request was sent to HTTPS port").
      const tls = status === 400 ? await tlsPortHint(undefined, baseUrl, transport) : undefined;
      throw new PreflightError(`${baseUrl} does not look like an ASI v1 server: GET ${ME_PATH} with ${token} answered ${what}; ${tls ?? '§4.3 names GET /me (token introspection) under base_url'}`);
    }
    options.progress?.(`preflight: GET /health ${health.response.status}, GET ${ME_PATH} ${status} with the primary token`);
  } finally {
    signal?.removeEventListener('abort', stop);
    await client.close();
  }
}
