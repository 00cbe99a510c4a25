import { requirements } from './define.ts';

export const unauthenticatedRequirements = requirements('unauthenticated', [
  {
    id: 'unauthenticated/4.2/no-token-needed',
    level: 'MUST',
    section: '4.2',
    statement:
      '/health, /openapi.json and /openapi.yaml answer 2xx to a GET that carries no Authorization header (a 429 of their per-IP limiter is waited out, never held against them).',
    quote: 'Every endpoint except the unauthenticated routes requires the header `Authorization: Bearer <API_TOKEN>`.',
  },
  {
    id: 'unauthenticated/8.1/no-token-points',
    level: 'MUST',
    section: '8.1',
    statement:
      "Requests to the unauthenticated routes with a valid bearer token sent along leave that token's read pool untouched.",
    quote: 'Unauthenticated routes do not consume token points.',
  },
]);
