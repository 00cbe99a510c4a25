import type { ServedDescription } from '../checks/openapi-served-description.ts';
import { isLimiterUnavailable } from '../checks/rate-limit-headers.ts';
import { pathUnderBase, routeOf } from '../checks/route-of.ts';
import type { Exchange } from '../model/exchange.ts';
import type { Limits, ResolvedProfile } from '../profile/resolved-profile.ts';
import { LEDGER_PATH, ME_PATH, UNAUTHENTICATED_PATHS } from '../spec-constants.ts';

/** What the run-wide rules need of the profile: its routes and limits. Plain data, recorded with the verdicts. */
export interface RecordContext {
  baseUrl: string;
  messages: ResolvedProfile['messages'];
  limits: Limits;
  /** The run's served OpenAPI description, found in the record before judging (lib/checks/openapi-served-description.ts). */
  servedDescription?: ServedDescription;
}

/** How a message POST asked to be answered (§1): blocking REST, a stream chosen either way, or a job. */
export type MessageForm = 'rest' | 'stream-accept' | 'stream-flag' | 'job';

/**
 * The token a request carried, as the harness sent it: a valid token of the profile in a proper
 * bearer header, a revoked or expired one, none at all, or anything else in Authorization (a
 * garbled, unknown or misplaced token, another scheme).
 */
export type TokenKind = 'valid' | 'revoked' | 'expired' | 'none' | 'other';

/** Roles whose tokens are live tokens of a workspace. */
const VALID_ROLES = new Set(['primary', 'secondary', 'other_workspace']);

/** Everything the run-wide rules ask of one exchange, read off its record alone. */
export interface ExchangeFacts {
  method: string;
  /** The route as the spec or the profile names it, or `other` (an unknown route, another origin). */
  route: string;
  /** `GET /me`, `POST /deal-agents/{agent_id}/messages (stream: Accept)`: a route in one of its forms. */
  routeLabel: string;
  /** Which of the spec's kinds of route: token-authenticated, unauthenticated (§4.2), or neither. */
  kind: 'authenticated' | 'unauthenticated' | 'other';
  /** The method is the one the route is called with (GET or HEAD for reads, POST for messages). */
  routeMethod: boolean;
  form?: MessageForm;
  token: TokenKind;
  status?: number;
  /** `2xx`, or the status itself from 300 on: the column of a coverage table. */
  statusLabel?: string;
  /**
   * §4 "Every authenticated response carries the rate-limit headers": a live token in the bearer
   * header, on a token-authenticated route with its own method, answered other than 401 (no token
   * was accepted), 404 (no such job or agent: whether a server looks it up before or after its
   * limiter is open) and the limiter-down 503 (no limiter was asked).
   */
  authenticatedResponse: boolean;
  /**
   * The request is one the harness built as valid, where a route's requests can be told apart:
   * every ledger, /me and job-poll request (their inputs are judged by their own rules, and the
   * ledger's table lists no 5xx but 503 whatever is sent), and a message POST whose body is the
   * profile's message, with or without `stream` or the job-mode fields. Generated message texts
   * are not: the spec fixes no rule for a message's content.
   */
  builtValid: boolean;
  /** Fault hooks switched on when it was sent. */
  faults: readonly string[];
}

/** A request body read as JSON, or undefined when it is none. */
export function parsedBody(text: string | undefined): unknown {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Key-order-free equality of JSON values. */
function sameJson(a: unknown, b: unknown): boolean {
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => sameJson(x, b[i]));
  }
  if (isRecord(a) && isRecord(b)) {
    const ka = Object.keys(a);
    return ka.length === Object.keys(b).length && ka.every((k) => k in b && sameJson(a[k], b[k]));
  }
  return a === b;
}

function messageFormOf(exchange: Exchange, body: unknown, context: RecordContext): MessageForm {
  const accept = exchange.request.headers['accept'] ?? '';
  if (/text\/event-stream/i.test(accept)) return 'stream-accept';
  if (isRecord(body) && body['stream'] === true) return 'stream-flag';
  const jobs = context.messages.async?.body;
  if (jobs !== undefined && isRecord(body) && Object.entries(jobs).every(([k, v]) => k in body && sameJson(body[k], v))) return 'job';
  return 'rest';
}

