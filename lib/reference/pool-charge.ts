import type { ExchangeContext } from './exchange-context.ts';
import {
  AllBackAfterLastSpendLimiter,
  BackAfterFirstRefusalLimiter,
  FixedWindowLimiter,
  RollingWindowLimiter,
  SlidingWindowCounterLimiter,
  TokenBucketLimiter,
  type LimitDecision,
  type PoolLimiter,
} from './rate-limiter.ts';
import type { ReferenceState } from './state.ts';

type PoolName = 'read' | 'write';

/** §8.1 "Pools": the reference's own method table (kept apart from the harness's on purpose). */
const WRITE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

const POOL_HEADERS = ['x-ratelimit-pool', 'x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'] as const;

/** The message routes of the reference (§4.3; paths fixed by the reference, see docs/reference.md). */
const MESSAGE_ROUTE = /^\/(deal|company)-agents\/[^/]+\/messages$/;
const LEDGER_ROUTE = '/credits/operations';

function isLedgerRead(ctx: ExchangeContext): boolean {
  return ctx.path === LEDGER_ROUTE && ctx.method !== 'POST';
}

function isStreamedPost(ctx: ExchangeContext): boolean {
  return ctx.method === 'POST' && (ctx.header('accept') ?? '').includes('text/event-stream');
}

/** Defects that charge one kind of request two points (the headers count both). */
function chargedTwice(ctx: ExchangeContext): boolean {
  const d = ctx.state.defects;
  return (
    (d.has('ratelimit-ledger-charged-twice') && isLedgerRead(ctx)) ||
    (d.has('ratelimit-stream-charged-twice') && isStreamedPost(ctx)) ||
    (d.has('conversation-job-poll-charged-twice') && ctx.method === 'GET' && ctx.path.startsWith('/message-jobs/'))
  );
}

function poolFor(ctx: ExchangeContext): PoolName {
  if (ctx.method === 'HEAD' && ctx.state.defects.has('ratelimit-head-as-write')) return 'write';
  // Conversation defects (lib/reference/defects/conversation.ts): job polls charged as writes,
  // message POSTs (the job POST among them; the body is not read yet) charged as reads.
  if (ctx.method === 'GET' && ctx.path.startsWith('/message-jobs/') && ctx.state.defects.has('conversation-job-poll-write-pool')) return 'write';
  if (ctx.method === 'POST' && MESSAGE_ROUTE.test(ctx.path) && ctx.state.defects.has('conversation-job-post-read-pool')) return 'read';
  // Methods the spec names no pool for (OPTIONS, TRACE, ...) are charged as reads: the reference's choice.
  return WRITE.has(ctx.method) ? 'write' : 'read';
}

/** Limiters that only some defects use, made once per server. */
interface DefectLimiters {
  fixed: Record<PoolName, FixedWindowLimiter>;
  /** Wrong limiters that a burst spent at once cannot tell from a rolling window, by defect name. */
  wrong: Map<string, Record<PoolName, PoolLimiter>>;
  /** One point more than the advertised limit. */
  lenient: Record<PoolName, RollingWindowLimiter>;
  /** A tenth of the advertised limit, while the headers count from the whole of it. */
  hidden: Record<PoolName, RollingWindowLimiter>;
  /** Set once the store was seen down: the latching defect never recovers from it. */
  latched: boolean;
}

const defectLimiters = new WeakMap<ReferenceState, DefectLimiters>();

function tenth(limit: number): number {
  return Math.max(1, Math.floor(limit / 10));
}

function limitersOf(state: ReferenceState): DefectLimiters {
  let found = defectLimiters.get(state);
  if (found === undefined) {
    const w = state.limits.windowS * 1000;
    found = {
      fixed: { read: new FixedWindowLimiter(state.limits.read, w), write: new FixedWindowLimiter(state.limits.write, w) },
      wrong: new Map(
        Object.entries(WRONG_LIMITERS).map(([name, Make]) => [name, { read: new Make(state.limits.read, w), write: new Make(state.limits.write, w) }]),
      ),
      lenient: { read: new RollingWindowLimiter(state.limits.read + 1, w), write: new RollingWindowLimiter(state.limits.write + 1, w) },
      hidden: { read: new RollingWindowLimiter(tenth(state.limits.read), w), write: new RollingWindowLimiter(tenth(state.limits.write), w) },
      latched: false,
    };
    defectLimiters.set(state, found);
  }
  return found;
}

