import { requirements } from './define.ts';

export const errorsRequirements = requirements('errors', [
  {
    id: 'errors/7/envelope',
    level: 'MUST',
    section: '7',
    statement:
      'Every error response is a JSON object with one key `error` holding string `code`, `category`, `message` and `request_id`, and `details` only as an object.',
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
]);
