import type { DefectSwitch, VariantSwitch } from '../switches.ts';

/** Defects of the service conventions: authentication, the error envelope, unauthenticated routes. */
export const foundationDefects: DefectSwitch[] = [
  {
    name: 'auth-rejects-valid-on-me',
    breaks: ['auth/5.1/bearer-accepted'],
    suites: ['auth'],
    description: 'GET /me answers 401 auth.token_invalid even for a valid token.',
  },
  {
    name: 'auth-missing-as-invalid',
    breaks: ['auth/5.3/missing-header'],
    suites: ['auth'],
    description: 'A request without Authorization gets auth.token_invalid instead of auth.token_missing.',
  },
  {
    name: 'auth-token-missing-403',
    breaks: ['auth/5.3/missing-header', 'errors/7/known-code-status'],
    suites: ['auth', 'errors'],
    description: 'A missing token answers HTTP 403 (with code auth.token_missing) instead of 401.',
  },
  {
    name: 'auth-accepts-unknown-live-token',
    breaks: ['auth/5.4/unknown-token'],
    suites: ['auth'],
    description: 'Any well-formed <prefix>_live_<hex> token is accepted, issued or not.',
  },
  {
    name: 'auth-unlisted-method-before-token',
    breaks: ['auth/5.1/no-service-without-token'],
    suites: ['exchange-matrix'],
    description: 'A method a token-authenticated route has no operation for (PUT /me, GET on a message route, ...) answers 204 before the token is looked at.',
  },
  {
    name: 'auth-failures-rate-limited',
    breaks: ['auth/5.4/refused-whatever-the-volume'],
    suites: ['exchange-matrix'],
    description: 'A token that failed authentication more often within a window than the read pool holds answers 429 rate_limit.exceeded instead of 401.',
    // Its 429s are honoured (a window's wait at the spec's limits): a short window keeps calibration short.
    limits: { windowS: 4 },
  },
  {
    name: 'auth-basic-scheme-400',
    breaks: ['auth/7/other-scheme'],
    suites: ['auth'],
    description: 'An Authorization header with another scheme answers 400 instead of 401.',
  },
  {
    name: 'auth-other-scheme-invalid',
    breaks: ['auth/7/other-scheme'],
    suites: ['auth'],
    description: 'An Authorization header with another scheme (or the bare token) answers 401 auth.token_invalid instead of auth.token_missing.',
  },
  {
    name: 'auth-empty-bearer-400',
    breaks: ['auth/5.4/malformed-header'],
    suites: ['auth'],
    description: 'A Bearer header with no token answers 400 instead of 401.',
  },
  {
    name: 'auth-bearer-first-word',
    breaks: ['auth/5.4/malformed-header'],
    suites: ['auth'],
    description: 'A Bearer header of several words is read by its first: `Bearer <valid token> x` is served.',
  },
  {
    name: 'auth-scheme-ending-in-bearer',
    breaks: ['auth/7/other-scheme'],
    suites: ['auth'],
    description: 'Any scheme whose name ends in `Bearer` is read as Bearer: `XBearer <valid token>` is served.',
  },
  {
    name: 'auth-scheme-case-sensitive',
    breaks: ['auth/5.2/scheme-case-insensitive'],
    suites: ['auth'],
    description: 'Only the spelling `Bearer` is a bearer header: `bearer <valid token>` answers 401.',
  },
  {
    name: 'auth-query-token-accepted',
    breaks: ['auth/5.3/token-outside-header'],
    suites: ['auth'],
    description: 'With no Authorization header, a valid token in the `access_token` query parameter authenticates.',
  },
  {
    name: 'auth-cookie-token-accepted',
    breaks: ['auth/5.3/token-outside-header'],
    suites: ['auth'],
    description: 'With no Authorization header, a valid token in an `access_token` cookie authenticates.',
  },
  {
    name: 'auth-body-token-accepted',
    breaks: ['auth/5.3/token-outside-header'],
    suites: ['auth'],
    description: 'With no Authorization header, a valid token in the `access_token` field of a POST\'s JSON body authenticates.',
  },
  {
    name: 'auth-stream-skips-auth',
    breaks: ['auth/5.3/missing-header'],
    suites: ['auth'],
    description: 'A message POST with `Accept: text/event-stream` and no Authorization header is served (as the primary token).',
  },
  {
    name: 'auth-job-poll-skips-auth',
    breaks: ['auth/5.3/missing-header'],
    suites: ['auth'],
    description: 'A job poll with no Authorization header is served (as the primary token).',
  },
  {
    name: 'auth-accepts-revoked',
    breaks: ['auth/5.4/revoked-token'],
    suites: ['auth'],
    description: 'Revoked tokens are still accepted.',
  },
  {
    name: 'auth-accepts-expired',
    breaks: ['auth/5.4/expired-token'],
    suites: ['auth'],
    description: 'Expired tokens are still accepted.',
  },
  {
    name: 'errors-envelope-flat',
    breaks: ['errors/7/envelope'],
    suites: ['errors'],
    description: '404 and 405 answer a flat {code, category, message, request_id} object without the `error` key.',
  },
  {
    name: 'errors-message-empty',
    breaks: ['errors/7/envelope'],
    suites: ['errors'],
    description: '404 and 405 errors carry an empty `message` (a string, but no text).',
  },
  {
    name: 'errors-code-empty',
    breaks: ['errors/7/envelope'],
    suites: ['errors'],
    description: '404 and 405 errors carry an empty `code` (a string, but no code).',
  },
  {
    name: 'errors-category-unknown',
    breaks: ['errors/7/category-value'],
    suites: ['errors'],
    description: '404 and 405 errors carry the category "client_error", which is not one of the three.',
  },
  {
    name: 'errors-request-id-mismatch',
    breaks: ['errors/7/request-id-header'],
    suites: ['errors'],
    description: 'error.request_id differs from the X-Request-Id header.',
  },
  {
    name: 'unauthenticated-health-requires-token',
    breaks: ['unauthenticated/4.2/no-token-needed'],
    suites: ['unauthenticated'],
    description: 'GET /health answers 401 without a token.',
  },
  {
    name: 'unauthenticated-charges-token',
    breaks: ['unauthenticated/8.1/no-token-points'],
    suites: ['unauthenticated'],
    description: 'The unauthenticated routes spend a read point of a valid bearer token sent along.',
  },
];

