import type { DefectSwitch } from '../switches.ts';

/**
 * Defects that break a run-wide rule (lib/invariants/) on a route, status, form or token the
 * suites do not target with a test of their own: only the rules that judge every exchange of the
 * run can catch them.
 */
export const runWideDefects: DefectSwitch[] = [
  {
    name: 'errors-json-as-text-plain',
    breaks: ['errors/7/json-media-type'],
    suites: ['errors'],
    description: 'Error envelopes are sent with Content-Type text/plain (the body is still the JSON envelope).',
  },
  {
    name: 'ledger-page-as-text-plain',
    breaks: ['errors/7/json-media-type'],
    suites: ['ledger-schema'],
    description: 'Ledger pages (200) are sent with Content-Type text/plain (the body is still the JSON page).',
  },
  {
    name: 'conversation-rest-as-text-plain',
    breaks: ['errors/7/json-media-type'],
    suites: ['conversation-rest'],
    description: 'The blocking answer to a message POST is sent with Content-Type text/plain (the body is still the JSON conversation response).',
  },
  {
    name: 'ratelimit-retry-after-on-served',
    breaks: ['ratelimit/8.1/retry-after-only-on-429'],
    suites: ['auth'],
    description: 'Every served authenticated response carries `Retry-After: 0`, a header §8.1 gives to 429 responses only.',
  },
  {
    name: 'ratelimit-company-stream-hidden-limiter',
    breaks: ['ratelimit/8.1/429-remaining-zero', 'ratelimit/8.1/no-hidden-route-cap'],
    suites: ['conversation-stream'],
    description:
      'A hidden per-route limiter: a streamed POST (Accept: text/event-stream) on the company route answers 429 `rate_limit.exceeded` while its write pool headers still show points left.',
  },
  {
    name: 'conversation-tool-result-exposes-output',
    breaks: ['conversation/6/tool-result-not-exposed'],
    suites: ['conversation-stream'],
    description: "`tool_result` events carry the tool's return value in an `output` field, which §6 says is not exposed in v1.",
  },
  {
    name: 'conversation-job-poll-500',
    breaks: ['errors/7/no-server-error'],
    suites: ['conversation-async'],
    description: 'Polling a message job answers 500 (`system.internal`, in the envelope).',
  },
  {
    name: 'conversation-job-poll-no-pool-headers',
    breaks: ['conversation/8.1/job-poll-read-pool', 'ratelimit/4/headers-on-authenticated-responses'],
    suites: ['conversation-async'],
    description: 'A job poll is charged to the read pool but its response carries no X-RateLimit-* headers.',
  },
  {
    name: 'ledger-upstream-500-html',
    breaks: ['errors/7/envelope', 'errors/7/no-server-error', 'errors/7/json-media-type'],
    suites: ['conversation-faults'],
    description: 'With the upstream unavailable, GET /credits/operations answers 500 with an HTML error page (the upstream drills call the ledger; no suite test looks).',
  },
  {
    name: 'ratelimit-limiter-down-job-poll-request-id',
    breaks: ['errors/7/request-id-header'],
    suites: ['ratelimit-limiter-fault'],
    description: "With the limiter store down, a job poll's 503 `system.rate_limit_unavailable` carries a request_id unlike its X-Request-Id.",
  },
  {
    name: 'conversation-spend-cap-company-stream-no-pool-headers',
    breaks: ['conversation/8.1/message-write-pool', 'ratelimit/4/headers-on-authenticated-responses'],
    suites: ['conversation-faults'],
    description: "With the spend cap reached, a POST on the company route with `Accept: text/event-stream` is refused with 503 but without the write pool's X-RateLimit-* headers.",
  },
  {
    name: 'conversation-spend-cap-company-job-as-429',
    breaks: ['ratelimit/8.1/429-remaining-zero', 'conversation/8.2/spend-cap-not-rate-limit'],
    suites: ['conversation-faults'],
    description: "With the spend cap reached, a job-mode POST on the company route answers 429 `rate_limit.exceeded` (Retry-After 60) while its write pool headers still show points left.",
  },
  {
    name: 'auth-inactive-token-request-id-mismatch',
    breaks: ['errors/7/request-id-header'],
    suites: ['auth'],
    description: 'The 401 `auth.token_invalid` of a revoked or expired token carries a request_id unlike its X-Request-Id (the 401s of missing and unknown tokens are right).',
  },
  {
    name: 'ledger-other-workspace-offset-timestamps',
    breaks: ['ledger/2.1/timestamp-utc-z'],
    suites: ['ledger-cursor'],
    description: 'Rows listed to a workspace other than the first carry `+00:00` timestamps instead of a trailing `Z`.',
  },
];
