import type { Exchange } from '../../lib/model/exchange.ts';

let seq = 0;

/** Unix ms the fixtures' clock starts at (a whole second, so Reset arithmetic stays exact). */
export const T0 = 1_800_000_000_000;

export interface FixtureOptions {
  method?: string;
  path?: string;
  role?: string;
  /** Sent at T0 + at ms; answered `ms` later. */
  at?: number;
  ms?: number;
  body?: unknown;
  headers?: Record<string, string>;
}

/** A recorded exchange as the client would leave it. */
export function exchange(status: number, options: FixtureOptions = {}): Exchange {
  const at = options.at ?? 0;
  const body = options.body === undefined ? '' : typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
  return {
    seq: ++seq,
    startedAt: new Date(T0 + at).toISOString(),
    request: { method: options.method ?? 'GET', url: `http://t.invalid/v1${options.path ?? '/me'}`, headers: {}, tokenRole: options.role ?? 'secondary' },
    response: { status, headers: options.headers ?? {}, body, bodyBytes: body.length, truncated: false },
    timings: { totalMs: options.ms ?? 5 },
  };
}

/** Pool headers of a pool with `remaining` left and a Reset `resetInS` seconds after T0 + at. */
export function poolHeaders(pool: string, limit: number, remaining: number, resetS: number): Record<string, string> {
  return {
    'x-ratelimit-pool': pool,
    'x-ratelimit-limit': String(limit),
    'x-ratelimit-remaining': String(remaining),
    'x-ratelimit-reset': String(resetS),
  };
}

export const RESET = (T0 + 60_000) / 1000;

/** A served read at `at` ms with `remaining` left (limit 600). */
export function served(remaining: number, at = 0, extra: Partial<FixtureOptions> = {}): Exchange {
  return exchange(200, { at, ...extra, headers: { ...poolHeaders('read', 600, remaining, RESET), ...extra.headers } });
}

/** A 429 of the read pool at `at` ms with a Retry-After and the full envelope. */
export function refused(at = 0, retryAfter = '60', extra: Partial<FixtureOptions> = {}): Exchange {
  return exchange(429, {
    at,
    body: { error: { code: 'rate_limit.exceeded', category: 'rate_limited', message: 'm', request_id: 'req_1' } },
    ...extra,
    headers: { ...poolHeaders('read', 600, 0, RESET), 'retry-after': retryAfter, 'x-request-id': 'req_1', ...extra.headers },
  });
}
