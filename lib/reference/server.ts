import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import { authenticate, readBodyFieldToken } from './auth.ts';
import { adminRoutes, isLoopback } from './admin-routes.ts';
import { DEFECT_NAMES, VARIANT_NAMES } from './defects/index.ts';
import { ExchangeContext, type Route } from './exchange-context.ts';
import { ledgerRoutes, seedLedger } from './ledger-routes.ts';
import { startBackgroundWriters } from './ledger-writers.ts';
import { acceptsJson, unknownMessageFields } from './message-request.ts';
import { messageRoutes } from './message-routes.ts';
import { applyRateLimit } from './pool-charge.ts';
import { serviceRoutes } from './service-routes.ts';
import { answerScripted } from './scripted-mode.ts';
import { ReferenceState, type ReferenceOptions } from './state.ts';

/** §4: "{base_url}, which already ends in the version segment v1". */
export const BASE_PATH = '/v1';

export interface RunningReference {
  /** e.g. `http://127.0.0.1:43111/v1` */
  baseUrl: string;
  /** Loopback-only fault switches, e.g. `http://127.0.0.1:43111/_admin`. */
  adminUrl: string;
  /** Demo token value by role. */
  tokens: Record<string, string>;
  state: ReferenceState;
  close(): Promise<void>;
}

interface CompiledRoute extends Route {
  pattern: RegExp;
  names: string[];
}

function compile(route: Route): CompiledRoute {
  const names: string[] = [];
  const source = route.path
    .split('/')
    .map((seg) => {
      const m = /^\{(\w+)\}$/.exec(seg);
      if (m === null) return seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      names.push(m[1]!);
      return '([^/]+)';
    })
    .join('/');
  return { ...route, pattern: new RegExp(`^${source}$`), names };
}

