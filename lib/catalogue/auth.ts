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
    id: 'auth/5.3/missing-header',
    level: 'MUST',
    section: '5.3',
    statement: 'Without an Authorization header every authenticated route answers 401 `auth.token_missing`, category `permanent`.',
    quote: 'When the header is missing, the response is 401 with error code `auth.token_missing` and category `permanent`.',
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
    id: 'auth/5.4/malformed-header',
    level: 'MUST',
    section: '5.4',
    statement:
      'A malformed Authorization header (other scheme, empty or garbled token) answers 401 with `auth.token_missing` or `auth.token_invalid`, category `permanent`.',
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
]);
