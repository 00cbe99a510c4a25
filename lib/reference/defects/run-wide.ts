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
    name: 'ratelimit-retry-after-on-served',
    breaks: ['ratelimit/8.1/retry-after-only-on-429'],
    suites: ['auth'],
    description: 'Every served authenticated response carries `Retry-After: 0`, a header §8.1 gives to 429 responses only.',
  },
  {
    name: 'ratelimit-company-stream-hidden-limiter',
    breaks: ['ratelimit/8.1/429-remaining-zero'],
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
    name: 'ledger-other-workspace-offset-timestamps',
    breaks: ['ledger/2.1/timestamp-utc-z'],
    suites: ['ledger-cursor'],
    description: 'Rows listed to a workspace other than the first carry `+00:00` timestamps instead of a trailing `Z`.',
  },
];