/** Defects whose limiter is another algorithm than the rolling window (lib/reference/rate-limiter.ts). */
const WRONG_LIMITERS: Record<string, new (limit: number, windowMs: number) => PoolLimiter> = {
  'ratelimit-window-from-first-spend': class extends FixedWindowLimiter {
    constructor(limit: number, windowMs: number) {
      super(limit, windowMs, true);
    }
  },
  'ratelimit-token-bucket': TokenBucketLimiter,
  'ratelimit-all-back-after-last-spend': AllBackAfterLastSpendLimiter,
  'ratelimit-sliding-window-counter': SlidingWindowCounterLimiter,
  'ratelimit-all-back-after-first-refusal': BackAfterFirstRefusalLimiter,
};

function limiterFor(state: ReferenceState, pool: PoolName): PoolLimiter {
  const d = state.defects;
  for (const name of Object.keys(WRONG_LIMITERS)) if (d.has(name)) return limitersOf(state).wrong.get(name)![pool];
  if (d.has('ratelimit-single-pool')) return state.readLimiter;
  if (d.has('ratelimit-fixed-window')) return limitersOf(state).fixed[pool];
  if (d.has('ratelimit-lenient-limit')) return limitersOf(state).lenient[pool];
  if (d.has('ratelimit-hidden-lower-limit')) return limitersOf(state).hidden[pool];
  return pool === 'read' ? state.readLimiter : state.writeLimiter;
}

function decide(ctx: ExchangeContext, pool: PoolName): LimitDecision {
  const { state } = ctx;
  const token = ctx.token!;
  // §5.5: "several tokens in one workspace each have their own budget" (the defects share it).
  const shared = state.defects.has('ratelimit-workspace-budget') || (pool === 'write' && state.defects.has('ratelimit-workspace-write-budget'));
  const key = shared ? `workspace:${token.workspace}` : token.id;
  const limiter = limiterFor(state, pool);
  const now = state.now();
  let decision =
    state.variants.has('ratelimit-refused-request-charged') && limiter instanceof RollingWindowLimiter
      ? limiter.consumeChargingRefusals(key, now)
      : limiter.consume(key, now);
  // Defect: GET /me spends a point of the write pool besides its own read point.
  if (decision.allowed && pool === 'read' && ctx.path === '/me' && state.defects.has('ratelimit-me-spends-write')) limiterFor(state, 'write').charge(key, now);
  if (decision.allowed && chargedTwice(ctx)) {
    limiter.charge(key, now);
    decision = { ...decision, remaining: Math.max(0, decision.remaining - 1) };
  }
  const nominal = pool === 'read' ? state.limits.read : state.limits.write;
  if (state.defects.has('ratelimit-lenient-limit')) return { ...decision, limit: nominal, remaining: Math.max(0, decision.remaining - 1) };
  if (state.defects.has('ratelimit-single-pool')) return { ...decision, limit: nominal, remaining: Math.min(nominal, decision.remaining) };
  if (state.defects.has('ratelimit-hidden-lower-limit')) {
    const spent = tenth(nominal) - decision.remaining;
    return { ...decision, limit: nominal, remaining: nominal - spent };
  }
  return decision;
}

function resetHeader(state: ReferenceState, decision: LimitDecision): string {
  const d = state.defects;
  const nowS = Math.floor(state.now() / 1000);
  if (d.has('ratelimit-reset-too-early')) return String(nowS);
  const resetS = state.variants.has('ratelimit-reset-full-refill') ? decision.refilledS : decision.resetS;
  if (d.has('ratelimit-reset-milliseconds')) return String(resetS * 1000);
  if (d.has('ratelimit-reset-delta')) return String(Math.max(0, resetS - nowS));
  return String(resetS);
}

