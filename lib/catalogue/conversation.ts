import { requirements } from './define.ts';

/**
 * Conversations: the message POST of a deal or company agent in its three transports (REST,
 * SSE, async job), the §6 event grammar, the pools the message traffic spends, and the upstream
 * and spend-cap failures. Paths and bodies come from the profile: the spec does not show them.
 * Levels follow the spec's words; the readings behind them are in docs/ambiguity-register.md.
 */
export const conversationRequirements = requirements('conversation', [
  {
    id: 'conversation/1/rest-default',
    level: 'MUST',
    section: '1',
    statement:
      'A message POST without `Accept: text/event-stream` and without `stream: true` answers with the blocking REST response (a 2xx other than 202, with a JSON body), not an event stream.',
    quote: 'REST blocking (default): the request returns when the agent finishes.',
  },
  {
    id: 'conversation/1/rest-finished',
    level: 'MUST',
    section: '1',
    statement: 'The blocking REST response carries the finished turn: the body shows no pending state (`status` or `state` queued, pending, running, in_progress, processing).',
    quote: 'REST blocking (default): the request returns when the agent finishes.',
  },
  {
    id: 'conversation/2.4/rest-messages-non-empty',
    level: 'SHOULD',
    section: '2.4',
    statement:
      'The `messages` of the blocking REST response hold at least one message: a finished turn has messages of its own. A SHOULD: the spec fixes `messages` only as an array, and `done` carries the same shape.',
    quote: 'messages | array | Messages of the turn.',
  },
  {
    id: 'conversation/2.4/response-fields',
    level: 'MUST',
    section: '2.4',
    statement: 'The REST conversation response is a JSON object with `conversation_id` (string) and `messages` (array).',
    quote: 'The response is an object with `conversation_id` and `messages` (array).',
  },
  {
    id: 'conversation/1/sse-by-accept',
    level: 'MUST',
    section: '1',
    statement: 'A message POST with the header `Accept: text/event-stream` answers 2xx with a `text/event-stream` response.',
    quote: 'SSE streaming: chosen by sending the header `Accept: text/event-stream` or the body field `stream: true`.',
  },
  {
    id: 'conversation/1/sse-by-stream-flag',
    level: 'MUST',
    section: '1',
    statement: 'A message POST with the body field `stream: true` answers 2xx with a `text/event-stream` response.',
    quote: 'SSE streaming: chosen by sending the header `Accept: text/event-stream` or the body field `stream: true`.',
  },
  {
    id: 'conversation/6/event-names',
    level: 'SHOULD',
    section: '6',
    statement: 'Every event of a message stream is one of `text_delta`, `tool_use`, `tool_result`, `done`, `error`.',
    quote: '| Event | Data fields | Meaning |',
  },
  {
    id: 'conversation/6/event-data',
    level: 'MUST',
    section: '6',
    statement:
      'The data of each event is a JSON object carrying the fields the §6 table lists for that event; `done` with the §2.4 types (string `conversation_id`, array `messages`) and `error` with those of the §7 error object. §6 gives `content`, `id` and `tool_name` no type, so none is asked.',
    quote: 'text_delta | content … tool_use | id, tool_name … tool_result | id … done | conversation_id, messages … error | code, category, message',
  },
  {
    id: 'conversation/6/tool-result-matches',
    level: 'MUST',
    section: '6',
    statement: 'Every `tool_result` carries the `id` of a `tool_use` that came earlier in the same stream (a string or a number, compared as text).',
    quote: 'tool_use | id, tool_name | The agent is calling a tool. … tool_result | id | The tool finished.',
  },
  {
    id: 'conversation/6/tool-result-not-exposed',
    level: 'SHOULD',
    section: '6',
    statement:
      "A `tool_result` event carries no field named as the tool's return value (`result`, `output`, `return_value`, `value`, `content`, ...). A SHOULD: other fields are not forbidden, and only the name says what a field holds.",
    quote: "tool_result | id | The tool finished. The tool's return value is not exposed in v1.",
  },
  {
    id: 'conversation/6/single-terminal-event',
    level: 'MUST',
    section: '6',
    statement:
      'A message stream ends with a terminal event, `done` or `error`; it carries at most one `done` and no event follows `done`. An `error` followed by more events did not end the turn.',
    quote: 'done | conversation_id, messages | Final state; same shape as the REST response. … error | code, category, message | Failure.',
  },
  {
    id: 'conversation/6/closes-after-terminal',
    level: 'SHOULD',
    section: '6',
    statement: 'The server closes the stream promptly after its terminal event.',
    quote: 'done | conversation_id, messages | Final state; same shape as the REST response.',
  },
  {
    id: 'conversation/6/done-shape',
    level: 'MUST',
    section: '6',
    statement: 'The data of `done` has the shape of the REST response: `conversation_id` (string) and `messages` (array).',
    quote: 'done | conversation_id, messages | Final state; same shape as the REST response.',
  },
  {
    id: 'conversation/6/incremental-delivery',
    level: 'SHOULD',
    section: '6',
    statement: 'Events reach the client as the turn progresses, not all in one read when the turn is over (events within 5 ms of each other, 200 ms or more after the request, on every stream of a test: a lone burst beside a stream that arrived incrementally may be the client\'s own late read).',
    quote: 'text_delta | content | Incremental assistant tokens.',
  },
  {
    id: 'conversation/6/framing',
    level: 'INFO',
    section: '6',
    statement: 'Framing details of the event stream the HTML event-stream grammar allows but a strict reader may trip on (mixed line ends, unknown fields, a non-numeric retry, an unterminated last event).',
    quote: 'Events are delivered as Server-Sent Events only when streaming is chosen on the message POST',
  },
  {
    id: 'conversation/8.1/message-write-pool',
    level: 'MUST',
    section: '8.1',
    statement: 'Every message POST response, REST or event stream, carries the X-RateLimit-* headers of the write pool.',
    quote: 'Each request consumes one point from the pool matching its method. … Response headers on every authenticated response (2xx and 429)',
  },
  {
    id: 'conversation/1/async-job',
    level: 'MUST',
    section: '1',
    statement:
      "With the profile's async settings, a message POST creates a job (2xx, a job id at the configured JSON pointer) and a GET on the poll path answers 2xx for that job.",
    quote: 'An asynchronous message-job mode also exists: a POST creates a job and a GET polls it.',
  },
  {
    id: 'conversation/8.1/job-post-write-pool',
    level: 'MUST',
    section: '8.1',
    statement: 'The POST that creates an async message job is charged to the write pool.',
    quote: 'The POST that created the job uses the write pool.',
  },
  {
    id: 'conversation/8.1/job-poll-read-pool',
    level: 'MUST',
    section: '8.1',
    statement: 'Every GET that polls an async message job is charged one point of the read pool: its read-pool headers show Remaining down by one at most from the poll before.',
    quote: 'Polling an async message job is a GET and uses the read pool.',
  },
  {
    id: 'conversation/4.3/job-outcome',
    level: 'INFO',
    section: '4.3',
    statement: 'The state an async job reached within the polling budget (the poll payload is not shown by the spec, so it is reported, not judged).',
    quote: 'Polling an async message job is a GET. Its path and payload are not shown.',
  },
  {
    id: 'conversation/7/upstream-503',
    level: 'MUST',
    section: '7',
    statement:
      'With an upstream dependency unavailable, a message POST answers 503 with the §7 envelope, or a stream that has already started ends with an `error` event.',
    quote: '503 | (upstream unavailable) | | An upstream dependency is unavailable, and it can also occur on reaching a spend cap.',
  },
  {
    id: 'conversation/7/upstream-transient',
    level: 'SHOULD',
    section: '7',
    statement: 'The error reported for an unavailable upstream carries category `transient`.',
    quote: '`transient`: retry with backoff.',
  },
  {
    id: 'conversation/8.2/spend-cap-refused',
    level: 'MUST',
    section: '8.2',
    statement: 'With the spend cap reached, a message POST is refused with an error in the §7 envelope, or a stream that has already started ends with an `error` event.',
    quote: 'When a spend cap is reached, requests can fail with HTTP 503 (upstream unavailable).',
  },
  {
    id: 'conversation/8.2/spend-cap-not-rate-limit',
    level: 'MUST',
    section: '8.2',
    statement:
      'The spend-cap refusal is not the rate-limit refusal: neither code `rate_limit.exceeded` nor a 429 of category `rate_limited` (which would send clients to sleep Retry-After and try again).',
    quote: 'Credits cap monthly agent usage. Rate limits are separate and cap requests per minute (see Limits).',
  },
  {
    id: 'conversation/7/fault-code',
    level: 'INFO',
    section: '7',
    statement: 'The status, code and category a message POST answers with under each fault (the spec names no code for upstream 503s).',
    quote: 'The codes for 400 and for upstream 503 responses: not shown.',
  },
  {
    id: 'conversation/7/fault-recovery',
    level: 'INFO',
    section: '7',
    statement: "A message POST succeeds again once the fault hook's disable command has run.",
    quote: '`transient`: retry with backoff.',
  },
]);
