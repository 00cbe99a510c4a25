import type { ExchangeContext } from './exchange-context.ts';

/** §8.1 "Pools": the reference's own method table (kept apart from the harness's on purpose). */
const WRITE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

function poolFor(method: string): 'read' | 'write' {
  // Methods the spec names no pool for (OPTIONS, TRACE, ...) are charged as reads: the reference's choice.
  return WRITE.has(method) ? 'write' : 'read';
}

/**
 * Charges the request to its token's pool and sets the X-RateLimit-* headers. Returns false when
 * the response was already sent: 503 when the limiter store is down (fail-closed, §7), 429 when
 * the pool is spent. A refused request does no work and spends nothing (§8.1 rule 5).
 */
export function applyRateLimit(ctx: ExchangeContext): boolean {
  const { state } = ctx;
  if (state.faults.has('limiter_store_down')) {
    ctx.sendError(503, 'system.rate_limit_unavailable', 'transient', 'The rate limiter is unavailable; retry with backoff.');
    return false;
  }
  const pool = poolFor(ctx.method);
  ctx.pool = pool;
  const limiter = pool === 'read' ? state.readLimiter : state.writeLimiter;
  const key = ctx.token!.id;
  const decision = limiter.consume(key, state.now());
  ctx.headers['x-ratelimit-pool'] = pool;
  ctx.headers['x-ratelimit-limit'] = String(decision.limit);
  ctx.headers['x-ratelimit-remaining'] = String(decision.remaining);
  ctx.headers['x-ratelimit-reset'] = String(decision.resetS);
  if (!decision.allowed) {
    ctx.sendError(429, 'rate_limit.exceeded', 'rate_limited', `The ${pool} pool of this token is exhausted; retry after the Retry-After delay.`, undefined, {
      'retry-after': String(decision.retryAfterS ?? 1),
    });
    return false;
  }
  return true;
}
