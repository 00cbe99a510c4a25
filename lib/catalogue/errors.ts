import { requirements } from './define.ts';

export const errorsRequirements = requirements('errors', [
  {
    id: 'errors/7/envelope',
    level: 'MUST',
    section: '7',
    statement:
      'Every error response is a JSON object with one key `error` holding string `code` (not blank), `category`, `message` (not blank) and `request_id`, and `details` only as an object.',
    quote: 'All error responses use this envelope: a JSON object with one key `error`',
  },
  {
    id: 'errors/7/category-value',
    level: 'MUST',
    section: '7',
    statement: '`error.category` is one of `permanent`, `transient`, `rate_limited`.',
    quote: 'category | string | yes | One of `permanent`, `transient`, `rate_limited`.',
  },
  {
    id: 'errors/7/request-id-header',
    level: 'MUST',
    section: '7',
    statement: '`error.request_id` equals the `X-Request-Id` response header.',
    quote: 'request_id | string | yes | Trace id, equal to the `X-Request-Id` response header.',
  },
  {
    id: 'errors/7/known-code-status',
    level: 'MUST',
    section: '7',
    statement: 'A known error code comes with the HTTP status and category the table of known codes gives it.',
    quote: 'Known codes: | HTTP status | code | category | Condition |',
  },
  {
    id: 'errors/7/no-server-error',
    level: 'MUST',
    section: '7',
    statement:
      'No request on a route the spec names is answered with a 5xx other than 503: every ledger, /me and job-poll request, and a message POST carrying the profile\'s message. The ledger lists 503 as its only 5xx (§4.1) and §7 names 503 as the only server-side failure.',
    quote: '| 503 | Error envelope (upstream dependency unavailable). |',
  },
  {
    id: 'errors/7/json-media-type',
    level: 'SHOULD',
    section: '7',
    statement:
      'A body the spec defines as JSON (an error envelope, a ledger page, the REST conversation response) is labelled with a JSON media type, `application/json` or a `+json` type. A SHOULD: the spec says "a JSON object" but names no media type; HTTP asks a sender to label its content (RFC 9110 §8.3).',
    quote: 'All error responses use this envelope: a JSON object with one key `error`',
  },
]);