/** Legal choices of the service conventions the spec leaves open. */
export const foundationVariants: VariantSwitch[] = [
  {
    name: 'unauthenticated-low-ip-limit',
    suites: ['unauthenticated', 'openapi'],
    description:
      'The per-IP limiter of the unauthenticated routes serves 3 requests per window (§8.1: its number is not shown); beyond, 429 with the envelope and Retry-After.',
    limits: { windowS: 4 },
  },
  {
    name: 'auth-unknown-method-404',
    suites: ['exchange-matrix'],
    description: 'A method a route that needs a token has no operation for (PUT /me, GET on a message route, ...) is answered 404 with the envelope, before the token is looked at.',
    limits: { windowS: 4 },
  },
  {
    name: 'auth-unknown-method-501',
    suites: ['exchange-matrix'],
    description: "A method a route that needs a token has no operation for is answered 501 with the envelope (HTTP's answer to a method a server does not implement), before the token is looked at.",
    limits: { windowS: 4 },
  },
  {
    name: 'auth-options-cors-preflight',
    suites: ['exchange-matrix'],
    description:
      'OPTIONS on a route that needs a token is a CORS preflight, answered before the token is looked at: 204 with `Allow` and `Access-Control-Allow-*` headers, whatever the token, and no pool headers (§8.1 names no pool for OPTIONS).',
    // The matrix's rows of pools just refilled wait a window: a short one keeps calibration short.
    limits: { windowS: 4 },
  },
  {
    name: 'auth-401-rate-limit-headers',
    suites: ['auth', 'exchange-matrix'],
    description:
      'Every 401 carries X-RateLimit-Limit, -Remaining and -Reset of a per-client pool of failed attempts (1,000 a window, never refusing), as a gateway may: §4 binds the headers to authenticated responses and says nothing of a 401\'s.',
    limits: { windowS: 4 },
  },
  {
    name: 'transport-compressed',
    suites: ['errors', 'openapi', 'conversation-stream', 'ledger-pagination'],
    description:
      'Every body is compressed though no request asks for it (RFC 9110 §12.5.3: without Accept-Encoding any coding is acceptable), as a gateway that compresses everything does: JSON and the documents gzip, event streams brotli, flushed at every event.',
  },
  {
    name: 'errors-extra-fields',
    suites: ['errors', 'auth'],
    description: 'Every error carries fields of the vendor\'s own inside `error` (`docs_url`, `retryable`, `trace_id`): §7\'s envelope leaves them open; only a second top-level key breaks it.',
  },
  {
    name: 'errors-other-wording',
    suites: ['errors', 'auth'],
    description: 'Every error message in another vendor\'s words ("Request failed with HTTP 401 (auth token missing). ..."): §7 says clients must not match on it.',
  },
  {
    name: 'errors-request-id-uuid',
    suites: ['errors', 'conversation-faults'],
    description: '`request_id` and X-Request-Id are random UUIDs, not the reference\'s `req_` ids: §7 gives the id no format.',
  },
  {
    name: 'service-payloads-other',
    suites: ['auth', 'unauthenticated'],
    description: '`/health` answers a load balancer\'s plain `OK` (`text/plain`), and `/me` another vendor\'s nested introspection record: neither payload is shown by the spec.',
  },
  {
    name: 'auth-body-validated-first',
    suites: ['auth'],
    description:
      'A message POST\'s body is validated before authentication: a field a message does not take (an `access_token` among them) is refused with 400 `request.validation_failed`, with or without a token (the order of validation and authentication is not fixed).',
  },
];
