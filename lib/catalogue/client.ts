import type { Requirement } from '../model/requirement.ts';

/** A requirement on clients: an area of its own, outside the server report's areas. */
export type ClientRequirement = Omit<Requirement, 'area'> & { readonly area: 'client' };

/**
 * What the spec asks of clients, graded by `asi-conformance client` only: a server run never
 * selects, judges or reports these (they are not part of `catalogue`).
 */
export const clientRequirements: readonly ClientRequirement[] = (
  [
  {
    id: 'client/4.1/cursor-verbatim',
    level: 'MUST',
    section: '4.1',
    statement:
      'Every cursor the client sends equals, byte for byte once the query is decoded, a `next_cursor` the server gave it earlier; it stops at `null` and never builds a cursor of its own.',
    quote: 'Pass back exactly the value returned earlier in `next_cursor`. … The cursor must not be interpreted or altered by the client.',
  },
  {
    id: 'client/8.1/retry-after-honoured',
    level: 'MUST',
    section: '8.1',
    statement: 'After a 429, the client sends nothing to the refused pool before the `Retry-After` seconds have passed (§7 and §8.1).',
    quote: '`rate_limited`: retry after the number of seconds in `Retry-After`. … 429 responses only: seconds until the next request will succeed.',
  },
  {
    id: 'client/8.1/same-request-after-429',
    level: 'MUST',
    section: '8.1',
    statement: 'The request a client repeats after a 429 is the same request: method, path, query and body.',
    quote: 'A rejected 429 request has done no work, so repeating it is safe, including POST and DELETE. … on 429, sleep for `Retry-After` seconds and retry the same request',
  },
  {
    id: 'client/8.1/backoff-multiplier',
    level: 'SHOULD',
    section: '8.1',
    statement: 'When the same request is refused by 429 again, the client waits more than `Retry-After` before sending it once more (a SHOULD: recommended client behaviour).',
    quote: 'on repeated 429s add a backoff multiplier on top of `Retry-After`',
  },
  {
    id: 'client/7/no-retry-permanent',
    level: 'MUST',
    section: '7',
    statement: 'A request answered with category `permanent` is not sent again unchanged: the client fixes the request instead.',
    quote: '`permanent`: fix the request.',
  },
  {
    id: 'client/5/bearer-only',
    level: 'MUST',
    section: '5',
    statement: 'The token travels only in `Authorization: Bearer <token>`: never in the query, another header or the body.',
    quote: 'Every endpoint except the unauthenticated routes requires the header `Authorization: Bearer <API_TOKEN>`.',
  },
  {
    id: 'client/7/transient-backoff',
    level: 'SHOULD',
    section: '7',
    statement: 'A request answered with category `transient` is retried, each wait before the next retry no shorter than the one before and the last well above the first (a SHOULD: the spec names no schedule).',
    quote: '`transient`: retry with backoff.',
  },
  {
    id: 'client/7/no-match-on-wording',
    level: 'MUST',
    section: '7',
    statement: 'Two runs that differ only in error message wording and request ids draw the same requests from the client (method, path, query, body), in the same order and at about the same cadence.',
    quote: 'Human-readable English text. Wording may change, so clients must not match on it.',
  },
  {
    id: 'client/8.1/poll-cadence',
    level: 'SHOULD',
    section: '8.1',
    statement: 'An async message job is polled with GET, the first poll about 1 s after the POST and each next wait doubling up to 5 s (a SHOULD: recommended client behaviour).',
    quote: 'Polling an async message job is a GET and uses the read pool. … poll async jobs with a backoff starting at 1 second and doubling up to 5 seconds',
  },
  {
    id: 'client/8.1/slow-down-low-remaining',
    level: 'SHOULD',
    section: '8.1',
    statement: 'Once `X-RateLimit-Remaining` is under 10% of `X-RateLimit-Limit`, the client spaces its requests to that pool further apart than before (a SHOULD: recommended client behaviour).',
    quote: 'slow down when `X-RateLimit-Remaining` falls below 10% of the limit',
  },
  {
    id: 'client/6/stream-final-state',
    level: 'SHOULD',
    section: '6',
    statement: 'A client reading the turn as an event stream, in any legal framing (LF, CRLF or CR line ends, comments, `id:` and `retry:` lines, multi-line data, a slow start), reaches the REST answer\'s final state, or the `error` event\'s code (a SHOULD: §6 binds the server\'s events, not how clients read them).',
    quote: 'Events are delivered as Server-Sent Events only when streaming is chosen on the message POST … Final state; same shape as the REST response.',
  },
  ] as const satisfies readonly Omit<ClientRequirement, 'area'>[]
).map((r) => ({ ...r, area: 'client' as const }));
