import { requirements } from './define.ts';

/**
 * GET /credits/operations (§2.1, §2.2, §4, §4.1, §8.3). What the spec leaves open is not here:
 * the order of rows, the cursor's format, whether a non-final page is full, the window when only
 * one bound is given, the instant a date or an offset-less date-time stands for, message texts
 * and extra fields (see docs/ambiguity-register.md, Ledger).
 */
export const ledgerRequirements = requirements('ledger', [
  // §2.1 Credit operation (ledger row)
  {
    id: 'ledger/2.1/row-schema',
    level: 'MUST',
    section: '2.1',
    statement:
      'Every row carries `operation_uuid`, `operation_type` and `feature` as strings, `credits` as a number, `metadata` as an object and `timestamp` as a string.',
    quote:
      'operation_uuid | string | yes … operation_type | string | yes … feature | string | yes … credits | number | yes … metadata | object | yes | Free-form object. … timestamp | string, date-time | yes',
  },
  {
    id: 'ledger/2.1/timestamp-utc-z',
    level: 'MUST',
    section: '2.1',
    statement: 'Every row `timestamp` is a full ISO 8601 date-time in UTC written with a trailing `Z` (no numeric offset, not even `+00:00`).',
    quote: 'Always output as full ISO 8601 with a trailing `Z`. … Timestamps in the output are always full ISO 8601 with `Z`.',
  },
  // §2.2 Credit operations page
  {
    id: 'ledger/2.2/page-schema',
    level: 'MUST',
    section: '2.2',
    statement: 'A 200 answer is a JSON object whose `operations` is an array of credit operations.',
    quote: 'operations | array of credit operation | yes | Rows of the requested window.',
  },
  {
    id: 'ledger/2.2/next-cursor-present',
    level: 'MUST',
    section: '2.2',
    statement: 'Every page carries `next_cursor`, a string or null; the key is never left out.',
    quote: 'next_cursor | string or null | yes | Opaque cursor for the next page.',
  },
  {
    id: 'ledger/2.2/null-cursor-on-last-page',
    level: 'MUST',
    section: '2.2',
    statement:
      'Following `next_cursor` reaches a page whose `next_cursor` is null: a walk never returns a cursor it already returned. (A cursor whose next page is empty and final is allowed.)',
    quote: 'It is null when there is no further page.',
  },
  {
    id: 'ledger/2.2/no-cursor-to-empty-page',
    level: 'SHOULD',
    section: '2.2',
    statement:
      'A page after which no row is left carries `next_cursor` null, rather than a cursor whose page is empty (a client cannot tell that last request is wasted).',
    quote: 'It is null when there is no further page.',
  },
  // §4
  {
    id: 'ledger/4/rate-limit-headers',
    level: 'MUST',
    section: '4',
    statement:
      'Every 200 answer of GET /credits/operations carries X-RateLimit-Pool `read`, X-RateLimit-Limit, X-RateLimit-Remaining and X-RateLimit-Reset with their §8.1 meaning.',
    quote: 'Every authenticated response carries the rate-limit headers (section 8).',
  },
  // §4.1 window rules
  {
    id: 'ledger/4.1/from-inclusive',
    level: 'MUST',
    section: '4.1',
    statement: 'A row whose timestamp equals `from` is in the window, and no row earlier than `from` is.',
    quote: 'Inclusive lower bound of the window.',
  },
  {
    id: 'ledger/4.1/to-exclusive',
    level: 'MUST',
    section: '4.1',
    statement: 'No row whose timestamp equals `to` or comes after it is in the window.',
    quote: 'Exclusive upper bound of the window.',
  },
  {
    id: 'ledger/4.1/reversed-window-400',
    level: 'MUST',
    section: '4.1',
    statement:
      '`to` earlier than `from` answers 400 with the error envelope and category `permanent`; earlier means as instants, whatever offsets the two are written with.',
    quote: 'When `to` is earlier than `from`, the response is 400. … 400 | (validation failure) | permanent | Invalid request, for example `to` earlier than `from`.',
  },
  {
    id: 'ledger/4.1/equal-bounds-empty',
    level: 'MUST',
    section: '4.1',
    statement: '`to` equal to `from` is accepted (200) and selects no row, even where rows carry exactly that timestamp.',
    quote: 'Same accepted formats. Must be >= `from`. | Exclusive upper bound of the window.',
  },
  {
    id: 'ledger/4.1/date-only-accepted',
    level: 'MUST',
    section: '4.1',
    statement:
      'A bound written `YYYY-MM-DD` is accepted and stands for 00:00 of that day in some zone: no row outside every reading of the window (UTC−12 to UTC+14) is listed, so the bound is not dropped.',
    quote: 'Parsed from `YYYY-MM-DD` or RFC 3339, with or without offset.',
  },
  {
    id: 'ledger/4.1/offset-instant',
    level: 'MUST',
    section: '4.1',
    statement:
      'A bound written in RFC 3339 with `Z` or a `±hh:mm` offset is accepted and stands for that instant: every way of writing one instant selects the same rows (`+00:00` and `-00:00` as `Z`; offsets from −12:00 to +14:00 on whole, half and quarter hours; none to nine fraction digits; the value percent-encoded in upper- or lower-case hex, or with `:` unencoded), and a window whose `to` text sorts before its `from` text but whose instants do not is accepted.',
    quote: 'Parsed from `YYYY-MM-DD` or RFC 3339, with or without offset.',
  },
  {
    id: 'ledger/4.1/rfc3339-lenient-forms',
    level: 'SHOULD',
    section: '4.1',
    statement:
      'A bound in the RFC 3339 forms libraries read less often (lower-case `t` and `z`, offsets past ±18:00 up to `±23:59`, twelve fraction digits) is accepted and stands for the instant RFC 3339 gives it. A SHOULD: RFC 3339 §5.6 lets a specification limit the letters to upper case, and date libraries cap offsets and fractions.',
    quote: 'Parsed from `YYYY-MM-DD` or RFC 3339, with or without offset.',
  },
  {
    id: 'ledger/4.1/open-query-forms',
    level: 'INFO',
    section: '4.1',
    statement:
      'Query values whose reading the spec leaves open (`limit` written `007`, `+5`, `5.0`, `1e2`, with a space or empty; a `feature` whose length readings straddle 64; a parameter given twice; an offset whose `+` is sent unencoded; an empty `cursor=`) are sent and how the server answered is noted; run-wide rules still hold each answer to no 5xx and the envelope on a 4xx.',
    quote: 'Query parameters (all optional):',
  },
  {
    id: 'ledger/4.1/offsetless-accepted',
    level: 'MUST',
    section: '4.1',
    statement:
      'A bound written as an RFC 3339 date-time without offset is accepted and stands for that wall-clock time in some zone: no row outside every reading of the window (UTC−12 to UTC+14) is listed, so the bound is not dropped.',
    quote: 'Parsed from `YYYY-MM-DD` or RFC 3339, with or without offset.',
  },
  {
    id: 'ledger/4.1/invalid-date-400',
    level: 'MUST',
    section: '4.1',
    statement:
      'A bound that is neither a real `YYYY-MM-DD` date nor an RFC 3339 date-time (an impossible date, an out-of-range time or offset, garbage) answers 400 with the envelope and category `permanent`, never 5xx and never rows.',
    quote: 'Parsed from `YYYY-MM-DD` or RFC 3339, with or without offset. … 400 | Error envelope (validation failed).',
  },
  {
    id: 'ledger/4.1/default-window-30-days',
    level: 'MUST',
    section: '4.1',
    statement:
      'Without `from` and `to`, the rows are those of the last 30 days: none older than 31 days and none after the request (30 calendar days in any zone end within a day of 30 × 24 hours), none between 29 days old and the request missing.',
    quote: 'When neither bound is given, the window is the last 30 days. … Default ledger window: 30 days.',
  },
  {
    id: 'ledger/4.1/default-window-pinned',
    level: 'SHOULD',
    section: '4.1',
    statement:
      'A walk of the default window keeps the window of its first page: rows added after the walk began do not appear on its later pages.',
    quote: 'When neither bound is given, the window is the last 30 days. … Opaque cursor for the next page.',
  },
  {
    id: 'ledger/4.1/window-additive',
    level: 'MUST',
    section: '4.1',
    statement: 'For a <= b <= c, the rows of [a, c) are the rows of [a, b) together with the rows of [b, c), and no row is in both.',
    quote: 'Inclusive lower bound of the window. … Exclusive upper bound of the window.',
  },
  // §4.1 filter and pages
  {
    id: 'ledger/4.1/feature-filter',
    level: 'MUST',
    section: '4.1',
    statement: 'With `feature`, every row has exactly that feature (no prefix or partial match) and every row of the window with that feature is returned, on every page.',
    quote: 'feature | string | Length 1 to 64. | Filter by feature.',
  },
  {
    id: 'ledger/4.1/parameter-combinations',
    level: 'MUST',
    section: '4.1',
    statement:
      'Every valid combination of the query parameters (`from` and `to` each in any accepted form, or neither; `feature`; `limit`; and the cursors its walk is given) answers 200 on every page and lists each row of its window with that feature once, and no other: a date or a date-time without offset read in any zone (UTC−12 to UTC+14), no bounds as the last 30 days at the request.',
    quote:
      'Query parameters (all optional): … Parsed from `YYYY-MM-DD` or RFC 3339, with or without offset. … Filter by feature. … Pass back exactly the value returned earlier in `next_cursor`. … When neither bound is given, the window is the last 30 days.',
  },
  {
    id: 'ledger/4.1/page-within-limit',
    level: 'MUST',
    section: '4.1',
    statement: 'A page never holds more rows than `limit`.',
    quote: 'limit | integer | 1 to 200, default 50. | Page size.',
  },
  {
    id: 'ledger/4.1/walk-complete',
    level: 'MUST',
    section: '4.1',
    statement: 'Following the cursors from the first page returns every row of the window exactly once: no duplicate, no gap.',
    quote: 'Returns a paginated raw ledger of credit operations for a time window. … Rows of the requested window.',
  },
  {
    id: 'ledger/4.1/page-size-independent',
    level: 'MUST',
    section: '4.1',
    statement: 'A walk of a window returns the same rows whatever the page size.',
    quote: 'Returns a paginated raw ledger of credit operations for a time window. … 1 to 200, default 50. | Page size.',
  },
  // §4.1 cursor
  {
    id: 'ledger/4.1/cursor-byte-exact',
    level: 'MUST',
    section: '4.1',
    statement: 'A `next_cursor` passed back exactly as returned (percent-encoded in the query string) answers 200 with the next page.',
    quote: 'cursor | string | Opaque. | Pass back exactly the value returned earlier in `next_cursor`.',
  },
  {
    id: 'ledger/4.1/cursor-replay-stable',
    level: 'MUST',
    section: '4.1',
    statement:
      'Passing the same cursor again, while the window has not changed, returns the same rows, or is refused with 400 and the envelope (a cursor valid once); it never returns other rows.',
    quote: 'Pass back exactly the value returned earlier in `next_cursor`. … `transient`: retry with backoff.',
  },
  {
    id: 'ledger/4.1/cursor-garbage-400',
    level: 'MUST',
    section: '4.1',
    statement:
      'A cursor value the server never returned answers 400 with the envelope and category `permanent`, or (a server that reads cursors leniently, `{}` as the start) a page of the same window; never 5xx and never rows outside the window.',
    quote: 'cursor | string | Opaque. | Pass back exactly the value returned earlier in `next_cursor`. … 400 | Error envelope (validation failed).',
  },
  {
    id: 'ledger/4.1/cursor-tamper-400',
    level: 'SHOULD',
    section: '4.1',
    statement: 'A returned cursor altered by the client (cut, extended, a character changed) is refused with 400 and the envelope rather than read as another position.',
    quote: 'The cursor must not be interpreted or altered by the client.',
  },
  {
    id: 'ledger/4.1/cursor-workspace-bound',
    level: 'MUST',
    section: '4.1',
    statement: "A cursor obtained with one workspace's token and passed with another workspace's token never returns the first workspace's rows.",
    quote: 'Credits | Workspace credit usage and limit state. … cursor | string | Opaque.',
  },
  {
    id: 'ledger/4.1/workspaces-disjoint',
    level: 'MUST',
    section: '4.1',
    statement: "Two workspaces' ledgers share no operation: a token of one workspace never sees a row of the other.",
    quote: 'Credits | Workspace credit usage and limit state.',
  },
  {
    id: 'ledger/4.1/stable-under-growth',
    level: 'MUST',
    section: '4.1',
    statement: 'Rows added while a walk is under way never make it skip a row that was in the window when the walk began.',
    quote: 'Returns a paginated raw ledger of credit operations for a time window. … Opaque cursor for the next page.',
  },
  {
    id: 'ledger/4.1/no-repeat-under-growth',
    level: 'SHOULD',
    section: '4.1',
    statement:
      'Rows added while a walk is under way do not make it list a row twice (an offset cursor over newest-first rows does; the spec does not rule such cursors out).',
    quote: 'Returns a paginated raw ledger of credit operations for a time window. … Opaque cursor for the next page.',
  },
  // §8.3 Parameter bounds
  {
    id: 'ledger/8.3/limit-bounds',
    level: 'MUST',
    section: '8.3',
    statement: '`limit` 1, 200 and every integer between are accepted.',
    quote: '`limit` on the ledger: integer 1 to 200, default 50.',
  },
  {
    id: 'ledger/8.3/limit-invalid-400',
    level: 'MUST',
    section: '8.3',
    statement:
      'A `limit` below 1, above 200, negative, fractional or not a number in every reading (`0.0`, `-0`, `000`, `201.0`, `0201`, `2e3` too) answers 400 with the envelope and category `permanent`; it is not clamped or replaced by the default.',
    quote: '`limit` on the ledger: integer 1 to 200, default 50. … 400 | Error envelope (validation failed).',
  },
  {
    id: 'ledger/8.3/limit-default-50',
    level: 'MUST',
    section: '8.3',
    statement:
      'Without `limit`, pages are those of `limit=50`: at most 50 rows, a walk lists every row of its window, and where walks at `limit=50` fill their pages (50 rows on every page that leads on), walks without `limit` that repeat each other do too, the first page holding the same rows when the server lists them in a repeatable order.',
    quote: '`limit` on the ledger: integer 1 to 200, default 50.',
  },
  {
    id: 'ledger/8.3/feature-bounds',
    level: 'MUST',
    section: '8.3',
    statement:
      '`feature` of length 1 and of length 64 is accepted, and so is every `feature` whose length is 1 to 64 in every reading (graphemes, code points, UTF-16 units, UTF-8 bytes): multi-byte, right-to-left, astral and combining text of up to 64 bytes, with leading and trailing spaces.',
    quote: '`feature` on the ledger: length 1 to 64.',
  },
  {
    id: 'ledger/8.3/feature-invalid-400',
    level: 'MUST',
    section: '8.3',
    statement:
      'A `feature` longer than 64 in every reading of length (65 characters of ASCII, two-byte, astral or combining text: more than 64 graphemes) answers 400 with the envelope and category `permanent`.',
    quote: '`feature` on the ledger: length 1 to 64. … 400 | Error envelope (validation failed).',
  },
  {
    id: 'ledger/8.3/feature-empty-400',
    level: 'SHOULD',
    section: '8.3',
    statement:
      'An empty `feature` (`feature=`) is refused with 400, the envelope and category `permanent`, rather than read as no filter. A SHOULD: its length, 0, is outside 1 to 64, but many HTTP stacks read an empty parameter as an absent one.',
    quote: '`feature` on the ledger: length 1 to 64. … 400 | Error envelope (validation failed).',
  },
]);
