import type { InputDomain } from './input-domain.ts';

/** The register's section that explains what the exchange matrix sends and what it leaves open. */
const MATRIX = 'The exchange matrix';
const AUTH = 'Authentication and errors';

/** Every token-authenticated route the spec names (§4.1, §4.3), as its domain entries name them. */
const AUTHENTICATED = ['GET /me', 'GET /credits/operations', 'message POST', 'job poll GET'] as const;

/**
 * The request headers and the one body field that choose how a request is authenticated or
 * answered: the Authorization header (§5), Accept and Content-Type (§1, §6: how a message POST
 * asks for a stream; JSON bodies), and the message POST's `stream` field (§1, §4.3).
 */
export const REQUEST_HEADER_DOMAINS: readonly InputDomain[] = [
  {
    id: 'header:Authorization',
    carrier: 'header',
    name: 'Authorization',
    routes: AUTHENTICATED,
    section: '5.1, 5.2, 5.3, 5.4',
    quote:
      'Every endpoint except the unauthenticated routes requires the header `Authorization: Bearer <API_TOKEN>`. ' +
      'The token format is a fixed live prefix followed by `_live_` and a hex string (`<prefix>_live_<hex>`).',
    valid: '`Bearer` and a live token of the workspace that is neither revoked nor expired (the profile\'s primary, secondary and other_workspace tokens)',
    invalid:
      'no header (401 auth.token_missing); another scheme or the bare token (401 auth.token_missing, §7 "No bearer header"); ' +
      'an unknown, revoked or expired token (401 auth.token_invalid)',
    edges: [
      'absent',
      'Bearer with no token',
      'Bearer and an empty token',
      'Bearer and a garbled token (not hex)',
      'Bearer and a token of another prefix (`_test_`)',
      'Bearer and several words',
      'Bearer and several words, the first of them the valid token',
      '<prefix>_live_<hex> never issued, of the live token\'s prefix and length',
      'the revoked token',
      'the expired token',
      'another workspace\'s live token',
      'the scheme in lower and upper case',
      'another scheme (`Token`, `Basic`), and one whose name only ends in Bearer (`XBearer`)',
      'the bare token',
      'more requests than a pool holds, with a token that is not valid',
    ],
    open: [
      { point: 'which of the two 401 codes a Bearer header with an absent or garbled token earns', register: AUTH },
      { point: 'whether the scheme is read without regard to case (SHOULD)', register: AUTH },
      { point: 'whether OPTIONS needs a token (a CORS preflight carries none)', register: MATRIX },
      { point: 'whether authentication, routing or the method comes first on a method the spec shows no operation for', register: MATRIX },
    ],
  },
  {
    id: 'header:Accept',
    carrier: 'header',
    name: 'Accept',
    routes: [...AUTHENTICATED, 'GET /health', 'GET /openapi.json', 'GET /openapi.yaml'],
    section: '1, 6',
    quote: 'SSE streaming: chosen by sending the header `Accept: text/event-stream` or the body field `stream: true`.',
    valid: 'absent, or any media range list (RFC 9110 §12.5.1); on a message POST `text/event-stream` chooses a stream',
    invalid: 'nothing the spec names: it never says an Accept header is refused',
    edges: [
      'absent',
      '`*/*` (what curl sends)',
      '`application/json`',
      '`text/event-stream`',
      'a list (`application/json, text/event-stream`)',
      'a parameter (`text/event-stream; charset=utf-8`)',
      'a q-value (`text/event-stream;q=0.5, application/json`)',
    ],
    open: [
      { point: 'whether a list, a parameter or a q-value that names text/event-stream chooses a stream', register: MATRIX },
      { point: 'whether `text/event-stream` on a route other than the message POST is refused (406) or ignored', register: MATRIX },
      { point: 'whether `application/json` alone on a message POST may be answered 406 by a server that only streams', register: MATRIX },
    ],
  },
  {
    id: 'header:Content-Type',
    carrier: 'header',
    name: 'Content-Type',
    routes: ['message POST'],
    section: '4.3',
    quote: 'A POST on the message route of a deal or company agent sends a message. […] Its path and request body are not shown.',
    valid: '`application/json` with the profile\'s message body (the only encoding the interface uses)',
    invalid: 'nothing the spec names: the request body is not shown',
    edges: ['`application/json`', '`application/json; charset=utf-8`', 'absent on a request without a body'],
    open: [{ point: 'how a message POST with another media type or none is answered (400 or 415)', register: MATRIX }],
  },
  {
    id: 'body:stream',
    carrier: 'body',
    name: 'stream',
    routes: ['message POST'],
    section: '1, 4.3, 6',
    quote: 'It accepts an optional `stream` boolean body field and the `Accept: text/event-stream` header.',
    valid: 'absent, `true` (a stream) or `false` (no stream chosen by the body)',
    invalid: 'a value that is not a boolean (how it is refused is not shown)',
    edges: ['absent', 'true', 'false'],
    open: [
      { point: '`stream: false` together with `Accept: text/event-stream`', register: 'Conversations' },
      { point: 'how a non-boolean `stream` is answered', register: MATRIX },
    ],
  },
];