function match(routes: CompiledRoute[], path: string): { route: CompiledRoute; params: Record<string, string> }[] {
  const out: { route: CompiledRoute; params: Record<string, string> }[] = [];
  for (const route of routes) {
    const m = route.pattern.exec(path);
    if (m === null) continue;
    const params: Record<string, string> = {};
    route.names.forEach((n, i) => {
      params[n] = safeDecode(m[i + 1] ?? '');
    });
    out.push({ route, params });
  }
  return out;
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

export function validateSwitches(options: ReferenceOptions): void {
  for (const d of options.defects ?? []) {
    if (!DEFECT_NAMES.has(d)) throw new Error(`unknown defect switch "${d}" (see asi-conformance serve --list-switches)`);
  }
  for (const v of options.variants ?? []) {
    if (!VARIANT_NAMES.has(v)) throw new Error(`unknown variant switch "${v}" (see asi-conformance serve --list-switches)`);
  }
}

/** Defect `unauthenticated-charges-token`: a public route spends a point of a valid token sent along. */
function chargePublicRoute(ctx: ExchangeContext): void {
  const auth = authenticate(ctx);
  if (auth.ok) ctx.state.readLimiter.charge(auth.token.id, ctx.state.now());
}

/** Answers one request: base path, public routes, then auth, the token limiter, routing. */
async function handle(state: ReferenceState, routes: CompiledRoute[], admin: CompiledRoute[], req: IncomingMessage, res: ServerResponse): Promise<void> {
  // Variant `latency-150ms` (and the bench's jitter): a target far away, or slow to answer, before anything is decided.
  const delayMs = state.delayMs();
  if (delayMs > 0) await delay(delayMs);
  let url: URL;
  try {
    url = new URL(req.url ?? '/', 'http://reference.invalid');
  } catch {
    url = new URL('http://reference.invalid/');
  }
  const requestId = state.nextRequestId();
  const inBase = url.pathname === BASE_PATH || url.pathname.startsWith(`${BASE_PATH}/`);
  const path = inBase ? url.pathname.slice(BASE_PATH.length) || '/' : url.pathname;
  const ctx = new ExchangeContext(req, res, url, path, requestId, state);

  if (!inBase) {
    const adminHit = match(admin, url.pathname);
    if (adminHit.length > 0 && isLoopback(req.socket.remoteAddress)) {
      const hit = adminHit.find((h) => h.route.methods.includes(ctx.method));
      if (hit === undefined) return ctx.sendError(405, 'request.method_not_allowed', 'permanent', `Method ${ctx.method} is not allowed here.`);
      ctx.params = hit.params;
      return hit.route.handler(ctx);
    }
    return ctx.sendError(404, 'request.not_found', 'permanent', `No route ${url.pathname}; the API lives under ${BASE_PATH}.`);
  }

  const hits = match(routes, path);
  const publicHit = hits.find((h) => h.route.public === true);
  if (publicHit !== undefined) {
    // §8.1 rule 4: unauthenticated routes use a per-IP limiter and consume no token points,
    // whatever Authorization header comes along.
    const ip = req.socket.remoteAddress ?? 'unknown';
    const decision = state.ipLimiter.consume(ip, state.now());
    if (!decision.allowed) {
      return ctx.sendError(429, 'rate_limit.exceeded', 'rate_limited', 'Too many requests from this address.', undefined, {
        'retry-after': String(decision.retryAfterS ?? 1),
      });
    }
    if (!publicHit.route.methods.includes(ctx.method)) {
      return ctx.sendError(405, 'request.method_not_allowed', 'permanent', `Method ${ctx.method} is not allowed on ${path}.`, undefined, {
        allow: publicHit.route.methods.join(', '),
      });
    }
    if (state.defects.has('unauthenticated-charges-token')) chargePublicRoute(ctx);
    if (state.defects.has('unauthenticated-health-requires-token') && path === '/health' && ctx.header('authorization') === undefined) {
      return ctx.sendError(401, 'auth.token_missing', 'permanent', 'The Authorization header with a bearer token is missing.');
    }
    ctx.params = publicHit.params;
    return publicHit.route.handler(ctx);
  }

  // Variants: a method the route has no operation for is answered 404 or 501 before the token is looked at.
  const unknownMethodStatus = state.variants.has('auth-unknown-method-404') ? 404 : state.variants.has('auth-unknown-method-501') ? 501 : undefined;
  if (unknownMethodStatus !== undefined && hits.length > 0 && ctx.method !== 'OPTIONS' && !hits.some((h) => h.route.methods.includes(ctx.method))) {
    const code = unknownMethodStatus === 404 ? 'request.not_found' : 'request.not_implemented';
    return ctx.sendError(unknownMethodStatus, code, 'permanent', `No operation ${ctx.method} ${path}.`);
  }
  // Variant: OPTIONS is a CORS preflight, answered before the token is looked at (browsers send none on it).
  if (state.variants.has('auth-options-cors-preflight') && ctx.method === 'OPTIONS' && hits.length > 0) {
    const methods = [...new Set(hits.flatMap((h) => h.route.methods))];
    return ctx.send(204, '', {
      allow: [...methods, 'OPTIONS'].join(', '),
      'access-control-allow-origin': '*',
      'access-control-allow-methods': methods.join(', '),
      'access-control-allow-headers': 'authorization, content-type, accept',
      'access-control-max-age': '600',
    });
  }
  // Variant: a message POST's body is validated before authentication; a field it does not take is refused.
  if (state.variants.has('auth-body-validated-first') && ctx.method === 'POST' && hits.some((h) => h.route.methods.includes('POST'))) {
    const body = await ctx.readBody();
    const unknown = body.ok ? unknownMessageFields(body.text) : [];
    if (unknown.length > 0) {
      return ctx.sendError(400, 'request.validation_failed', 'permanent', `The body has fields a message does not take: ${unknown.join(', ')}.`, { field: 'body', reason: 'unknown_field' });
    }
  }
  // Defect: a method the route has no operation for is answered before the token is looked at.
  if (state.defects.has('auth-unlisted-method-before-token') && hits.length > 0 && ctx.method !== 'OPTIONS' && !hits.some((h) => h.route.methods.includes(ctx.method))) {
    return ctx.send(204, '');
  }
  await readBodyFieldToken(ctx);
  const auth = authenticate(ctx);
  if (!auth.ok) {
    // Defect: failed authentications beyond the read pool's size within a window, per credential, are refused as if rate limited.
    if (state.defects.has('auth-failures-rate-limited') && !state.failedAuthLimiter.consume(ctx.header('authorization') ?? '', state.now()).allowed) {
      return ctx.sendError(429, 'rate_limit.exceeded', 'rate_limited', 'Too many failed authentications.', undefined, { 'retry-after': '1' });
    }
    const header = ctx.header('authorization') ?? '';
    if (state.defects.has('auth-basic-scheme-400') && /^\s*(?!bearer\b)\w+\s/i.test(header)) {
      return ctx.sendError(400, 'request.bad_authorization', 'permanent', 'Unsupported authorization scheme.');
    }
    if (state.defects.has('auth-empty-bearer-400') && /^\s*bearer\s*$/i.test(header)) {
      return ctx.sendError(400, 'request.bad_authorization', 'permanent', 'The bearer token is empty.');
    }
    // Defect: the 401 of a revoked or expired token is built apart, with a request_id of its own.
    if (auth.inactive !== undefined && state.defects.has('auth-inactive-token-request-id-mismatch')) ctx.errorRequestId = `${requestId}-auth`;
    return ctx.sendError(401, auth.code, 'permanent', auth.message, undefined, { 'www-authenticate': 'Bearer' });
  }
  if (state.defects.has('auth-rejects-valid-on-me') && path === '/me') {
    return ctx.sendError(401, 'auth.token_invalid', 'permanent', 'The bearer token is invalid.');
  }
  ctx.token = auth.token;

  // Variant: an agent or job the path names that does not exist is answered 404 before the
  // limiter (no point spent, no pool headers); the reference looks it up after by default.
  const lookedUp = state.variants.has('ratelimit-lookup-before-limiter') ? hits.find((h) => h.route.methods.includes(ctx.method) && h.route.exists !== undefined) : undefined;
  if (lookedUp !== undefined) {
    ctx.params = lookedUp.params;
    if (!lookedUp.route.exists!(ctx)) return lookedUp.route.handler(ctx);
  }
  if (!applyRateLimit(ctx)) return;

  if (hits.length === 0) return ctx.sendError(404, 'request.not_found', 'permanent', `No route ${path}.`);
  const hit = hits.find((h) => h.route.methods.includes(ctx.method));
  if (hit === undefined) {
    const allow = [...new Set(hits.flatMap((h) => h.route.methods))].join(', ');
    return ctx.sendError(405, 'request.method_not_allowed', 'permanent', `Method ${ctx.method} is not allowed on ${path}.`, undefined, { allow });
  }
  ctx.params = hit.params;
  // Variant: a JSON route refuses an Accept that allows no JSON answer (406), after the limiter.
  if (state.variants.has('conversation-accept-406-elsewhere') && !hit.route.methods.includes('POST') && !acceptsJson(ctx.header('accept'))) {
    return ctx.sendError(406, 'request.not_acceptable', 'permanent', `This route answers application/json only; the request accepts ${ctx.header('accept') ?? ''}.`);
  }
  return hit.route.handler(ctx);
}

/** Starts the reference implementation of ASI v1 on `host:port` (port 0 picks a free one). */
export async function startReference(options: ReferenceOptions = {}): Promise<RunningReference> {
  validateSwitches(options);
  const state = new ReferenceState(options);
  seedLedger(state);
  const routes = [...serviceRoutes(), ...ledgerRoutes(), ...messageRoutes()].map(compile);
  const admin = adminRoutes().map(compile);
  const scripted = options.scripted;
  // The recorder shows a token as the variable that carries it: `$ASI_TOKEN` for the primary.
  const tokenNames = new Map(Object.entries(state.tokens.byRole()).map(([role, value]) => [value, role === 'primary' ? '$ASI_TOKEN' : `$ASI_TOKEN_${role.toUpperCase()}`]));
  const server: Server = createServer((req, res) => {
    if (scripted !== undefined) {
      answerScripted(scripted.script, scripted.recorder, tokenNames, req, res).catch(() => res.destroy());
      return;
    }
    // Node writes Date from the machine's clock; a skewed server's comes from its own.
    if (state.clockSkewMs !== 0) res.setHeader('date', new Date(state.now()).toUTCString());
    handle(state, routes, admin, req, res).catch((err: unknown) => {
      // Never crash and never hang on a bug: answer 500 with the envelope when nothing was sent yet.
      if (!res.headersSent) {
        const requestId = state.nextRequestId();
        res.writeHead(500, { 'content-type': 'application/json', 'x-request-id': requestId });
        res.end(JSON.stringify({ error: { code: 'system.internal', category: 'transient', message: 'Internal error.', request_id: requestId } }));
      } else {
        res.destroy(err instanceof Error ? err : undefined);
      }
    });
  });
  server.keepAliveTimeout = 5_000;
  server.on('clientError', (_err, socket) => {
    // Bytes Node's HTTP parser refuses (unknown methods, broken request lines) still get the envelope.
    if (!socket.writable) return;
    const requestId = state.nextRequestId();
    const body = JSON.stringify({ error: { code: 'request.malformed', category: 'permanent', message: 'The request could not be parsed as HTTP/1.1.', request_id: requestId } });
    socket.end(
      `HTTP/1.1 400 Bad Request\r\ncontent-type: application/json; charset=utf-8\r\nx-request-id: ${requestId}\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
    );
  });
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const stopWriters = state.ledgerShape.writers ? startBackgroundWriters(state) : () => {};
  const address = server.address() as AddressInfo;
  const hostPart = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const origin = `http://${hostPart}:${address.port}`;
  return {
    baseUrl: `${origin}${BASE_PATH}`,
    adminUrl: `${origin}/_admin`,
    tokens: state.tokens.byRole(),
    state,
    close: () =>
      new Promise<void>((resolve) => {
        stopWriters();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