const FORM_LABEL: Record<MessageForm, string> = {
  rest: '',
  'stream-accept': ' (stream: Accept)',
  'stream-flag': ' (stream: true)',
  job: ' (job mode)',
};

/** The profile's message body for the route, less the fields that only choose the transport. */
function isProfileMessage(body: unknown, template: string, context: RecordContext): boolean {
  const route = context.messages.routes.find((r) => r.template === template);
  if (route === undefined || !isRecord(body)) return false;
  const rest: Record<string, unknown> = { ...body };
  if (typeof rest['stream'] === 'boolean') delete rest['stream'];
  for (const [k, v] of Object.entries(context.messages.async?.body ?? {})) if (k in rest && sameJson(rest[k], v)) delete rest[k];
  const profile: Record<string, unknown> = { ...route.body };
  delete profile['stream'];
  return sameJson(rest, profile);
}

function tokenKindOf(exchange: Exchange): TokenKind {
  const role = exchange.request.tokenRole;
  const authorization = exchange.request.headers['authorization'];
  if (role === undefined) return authorization === undefined ? 'none' : 'other';
  if (role === 'revoked' || role === 'expired') return role;
  // The client records a role's token as `Bearer $VARIABLE`; an override of the header keeps no role.
  return VALID_ROLES.has(role) && authorization !== undefined && /^Bearer \$[A-Za-z_][A-Za-z0-9_]*$/.test(authorization) ? 'valid' : 'other';
}

export function statusLabelOf(status: number): string {
  return status >= 200 && status < 300 ? '2xx' : String(status);
}

/** Reads one recorded exchange the way every run-wide rule sees it. */
export function factsOf(exchange: Exchange, context: RecordContext): ExchangeFacts {
  const method = exchange.request.method.toUpperCase();
  const route = routeOf(exchange, context);
  const body = method === 'POST' ? parsedBody(exchange.request.body) : undefined;
  const isMessage = context.messages.routes.some((r) => r.template === route);
  const isRead = route === ME_PATH || route === LEDGER_PATH || (route !== 'other' && route === context.messages.async?.poll);
  const kind = (UNAUTHENTICATED_PATHS as readonly string[]).includes(route) ? 'unauthenticated' : isMessage || isRead ? 'authenticated' : 'other';
  const routeMethod = isMessage ? method === 'POST' : method === 'GET' || method === 'HEAD';
  const form = isMessage && method === 'POST' ? messageFormOf(exchange, body, context) : undefined;
  const shownRoute = route === 'other' ? (pathUnderBase(exchange, context.baseUrl) === undefined ? 'another origin' : 'an unknown route') : route;
  const token = tokenKindOf(exchange);
  const status = exchange.response?.status;
  const facts: ExchangeFacts = {
    method,
    route,
    routeLabel: `${method} ${shownRoute}${form === undefined ? '' : FORM_LABEL[form]}`,
    kind,
    routeMethod,
    token,
    authenticatedResponse:
      kind === 'authenticated' && routeMethod && token === 'valid' && status !== undefined && status !== 401 && status !== 404 && !isLimiterUnavailable(exchange),
    builtValid: kind === 'authenticated' && routeMethod && (!isMessage || isProfileMessage(body, route, context)),
    faults: exchange.faults ?? [],
  };
  if (form !== undefined) facts.form = form;
  if (status !== undefined) {
    facts.status = status;
    facts.statusLabel = statusLabelOf(status);
  }
  return facts;
}

/** The route forms the profile declares, each as `routeLabel` shows it: what a run should reach. */
export function declaredRoutes(context: RecordContext): string[] {
  const routes = [`GET ${ME_PATH}`, `GET ${LEDGER_PATH}`];
  const forms: MessageForm[] = ['rest', 'stream-accept', 'stream-flag', ...(context.messages.async === undefined ? [] : (['job'] as const))];
  for (const r of context.messages.routes) for (const f of forms) routes.push(`POST ${r.template}${FORM_LABEL[f]}`);
  if (context.messages.async !== undefined) routes.push(`GET ${context.messages.async.poll}`);
  return routes;
}
