/**
 * The body of a message POST as the reference reads it. §4.3: "Its path and request body are not
 * shown", so the shape is the reference's choice (docs/reference.md): `{"message": string,
 * "stream"?: boolean, "async"?: boolean}`; other fields are ignored.
 */

/** Longest message the reference accepts, in Unicode code points (the reference's choice). */
export const MESSAGE_MAX_CHARS = 10_000;

/** Longest text variant `conversation-plain-texts-only` takes. */
export const PLAIN_TEXT_MAX_CHARS = 200;

export type Transport = 'rest' | 'sse' | 'async';

export interface MessageRequest {
  message: string;
  /** The body asked for a stream (`stream: true`). */
  streamFlag: boolean;
  /** The Accept header asked for a stream. */
  acceptsStream: boolean;
  /** The body asked for the async job mode (`async: true`). */
  asyncFlag: boolean;
}

export type MessageRequestResult = { ok: true; request: MessageRequest } | { ok: false; field: string; reason: string; message: string };

function refuse(field: string, reason: string, message: string): MessageRequestResult {
  return { ok: false, field, reason, message };
}

/**
 * True when an Accept header asks for an event stream: a `text/event-stream` media range with a
 * non-zero quality. `*\/*` alone does not choose streaming (REST is the default, §1).
 */
export function acceptsEventStream(accept: string | undefined): boolean {
  if (accept === undefined) return false;
  return accept.split(',').some((range) => {
    const [type, ...params] = range.split(';').map((p) => p.trim().toLowerCase());
    if (type !== 'text/event-stream') return false;
    const q = params.find((p) => p.startsWith('q='));
    return q === undefined || Number(q.slice(2)) > 0;
  });
}

/** Whether an Accept header allows a JSON answer: absent, or a range that names it (any type, any application type, `application/json`, a `+json` type) with q above 0. */
export function acceptsJson(accept: string | undefined): boolean {
  if (accept === undefined || accept.trim() === '') return true;
  return accept.split(',').some((range) => {
    const [type = '', ...params] = range.split(';').map((p) => p.trim().toLowerCase());
    if (!['*/*', 'application/*', 'application/json'].includes(type) && !/^application\/[^/]+\+json$/.test(type)) return false;
    const q = params.find((p) => p.startsWith('q='));
    return q === undefined || Number(q.slice(2)) > 0;
  });
}

/**
 * The transport a request asked for. The async job mode wins over streaming when both are asked
 * for; either the Accept header or `stream: true` chooses SSE.
 */
export function transportOf(request: Pick<MessageRequest, 'streamFlag' | 'acceptsStream' | 'asyncFlag'>): Transport {
  if (request.asyncFlag) return 'async';
  // > SSE streaming: chosen by sending the header `Accept: text/event-stream` or the body field `stream: true`.
  return request.streamFlag || request.acceptsStream ? 'sse' : 'rest';
}

/** Validates the body of a message POST; `accept` is the request's Accept header. */
export function parseMessageRequest(text: string, accept: string | undefined): MessageRequestResult {
  if (text.trim() === '') return refuse('body', 'missing', 'The request body must be a JSON object with a "message" string.');
  let body: unknown;
  try {
    body = JSON.parse(text) as unknown;
  } catch {
    return refuse('body', 'invalid_json', 'The request body is not valid JSON.');
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return refuse('body', 'not_an_object', 'The request body must be a JSON object with a "message" string.');
  }
  const fields = body as Record<string, unknown>;
  const message = fields['message'];
  if (message === undefined) return refuse('message', 'missing', 'The field "message" is required.');
  if (typeof message !== 'string') return refuse('message', 'not_a_string', 'The field "message" must be a string.');
  const length = [...message].length;
  if (length === 0) return refuse('message', 'empty', 'The field "message" must not be empty.');
  if (length > MESSAGE_MAX_CHARS) return refuse('message', 'too_long', `The field "message" is ${length} characters long; at most ${MESSAGE_MAX_CHARS} are accepted.`);
  for (const flag of ['stream', 'async'] as const) {
    const v = fields[flag];
    if (v !== undefined && typeof v !== 'boolean') return refuse(flag, 'not_a_boolean', `The field "${flag}" must be true or false.`);
  }
  return {
    ok: true,
    request: { message, streamFlag: fields['stream'] === true, acceptsStream: acceptsEventStream(accept), asyncFlag: fields['async'] === true },
  };
}

/**
 * Variant `conversation-plain-texts-only`: a message a strict agent takes, printable ASCII (spaces
 * included) of at most PLAIN_TEXT_MAX_CHARS characters. The spec fixes no rule for a message's
 * content, so refusing anything else is legal.
 */
export function isPlainText(message: string): boolean {
  return message.length <= PLAIN_TEXT_MAX_CHARS && /^[\x20-\x7e]*$/.test(message);
}

/** The fields of a message body the reference reads. */
const MESSAGE_FIELDS: ReadonlySet<string> = new Set(['message', 'stream', 'async']);

/**
 * Variant `auth-body-validated-first`: the fields of a JSON object body that a message POST does
 * not take (an `access_token` among them); none for any other body, left to the route to refuse.
 */
export function unknownMessageFields(text: string): string[] {
  try {
    const body: unknown = JSON.parse(text);
    return typeof body === 'object' && body !== null && !Array.isArray(body) ? Object.keys(body).filter((k) => !MESSAGE_FIELDS.has(k)) : [];
  } catch {
    return [];
  }
}
