import { requirements } from './define.ts';

export const authRequirements = requirements('auth', [
  {
    id: 'auth/5.1/bearer-accepted',
    level: 'MUST',
    section: '5.1',
    statement: 'A request with `Authorization: Bearer <valid token>` is accepted on every authenticated route.',
    quote: 'Every endpoint except the unauthenticated routes requires the header `Authorization: Bearer <API_TOKEN>`.',
  },
  {
    id: 'auth/5.1/no-service-without-token',
    level: 'MUST',
    section: '5.1',
    statement:
      'No request to a token-authenticated route without a live token (none, another scheme, a garbled, unknown, revoked or expired token) is answered 2xx, whatever its method: a method the spec shows no operation for included, OPTIONS left open. Judged on every exchange of the run.',
    quote: 'Every endpoint except the unauthenticated routes requires the header `Authorization: Bearer <API_TOKEN>`.',
  },
  {
    id: 'auth/5.2/scheme-case-insensitive',
    level: 'SHOULD',
    section: '5.2',
    statement:
      'The scheme name is matched without regard to case, as HTTP does (RFC 9110 §11.1): `bearer <valid token>` and `BEARER <valid token>` are accepted. A SHOULD: the spec writes `Bearer`, and HTTP\'s rule comes in only through "The scheme is HTTP bearer".',
    quote: 'The scheme is HTTP bearer.',
  },
  {
    id: 'auth/5.3/missing-header',
    level: 'MUST',
    section: '5.3',
    statement:
      'Without an Authorization header every authenticated route (streamed and job-mode message POSTs and job polls included) answers 401 `auth.token_missing`, category `permanent`.',
    quote: 'When the header is missing, the response is 401 with error code `auth.token_missing` and category `permanent`.',
  },
  {
    id: 'auth/5.3/token-outside-header',
    level: 'MUST',
    section: '5.3',
    statement:
      'A valid token sent anywhere but the Authorization header (the query string, a cookie, a JSON body field), with no Authorization header, answers 401 `auth.token_missing`, category `permanent`: only the header authenticates.',
    quote:
      'Every endpoint except the unauthenticated routes requires the header `Authorization: Bearer <API_TOKEN>`. … When the header is missing, the response is 401 with error code `auth.token_missing` and category `permanent`.',
  },
  {
    id: 'auth/5.4/unknown-token',
    level: 'MUST',
    section: '5.4',
    statement:
      'A well-formed `<prefix>_live_<hex>` token the server never issued answers 401 `auth.token_invalid`, category `permanent`.',
    quote: 'When the token is invalid, expired or revoked, the response is 401 with error code `auth.token_invalid` and category `permanent`.',
  },
  {
    id: 'auth/5.4/refused-whatever-the-volume',
    level: 'MUST',
    section: '5.4',
    statement:
      'One unknown token sent more times within a window than either pool holds (more reads than the read limit, more message POSTs than the write limit) answers 401 `auth.token_invalid`, category `permanent`, every time: no limit of failed attempts turns it into another answer.',
    quote: 'When the token is invalid, expired or revoked, the response is 401 with error code `auth.token_invalid` and category `permanent`.',
  },
  {
    id: 'auth/5.4/malformed-header',
    level: 'MUST',
    section: '5.4',
    statement:
      'A Bearer header with no token, a garbled token or several words answers 401 with `auth.token_missing` or `auth.token_invalid` (the spec does not say which), category `permanent`.',
    quote: 'All token-authenticated endpoints require the bearer header (section 5).',
  },
  {
    id: 'auth/5.4/revoked-token',
    level: 'MUST',
    section: '5.4',
    statement: 'A revoked token answers 401 `auth.token_invalid`, category `permanent` (runs when the profile names one).',
    quote: 'When the token is invalid, expired or revoked, the response is 401 with error code `auth.token_invalid` and category `permanent`.',
  },
  {
    id: 'auth/5.4/expired-token',
    level: 'MUST',
    section: '5.4',
    statement: 'An expired token answers 401 `auth.token_invalid`, category `permanent` (runs when the profile names one).',
    quote: 'When the token is invalid, expired or revoked, the response is 401 with error code `auth.token_invalid` and category `permanent`.',
  },
  {
    id: 'auth/7/other-scheme',
    level: 'MUST',
    section: '7',
    statement:
      'An Authorization header of another scheme than Bearer (`Token <valid token>`, the bare token, `Basic`) is no bearer header: 401 `auth.token_missing`, category `permanent`.',
    quote: '401 | auth.token_missing | permanent | No bearer header.',
  },
]);