function limitHeader(state: ReferenceState, pool: PoolName, decision: LimitDecision): string {
  // A plausible configuration drift: round numbers that are not the spec's.
  if (state.defects.has('ratelimit-wrong-limit')) return pool === 'read' ? '1000' : '100';
  return String(decision.limit);
}

function remainingHeader(state: ReferenceState, decision: LimitDecision): string {
  if (state.defects.has('ratelimit-remaining-stuck')) return String(decision.limit - 1);
  return String(decision.remaining);
}

/** The Retry-After header value, or undefined to leave it out (defect). */
function retryAfterHeader(state: ReferenceState, pool: PoolName, decision: LimitDecision): string | undefined {
  const d = state.defects;
  const seconds = decision.retryAfterS ?? 1;
  if (d.has('ratelimit-retry-after-missing')) return undefined;
  if (d.has('ratelimit-retry-after-zero')) return '0';
  if (d.has('ratelimit-retry-after-short') || (pool === 'write' && d.has('ratelimit-write-retry-after-short'))) return String(Math.floor(seconds / 2));
  if (d.has('ratelimit-retry-after-http-date')) return new Date(state.now() + seconds * 1000).toUTCString();
  // Variant: a conservative server that doubles the wait; a client obeying it is never refused.
  if (state.variants.has('ratelimit-retry-after-upper-bound')) return String(seconds * 2);
  return String(seconds);
}

/** Defect `ratelimit-header-missing-on-400`: a 400 goes out without the pool headers. */
function dropPoolHeadersOn400(ctx: ExchangeContext): void {
  const send = ctx.send.bind(ctx);
  ctx.send = (status, text, extra) => {
    if (status === 400) for (const h of POOL_HEADERS) delete ctx.headers[h];
    send(status, text, extra);
  };
}

/** Defect `ratelimit-refused-post-does-work`: the refused message is still recorded in the ledger. */
function appendRefusedMessage(ctx: ExchangeContext): void {
  const m = MESSAGE_ROUTE.exec(ctx.path);
  if (ctx.method !== 'POST' || m === null) return;
  const feature = m[1] === 'deal' ? 'deal_agent' : 'company_agent';
  ctx.state.ledger.append(ctx.token!.workspace, { operation_type: 'agent_message', feature, credits: 1, metadata: {} }, ctx.state.now());
}

/**
 * Defect `ratelimit-refused-job-does-work`: a refused job-mode POST (`"async": true` in its body)
 * still queues its job, whose row lands once the body is read, a moment after the 429.
 */
function appendRefusedJob(ctx: ExchangeContext): void {
  if (ctx.method !== 'POST' || !MESSAGE_ROUTE.test(ctx.path)) return;
  void ctx.bodyField('async').then((jobMode) => {
    if (jobMode === true) appendRefusedMessage(ctx);
  });
}

function refuse(ctx: ExchangeContext, pool: PoolName, decision: LimitDecision): void {
  const { state } = ctx;
  const d = state.defects;
  if (d.has('ratelimit-refused-post-does-work') || (d.has('ratelimit-refused-stream-does-work') && isStreamedPost(ctx))) appendRefusedMessage(ctx);
  else if (d.has('ratelimit-refused-job-does-work')) appendRefusedJob(ctx);
  const extra: Record<string, string> = {};
  const bare = d.has('ratelimit-ledger-429-bare') && isLedgerRead(ctx);
  // Defect: the ledger's own 429 has the envelope but neither the pool headers nor Retry-After.
  if (bare) for (const h of POOL_HEADERS) delete ctx.headers[h];
  const retryAfter = bare ? undefined : retryAfterHeader(state, pool, decision);
  if (retryAfter !== undefined) extra['retry-after'] = retryAfter;
  const message = `The ${pool} pool of this token is exhausted; retry after the Retry-After delay.`;
  if (d.has('ratelimit-429-without-request-id')) {
    // The body of the spec's published example: code, category and message only.
    ctx.sendJson(429, { error: { code: 'rate_limit.exceeded', category: 'rate_limited', message } }, extra);
    return;
  }
  ctx.sendError(429, 'rate_limit.exceeded', d.has('ratelimit-429-transient') ? 'transient' : 'rate_limited', message, undefined, extra);
}

