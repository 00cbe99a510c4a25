import type { ReceivedRequest, ScriptedAnswer } from '../reference/scripted-mode.ts';

let requestCounter = 0;

/** The pool headers §8.1 puts on every authenticated answer, for a pool with `remaining` points left. */
export function poolHeaders(method: string, remaining: number, nowMs: number): Record<string, string> {
  const read = method === 'GET' || method === 'HEAD';
  return {
    'x-ratelimit-pool': read ? 'read' : 'write',
    'x-ratelimit-limit': String(read ? 600 : 60),
    'x-ratelimit-remaining': String(remaining),
    'x-ratelimit-reset': String(Math.ceil(nowMs / 1000) + 60),
  };
}

export function json(status: number, body: unknown, headers: Record<string, string> = {}): ScriptedAnswer {
  const requestId = `req_client_${++requestCounter}`;
  return { status, headers: { 'content-type': 'application/json; charset=utf-8', 'x-request-id': requestId, ...headers }, body: JSON.stringify(body) };
}

/** The §7 envelope. */
export function error(status: number, code: string, category: string, message: string, headers: Record<string, string> = {}): ScriptedAnswer {
  const answer = json(status, {}, headers);
  return { ...answer, body: JSON.stringify({ error: { code, category, message, request_id: answer.headers['x-request-id'] } }) };
}

/** §5: the 401 of a request without `Authorization: Bearer <token>`, or undefined when the bearer header is right. */
export function refuseUnauthenticated(request: ReceivedRequest): ScriptedAnswer | undefined {
  const header = request.headers['authorization'];
  if (header === undefined) return error(401, 'auth.token_missing', 'permanent', 'The Authorization header with a bearer token is missing.', { 'www-authenticate': 'Bearer' });
  if (!/^Bearer \$ASI_TOKEN$/.test(header)) return error(401, 'auth.token_invalid', 'permanent', 'The bearer token is invalid.', { 'www-authenticate': 'Bearer' });
  return undefined;
}

export function pathOf(request: ReceivedRequest): string {
  const path = request.target.split('?')[0] ?? '';
  return path.startsWith('/v1/') ? path.slice(3) : path;
}

export function notFound(request: ReceivedRequest): ScriptedAnswer {
  return error(404, 'request.not_found', 'permanent', `No route ${pathOf(request)} in this scenario.`);
}
