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
  ] as const satisfies readonly Omit<ClientRequirement, 'area'>[]
).map((r) => ({ ...r, area: 'client' as const }));
