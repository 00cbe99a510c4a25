import type { DefectSwitch, VariantSwitch } from '../switches.ts';

const REST = 'conversation-rest';
const STREAM = 'conversation-stream';
const ASYNC = 'conversation-async';
const FAULTS = 'conversation-faults';

/** Each breaks one rule of §1, §2.4, §6, §7, §8.1 or §8.2 for the message routes. */
export const conversationDefects: DefectSwitch[] = [
  {
    name: 'conversation-stream-by-default',
    breaks: ['conversation/1/rest-default'],
    suites: [REST],
    description: 'Answers with an event stream even when neither the Accept header nor `stream: true` asked for one.',
  },
  {
    name: 'conversation-rest-returns-early',
    breaks: ['conversation/1/rest-finished'],
    suites: [REST],
    description: 'The REST answer comes before the turn is done: `messages` empty and `status: running`.',
  },
  {
    name: 'conversation-rest-empty-messages',
    breaks: ['conversation/2.4/rest-messages-non-empty'],
    suites: [REST],
    description: 'The REST answer of a finished turn (no pending state) has an empty `messages` array.',
  },
  {
    name: 'conversation-rest-without-conversation-id',
    breaks: ['conversation/2.4/response-fields'],
    suites: [REST],
    description: 'The REST response leaves out `conversation_id`.',
  },
  {
    name: 'conversation-stream-as-json',
    breaks: ['conversation/1/sse-by-accept', 'conversation/1/sse-by-stream-flag'],
    suites: [STREAM],
    description: 'Sends the event stream with `Content-Type: application/json`.',
  },
  {
    name: 'conversation-stream-flag-ignored',
    breaks: ['conversation/1/sse-by-stream-flag'],
    suites: [STREAM],
    description: 'Ignores the body field `stream: true` and answers with the REST response.',
  },
  {
    name: 'conversation-accept-ignored',
    breaks: ['conversation/1/sse-by-accept'],
    suites: [STREAM],
    description: 'Ignores `Accept: text/event-stream` and answers with the REST response.',
  },
  {
    name: 'conversation-stream-no-done',
    breaks: ['conversation/6/single-terminal-event'],
    suites: [STREAM],
    description: 'Closes the stream after the last text delta without a `done` event.',
  },
  {
    name: 'conversation-stream-event-after-done',
    breaks: ['conversation/6/single-terminal-event'],
    suites: [STREAM],
    description: 'Sends one more `text_delta` after `done`.',
  },
  {
    name: 'conversation-stream-error-after-done',
    breaks: ['conversation/6/single-terminal-event'],
    suites: [STREAM],
    description: 'Sends an `error` event after `done`, the final state.',
  },
  {
    name: 'conversation-stream-unmatched-tool-result',
    breaks: ['conversation/6/tool-result-matches'],
    suites: [STREAM],
    description: 'Sends a `tool_result` whose id no earlier `tool_use` carried.',
  },
  {
    name: 'conversation-stream-done-without-messages',
    breaks: ['conversation/6/done-shape', 'conversation/6/event-data'],
    suites: [STREAM],
    description: 'Sends `done` with `conversation_id` only, no `messages`.',
  },
  {
    name: 'conversation-stream-unknown-event',
    breaks: ['conversation/6/event-names'],
    suites: [STREAM],
    description: 'Sends an event named `thinking`, which §6 does not list.',
  },
  {
    name: 'conversation-stream-data-not-json',
    breaks: ['conversation/6/event-data'],
    suites: [STREAM],
    description: 'Sends the data of the first `text_delta` as plain text instead of JSON.',
  },
  {
    name: 'conversation-stream-flush-at-end',
    breaks: ['conversation/6/incremental-delivery'],
    suites: [STREAM],
    description: 'Holds every event back and writes the whole stream in one burst when the turn is over.',
  },
  {
    name: 'conversation-stream-open-after-done',
    breaks: ['conversation/6/closes-after-terminal'],
    suites: [STREAM],
    description: 'Keeps the stream open for 30 s after `done`.',
  },
  {
    name: 'conversation-stream-no-pool-headers',
    breaks: ['conversation/8.1/message-write-pool'],
    suites: [STREAM],
    description: 'Sends the event stream without the X-RateLimit-* headers.',
  },
  {
    name: 'conversation-job-not-found',
    breaks: ['conversation/1/async-job'],
    suites: [ASYNC],
    description: 'Creates async jobs but answers 404 when they are polled.',
  },
  {
    name: 'conversation-job-poll-write-pool',
    breaks: ['conversation/8.1/job-poll-read-pool'],
    suites: [ASYNC],
    description: 'Charges the GET that polls a message job to the write pool (decided in pool-charge.ts).',
  },
  {
    name: 'conversation-job-poll-charged-twice',
    breaks: ['conversation/8.1/job-poll-read-pool'],
    suites: [ASYNC],
    description: 'Charges each GET that polls a message job two read points (decided in pool-charge.ts; the headers show both).',
  },
  {
    name: 'conversation-job-post-read-pool',
    breaks: ['conversation/8.1/job-post-write-pool', 'conversation/8.1/message-write-pool'],
    suites: [ASYNC, REST],
    description:
      'Charges message POSTs, the one that creates a job among them, to the read pool (decided in pool-charge.ts, which sees the path but not the body).',
  },
  {
    name: 'conversation-upstream-plain-text',
    breaks: ['conversation/7/upstream-503'],
    suites: [FAULTS],
    description: 'Answers an unavailable upstream with 503 and a plain-text body instead of the envelope.',
  },
  {
    name: 'conversation-upstream-permanent',
    breaks: ['conversation/7/upstream-transient'],
    suites: [FAULTS],
    description: 'Reports an unavailable upstream with category `permanent`.',
  },
  {
    name: 'conversation-spend-cap-as-429',
    breaks: ['conversation/8.2/spend-cap-not-rate-limit'],
    suites: [FAULTS],
    description: 'Refuses messages at the spend cap with 429 rate_limit.exceeded, category rate_limited and Retry-After: 60, like the per-minute limit.',
  },
  {
    name: 'conversation-upstream-job-rate-limited',
    breaks: ['conversation/7/upstream-transient'],
    suites: [FAULTS],
    description: 'With the upstream unavailable, a job-mode POST answers 503 `upstream.unavailable` with category `rate_limited` (REST and streamed POSTs say `transient`).',
  },
  {
    name: 'conversation-faults-skip-company-stream-flag',
    breaks: ['conversation/7/upstream-503', 'conversation/8.2/spend-cap-refused'],
    suites: [FAULTS],
    description: 'POSTs on the company route with `stream: true` never check the upstream or the spend cap: under either fault they are streamed to `done` like any other turn.',
  },
  {
    name: 'conversation-spend-cap-ignored',
    breaks: ['conversation/8.2/spend-cap-refused'],
    suites: [FAULTS],
    description: 'Keeps serving messages when the spend cap is reached.',
  },
];