/**
 * §7: "The rate-limiter store is down. The limiter is fail-closed." Says whether the store is up,
 * the request was refused, or (defect) the request goes on unmetered.
 */
function limiterStore(ctx: ExchangeContext): 'up' | 'refused' | 'open' {
  const { state } = ctx;
  const d = state.defects;
  const down = state.faults.has('limiter_store_down');
  if (down && d.has('ratelimit-limiter-latches-down')) limitersOf(state).latched = true;
  if (!down && !(d.has('ratelimit-limiter-latches-down') && limitersOf(state).latched)) return 'up';
  if (d.has('ratelimit-limiter-fails-open')) return 'open';
  // Defect: the company route's streams skip the limiter, so they go on unmetered while its store is down.
  if (d.has('ratelimit-limiter-down-company-stream-open') && isStreamedPost(ctx) && ctx.path.startsWith('/company-agents/')) return 'open';
  if (d.has('ratelimit-limiter-fault-500')) {
    ctx.sendError(500, 'system.internal', 'transient', 'Internal error.');
    return 'refused';
  }
  // Defect: the job poll's 503 is built apart, with a request_id of its own.
  if (d.has('ratelimit-limiter-down-job-poll-request-id') && ctx.method === 'GET' && ctx.path.startsWith('/message-jobs/')) ctx.errorRequestId = `${ctx.requestId}-limiter`;
  ctx.sendError(503, 'system.rate_limit_unavailable', 'transient', 'The rate limiter is unavailable; retry with backoff.');
  return 'refused';
}

/**
 * Charges the request to its token's pool and sets the X-RateLimit-* headers. Returns false when
 * the response was already sent: 503 when the limiter store is down (fail-closed, §7), 429 when
 * the pool is spent. A refused request does no work and spends nothing (§8.1 rule 5).
 */
export function applyRateLimit(ctx: ExchangeContext): boolean {
  const { state } = ctx;
  const store = limiterStore(ctx);
  // A limiter that fails open lets the request through unmetered: no pool, no headers.
  if (store !== 'up') return store === 'open';
  const pool = poolFor(ctx);
  ctx.pool = pool;
  const decision = decide(ctx, pool);
  if (state.defects.has('ratelimit-header-missing-on-400')) dropPoolHeadersOn400(ctx);
  ctx.headers['x-ratelimit-pool'] = state.defects.has('ratelimit-pool-uppercase') ? pool.toUpperCase() : pool;
  ctx.headers['x-ratelimit-limit'] = limitHeader(state, pool, decision);
  ctx.headers['x-ratelimit-remaining'] = remainingHeader(state, decision);
  ctx.headers['x-ratelimit-reset'] = resetHeader(state, decision);
  // Defect: the ledger is not held to its pool; with nothing left it is served all the same.
  if (!decision.allowed && !(state.defects.has('ratelimit-ledger-unmetered') && isLedgerRead(ctx))) {
    refuse(ctx, pool, decision);
    return false;
  }
  // Defect: a limiter of its own on one route and form, which the pool headers do not show.
  if (state.defects.has('ratelimit-company-stream-hidden-limiter') && isStreamedPost(ctx) && ctx.path.startsWith('/company-agents/')) {
    ctx.sendError(429, 'rate_limit.exceeded', 'rate_limited', 'Too many streams on this route.', undefined, { 'retry-after': '1' });
    return false;
  }
  if (state.defects.has('ratelimit-retry-after-on-served')) ctx.headers['retry-after'] = '0';
  return true;
}
