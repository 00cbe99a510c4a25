import { tokenKindOf } from '../coverage/exchange-dimensions.ts';
import type { Exchange } from '../model/exchange.ts';
import { fail, inconclusive, pass, type Finding } from '../model/finding.ts';
import { plural } from '../model/words.ts';
import { UNAUTHENTICATED_PATHS } from '../spec-constants.ts';
import { exchangeLabel } from './rate-limit-headers.ts';
import { pathUnderBase } from './route-of.ts';
import { expectError } from './error-envelope.ts';
import { judged } from './judged.ts';

/** Token kinds that are no live token: what §5.3 and §5.4 refuse. */
const NOT_LIVE = new Set(['none', 'malformed', 'other scheme', 'unknown', 'revoked', 'expired']);

/** Whether a request carried no live token of a workspace (none, another scheme, a garbled, unknown, revoked or expired one). */
export function carriesNoLiveToken(exchange: Exchange): boolean {
  return NOT_LIVE.has(tokenKindOf(exchange));
}

/**
 * > Every endpoint except the unauthenticated routes requires the header `Authorization: Bearer <API_TOKEN>`.
 * A request without a live token is never served: whatever the method, a 2xx is an endpoint that
 * did not require the header. OPTIONS is left out (a CORS preflight carries no token, and whether
 * a server answers it is open: docs/ambiguity-register.md, The exchange matrix).
 */
export function servedWithoutTokenProblem(exchange: Exchange): string | undefined {
  const status = exchange.response?.status;
  if (status === undefined || exchange.request.method.toUpperCase() === 'OPTIONS' || !carriesNoLiveToken(exchange)) return undefined;
  return status >= 200 && status < 300 ? `HTTP ${status} to ${exchange.request.method.toUpperCase()} with ${tokenKindOf(exchange) === 'none' ? 'no token' : `a token that is ${tokenKindOf(exchange)}`}` : undefined;
}

/** A request to base_url that is not one of the unauthenticated routes (§4.2). */
function tokenRoute(exchange: Exchange, baseUrl: string): boolean {
  const path = pathUnderBase(exchange, baseUrl);
  return path !== undefined && !(UNAUTHENTICATED_PATHS as readonly string[]).includes(path);
}

/** The requests a test sent to token-authenticated routes without a live token: none answered 2xx. */
export const noServiceWithoutTokenFinding = judged('token-refusal/noServiceWithoutTokenFinding', function noServiceWithoutTokenFinding(requirement: string, exchanges: readonly Exchange[], baseUrl: string): Finding {
  const bound = exchanges.filter((e) => e.response !== undefined && e.request.method.toUpperCase() !== 'OPTIONS' && carriesNoLiveToken(e) && tokenRoute(e, baseUrl));
  if (bound.length === 0) return inconclusive(requirement, 'no request without a live token was answered', exchanges.slice(0, 1));
  const served = bound.filter((e) => servedWithoutTokenProblem(e) !== undefined);
  if (served.length === 0) return pass(requirement, bound.slice(0, 1), `${plural(bound.length, 'request')} without a live token, none served`);
  return fail(requirement, 'no 2xx to a request without a live token (§5.1)', `${served.length} of ${bound.length} served: ${served.slice(0, 3).map((e) => `${exchangeLabel(e)}: ${servedWithoutTokenProblem(e)!}`).join(' | ')}`, served.slice(0, 5));
});

/**
 * > When the token is invalid, expired or revoked, the response is 401 with error code `auth.token_invalid` and category `permanent`.
 * The same token, more times than a pool holds: each answer is that 401, the last as the first (no
 * limit of failed attempts turns it into a 429, no pool of a token that is none).
 */
export const refusedThroughoutFinding = judged('token-refusal/refusedThroughoutFinding', function refusedThroughoutFinding(requirement: string, exchanges: readonly Exchange[]): Finding {
  const answered = exchanges.filter((e) => e.response !== undefined);
  if (answered.length === 0) return inconclusive(requirement, 'no request was answered', exchanges.slice(0, 1));
  const offenders = answered.map((e) => expectError(requirement, e, { status: 401, code: 'auth.token_invalid', category: 'permanent' })).filter((f) => f.verdict !== 'pass');
  const note = `${plural(answered.length, 'request')} with one unknown token${answered.length < exchanges.length ? ` (${exchanges.length - answered.length} unanswered)` : ''}`;
  if (offenders.length === 0) return pass(requirement, [answered[0]!, answered[answered.length - 1]!], note);
  const first = offenders[0]!;
  return { ...fail(requirement, first.expected ?? '401 auth.token_invalid', `${offenders.length} of ${answered.length} answered otherwise; first: ${first.actual ?? ''}`, offenders.slice(0, 5).flatMap((f) => f.exchanges)), note };
});