/** Legal framings of the event stream (HTML Standard, event-stream grammar) and other legal turns. */
export const conversationVariants: VariantSwitch[] = [
  {
    name: 'conversation-rest-201',
    suites: [REST],
    description: 'The blocking answer of a finished turn is 201 rather than 200 (§1 says it "returns when the agent finishes" and names no status).',
  },
  {
    name: 'conversation-job-payload-other',
    suites: ['conversation-async'],
    description: 'Job polls answer another vendor\'s payload: `state` `pending`, `in_progress` or `succeeded`, a nested `job` object and the turn under `output` (§4.3: the payload is not shown).',
  },
  {
    name: 'conversation-accept-406-elsewhere',
    suites: ['exchange-matrix'],
    description:
      'GET and HEAD on /me, the ledger and a job poll refuse an Accept that allows no JSON answer (`text/event-stream` alone) with 406 and the envelope, after the limiter (§1 names `Accept: text/event-stream` for the message routes only; elsewhere it is open).',
    limits: { windowS: 4 },
  },
  {
    name: 'conversation-other-workspace-403',
    suites: ['exchange-matrix'],
    description: 'A poll of another workspace\'s job is answered 403 `auth.forbidden` rather than 404 (the spec says nothing of another workspace\'s ids).',
    limits: { windowS: 4 },
  },
  { name: 'conversation-framing-crlf', suites: [STREAM, REST], description: 'Ends every line of the event stream with CRLF.' },
  { name: 'conversation-framing-cr', suites: [STREAM, REST], description: 'Ends every line of the event stream with a lone CR.' },
  { name: 'conversation-framing-comments', suites: [STREAM, REST], description: 'Sends `: keepalive` comment lines before every event and one at the start.' },
  { name: 'conversation-framing-id-retry', suites: [STREAM, REST], description: 'Sends a `retry: 3000` field first and an `id:` line on every event.' },
  {
    name: 'conversation-framing-multiline-data',
    suites: [STREAM, REST],
    description: 'Spreads the JSON of every event over several `data:` lines (the parser joins them with LF).',
  },
  { name: 'conversation-framing-bom', suites: [STREAM, REST], description: 'Starts the event stream with a byte order mark.' },
  { name: 'conversation-framing-no-space', suites: [STREAM, REST], description: 'Writes fields as `data:{...}`, with no space after the colon.' },
  { name: 'conversation-no-tool-events', suites: [STREAM, REST, FAULTS], description: 'Turns without any `tool_use` or `tool_result` event.' },
  {
    name: 'conversation-stream-fast',
    suites: [STREAM],
    description: 'Streams like a fast server: the first event after 250 ms, then one event every 2 ms (the whole answer within about 25 ms).',
  },
  {
    name: 'conversation-plain-texts-only',
    suites: [REST],
    description:
      'A strict agent: a message that is not printable ASCII of at most 200 characters (a form feed, U+2028, an emoji, 400 characters) is refused with 400 `request.validation_failed` (§4.3 fixes no rule for a message\'s content).',
  },
  {
    name: 'conversation-spend-cap-429-own-code',
    suites: [FAULTS],
    description:
      'Answers the spend cap with 429 under a code of its own (`credits.spend_cap_reached`, category `permanent`) and no Retry-After: §8.2 does not show the cap\'s response, and it is not the rate limit\'s.',
  },
  { name: 'conversation-tool-ids-numeric', suites: [STREAM], description: 'Tool ids are JSON numbers (§6 names the `id` field, not its type).' },
  {
    name: 'conversation-stream-error-midway',
    suites: [STREAM],
    description:
      'Reports a failed tool with an `error` event right after its `tool_result`, pauses 2.5 s, then goes on to `done` (an `error` that is not last did not end the turn, and a slow continuation is no stream left open).',
  },
];
