import type { DefectSwitch, VariantSwitch } from '../switches.ts';

const SCHEMA = 'ledger-schema';
const WINDOW = 'ledger-window';
const BOUNDS = 'ledger-bounds';
const PAGINATION = 'ledger-pagination';
const CURSOR = 'ledger-cursor';
const GROWTH = 'ledger-growth';
const MODEL = 'ledger-model';

/** Defects of GET /credits/operations: each breaks one rule of §2.1, §2.2, §4, §4.1 or §8.3. */
export const ledgerDefects: DefectSwitch[] = [
  // §2.1, §2.2, §4: what a page looks like
  {
    name: 'ledger-timestamp-plus-zero-offset',
    breaks: ['ledger/2.1/timestamp-utc-z'],
    suites: [SCHEMA],
    description: 'Writes every row timestamp with `+00:00` instead of `Z`.',
  },
  {
    name: 'ledger-timestamp-some-offset',
    breaks: ['ledger/2.1/timestamp-utc-z'],
    suites: [SCHEMA],
    description: 'Writes about one row in seven with a `+02:00` offset (the right instant, the wrong form).',
  },
  {
    name: 'ledger-credits-string',
    breaks: ['ledger/2.1/row-schema'],
    suites: [SCHEMA],
    description: 'Writes `credits` as a string ("2.5").',
  },
  {
    name: 'ledger-metadata-null',
    breaks: ['ledger/2.1/row-schema'],
    suites: [SCHEMA],
    description: 'Writes `metadata: null` on about one row in nine.',
  },
  {
    name: 'ledger-operations-keyed',
    breaks: ['ledger/2.2/page-schema'],
    suites: [SCHEMA],
    description: 'Sends `operations` as an object keyed by operation_uuid instead of an array.',
  },
  {
    name: 'ledger-next-cursor-omitted',
    breaks: ['ledger/2.2/next-cursor-present'],
    suites: [SCHEMA],
    description: 'Leaves `next_cursor` out of the last page instead of sending null.',
  },
  {
    name: 'ledger-no-rate-limit-headers',
    breaks: ['ledger/4/rate-limit-headers'],
    suites: [SCHEMA],
    description: 'Drops the X-RateLimit-* headers from ledger answers.',
  },
  // §4.1 window rules
  {
    name: 'ledger-old-window-to-ignored',
    breaks: ['ledger/4.1/to-exclusive'],
    suites: [WINDOW],
    description: 'A window that ends before the last 30 days is read without its `to`: newer rows are listed in it.',
  },
  {
    name: 'ledger-to-inclusive',
    breaks: ['ledger/4.1/to-exclusive', 'ledger/4.1/window-additive'],
    suites: [WINDOW],
    description: 'Treats `to` as inclusive: a row stamped exactly `to` is listed.',
  },
  {
    name: 'ledger-from-exclusive',
    breaks: ['ledger/4.1/from-inclusive', 'ledger/4.1/window-additive'],
    suites: [WINDOW],
    description: 'Treats `from` as exclusive: a row stamped exactly `from` is left out.',
  },
  {
    name: 'ledger-equal-bounds-rejected',
    breaks: ['ledger/4.1/equal-bounds-empty'],
    suites: [WINDOW],
    description: 'Answers 400 when `to` equals `from` instead of an empty page.',
  },
  {
    name: 'ledger-reversed-window-accepted',
    breaks: ['ledger/4.1/reversed-window-400'],
    suites: [WINDOW],
    description: 'Answers 200 with an empty page when `to` is earlier than `from`.',
  },
  {
    name: 'ledger-default-window-32-days',
    breaks: ['ledger/4.1/default-window-30-days'],
    suites: [WINDOW],
    description: 'The default window is the last 32 days: older than any calendar reading of 30 days.',
  },
  {
    name: 'ledger-default-window-28-days',
    breaks: ['ledger/4.1/default-window-30-days'],
    suites: [WINDOW],
    description: 'The default window is the last 28 days: rows 28 to 29 days old, in every calendar reading of 30 days, are missing.',
  },
  {
    name: 'ledger-bounds-compared-as-text',
    breaks: ['ledger/4.1/reversed-window-400', 'ledger/4.1/offset-instant'],
    suites: [WINDOW],
    description: 'Decides whether `to` is earlier than `from` by comparing the two texts, so offsets mislead it both ways.',
  },
  {
    name: 'ledger-refusal-request-id-mismatch',
    breaks: ['errors/7/request-id-header'],
    suites: [BOUNDS],
    description: 'The 400s of GET /credits/operations carry an error.request_id that differs from X-Request-Id.',
  },
  {
    name: 'ledger-offsets-ignored',
    breaks: ['ledger/4.1/offset-instant'],
    suites: [WINDOW],
    description: 'Reads the wall-clock digits of a bound with a `±hh:mm` offset as UTC and drops the offset.',
  },
  {
    name: 'ledger-offsets-rejected',
    breaks: ['ledger/4.1/offset-instant'],
    suites: [WINDOW],
    description: 'Refuses bounds with a numeric offset (400); only `Z` is read.',
  },
  {
    name: 'ledger-negative-zero-offset-rejected',
    breaks: ['ledger/4.1/offset-instant'],
    suites: [WINDOW],
    description: 'Refuses a bound with the offset `-00:00` (400), as ISO 8601 parsers do; RFC 3339 §4.3 reads it as UTC.',
  },
  {
    name: 'ledger-fraction-milliseconds-only',
    breaks: ['ledger/4.1/offset-instant'],
    suites: [WINDOW],
    description: 'Reads fractions of a second of one to three digits (a milliseconds pattern) and refuses longer ones (400), though RFC 3339 puts no bound on them.',
  },
  {
    name: 'ledger-percent-hex-upper-case-only',
    breaks: ['ledger/4.1/offset-instant'],
    suites: [WINDOW],
    description: 'Decodes percent-escapes in upper-case hex only: `%3a` stays as written, and a bound holding it is refused (400).',
  },
  {
    name: 'ledger-bounds-upper-case-only',
    breaks: ['ledger/4.1/rfc3339-lenient-forms'],
    suites: [WINDOW],
    description: 'Refuses a date-time with a lower-case `t` or `z` (400), which RFC 3339 §5.6 allows.',
  },
  {
    name: 'ledger-offsetless-rejected',
    breaks: ['ledger/4.1/offsetless-accepted'],
    suites: [WINDOW],
    description: 'Refuses an RFC 3339 date-time without offset (400).',
  },
  {
    name: 'ledger-date-only-rejected',
    breaks: ['ledger/4.1/date-only-accepted'],
    suites: [WINDOW],
    description: 'Refuses `YYYY-MM-DD` bounds (400).',
  },
  {
    name: 'ledger-offsetless-ignored',
    breaks: ['ledger/4.1/offsetless-accepted', 'ledger/4.1/parameter-combinations'],
    suites: [WINDOW, MODEL],
    description: 'Reads an RFC 3339 date-time without offset, then drops it as if it had not been given: with neither bound left, the default window serves.',
  },
  {
    name: 'ledger-date-only-ignored',
    breaks: ['ledger/4.1/date-only-accepted', 'ledger/4.1/parameter-combinations'],
    suites: [WINDOW, MODEL],
    description: 'Reads a `YYYY-MM-DD` bound, then drops it as if it had not been given: with neither bound left, the default window serves.',
  },
  {
    name: 'ledger-invalid-date-accepted',
    breaks: ['ledger/4.1/invalid-date-400'],
    suites: [WINDOW],
    description: 'Lets calendar fields overflow as JavaScript dates do: 2023-02-29 is read as March 1, hour 25 as the next day.',
  },
  {
    name: 'ledger-century-leap-day-accepted',
    breaks: ['ledger/4.1/invalid-date-400'],
    suites: [WINDOW],
    description: 'Takes every fourth year for a leap year, century years too: 2100-02-29 and 1900-02-29 are read as dates.',
  },
  {
    name: 'ledger-leap-day-refused',
    breaks: ['ledger/4.1/date-only-accepted'],
    suites: [WINDOW],
    description: 'Gives every February 28 days: a window from 2024-02-29 (a real date) is refused with 400.',
  },
  {
    name: 'ledger-invalid-date-500',
    breaks: ['ledger/4.1/invalid-date-400'],
    suites: [WINDOW],
    description: 'Throws on a bound it cannot read, which answers 500.',
  },
  // §8.3 bounds and the feature filter
  {
    name: 'ledger-limit-200-rejected',
    breaks: ['ledger/8.3/limit-bounds'],
    suites: [BOUNDS],
    description: 'Accepts `limit` only up to 199.',
  },
  {
    name: 'ledger-limit-0-accepted',
    breaks: ['ledger/8.3/limit-invalid-400'],
    suites: [BOUNDS],
    description: 'Reads `limit=0` as "use the default" instead of refusing it.',
  },
  {
    name: 'ledger-limit-clamped',
    breaks: ['ledger/8.3/limit-invalid-400'],
    suites: [BOUNDS],
    description: 'Clamps `limit` into 1..200 (201 becomes 200, 0 becomes 1) and reads non-numbers as the default.',
  },
  {
    name: 'ledger-page-one-row-too-long',
    breaks: ['ledger/4.1/page-within-limit'],
    suites: [BOUNDS],
    description: 'Serves `limit + 1` rows per page.',
  },
  {
    name: 'ledger-default-limit-100',
    breaks: ['ledger/8.3/limit-default-50'],
    suites: [BOUNDS],
    description: 'The default page size is 100.',
  },
  {
    name: 'ledger-default-limit-20',
    breaks: ['ledger/8.3/limit-default-50'],
    suites: [BOUNDS],
    description: 'The default page size is 20: pages without `limit` are short of the 50 rows `limit=50` pages hold, though never over 50.',
  },
  {
    name: 'ledger-default-limit-cursor-skips',
    breaks: ['ledger/8.3/limit-default-50'],
    suites: [BOUNDS],
    description: 'Without `limit`, pages hold 50 rows but the cursor moves on by 100, past rows never served.',
  },
  {
    name: 'ledger-feature-bounds-off-by-one',
    breaks: ['ledger/8.3/feature-bounds', 'ledger/8.3/feature-empty-400'],
    suites: [BOUNDS],
    description: 'Checks `feature` length as 0..63: the empty filter passes and 64 characters are refused.',
  },
  {
    name: 'ledger-feature-too-long-accepted',
    breaks: ['ledger/8.3/feature-invalid-400'],
    suites: [BOUNDS],
    description: 'Accepts a `feature` of any length: one of 65 characters or more filters like any other.',
  },
  {
    name: 'ledger-feature-length-encoded',
    breaks: ['ledger/8.3/feature-bounds'],
    suites: [BOUNDS],
    description: 'Measures `feature` on its percent-encoded text: 16 emoji (64 bytes) count 192 and are refused.',
  },
  {
    name: 'ledger-feature-empty-ignored',
    breaks: ['ledger/8.3/feature-empty-400'],
    suites: [BOUNDS],
    description: 'Reads an empty `feature=` as no filter and lists every feature.',
  },
  {
    name: 'ledger-feature-window-400',
    breaks: ['ledger/4.1/feature-filter', 'ledger/4.1/parameter-combinations'],
    suites: [BOUNDS, MODEL],
    description: 'Refuses `feature` together with `from` or `to` (400): the filter works on the default window only.',
  },
  {
    name: 'ledger-feature-date-window-500',
    breaks: ['errors/7/no-server-error', 'ledger/4.1/parameter-combinations'],
    suites: [MODEL],
    description: 'Throws when `feature` comes with a bound written `YYYY-MM-DD`, which answers 500.',
  },
  {
    name: 'ledger-one-bound-refused',
    breaks: ['ledger/4.1/parameter-combinations'],
    suites: [MODEL],
    description: 'Refuses a window with `from` alone or `to` alone (400), though every parameter is optional.',
  },
  {
    name: 'ledger-feature-unbounded-default',
    breaks: ['ledger/4.1/parameter-combinations'],
    suites: [MODEL],
    description: 'With `feature` and no bounds, lists that feature’s rows of all time instead of the last 30 days.',
  },
  {
    name: 'ledger-feature-prefix-match',
    breaks: ['ledger/4.1/feature-filter'],
    suites: [BOUNDS],
    description: 'Matches `feature` as a prefix (`deal_agent` also lists `deal_agent_batch`).',
  },
  {
    name: 'ledger-cursor-forgets-feature',
    breaks: ['ledger/4.1/feature-filter'],
    suites: [BOUNDS],
    description: 'The cursor does not carry the feature filter and the filter of a cursor request is ignored: later pages are unfiltered.',
  },
  // §4.1 walks
  {
    name: 'ledger-keyset-skips-ties',
    breaks: ['ledger/4.1/walk-complete', 'ledger/4.1/page-size-independent'],
    suites: [PAGINATION],
    description: 'The keyset cursor keeps only the timestamp, so rows sharing the timestamp of a page’s last row are skipped.',
  },
  {
    name: 'ledger-cursor-on-last-page',
    breaks: ['ledger/2.2/null-cursor-on-last-page'],
    suites: [PAGINATION],
    description: 'The last page still carries a cursor, and the empty page it leads to returns the same cursor again.',
  },
  {
    name: 'ledger-cursor-to-empty-page',
    breaks: ['ledger/2.2/no-cursor-to-empty-page'],
    suites: [PAGINATION],
    description: 'The last page with rows carries a cursor; the page it leads to is empty, with next_cursor null.',
  },
  // §4.1 cursors
  {
    name: 'ledger-cursor-plus-as-space',
    breaks: ['ledger/4.1/cursor-byte-exact'],
    suites: [CURSOR],
    description: 'Cursors contain `+`, and the server form-decodes the cursor parameter a second time, turning `+` into a space.',
  },
  {
    name: 'ledger-cursor-replay-advances',
    breaks: ['ledger/4.1/cursor-replay-stable'],
    suites: [CURSOR],
    description: 'The server keeps a position per cursor and moves it on with each use: the same cursor passed again gives the page after.',
  },
  {
    name: 'ledger-cursor-garbage-500',
    breaks: ['ledger/4.1/cursor-garbage-400', 'ledger/4.1/cursor-tamper-400'],
    suites: [CURSOR],
    description: 'Throws on a cursor it cannot read, which answers 500.',
  },
  {
    name: 'ledger-cursor-unsigned',
    breaks: ['ledger/4.1/cursor-tamper-400'],
    suites: [CURSOR],
    description: 'Does not check the cursor signature: an altered cursor is read as whatever position it decodes to.',
  },
  {
    name: 'ledger-cursor-cross-workspace',
    breaks: ['ledger/4.1/cursor-workspace-bound'],
    suites: [CURSOR],
    description: 'Takes the workspace from the cursor instead of the token: another workspace’s cursor reads that workspace’s rows.',
  },
  {
    name: 'ledger-workspaces-share-rows',
    breaks: ['ledger/4.1/workspaces-disjoint'],
    suites: [CURSOR],
    description: 'Lists the rows of every workspace to every token.',
  },
  // §4.1 walks while the ledger grows
  {
    name: 'ledger-offset-cursor',
    breaks: ['ledger/4.1/no-repeat-under-growth'],
    suites: [GROWTH],
    description: 'The cursor is a row offset: a row added ahead of it (newest first) shifts the next page and repeats a row.',
  },
  {
    name: 'ledger-cursor-counts-remaining',
    breaks: ['ledger/4.1/stable-under-growth'],
    suites: [GROWTH],
    description: 'The cursor holds the number of rows left (oldest first), counted again on the next page: a row added at the end pushes the page past a row not yet listed.',
  },
  {
    name: 'ledger-default-window-slides',
    breaks: ['ledger/4.1/default-window-pinned'],
    suites: [GROWTH],
    description: 'The default window is computed again on every page (oldest first), so rows added during a walk reach its last page.',
  },
];

/** Legal choices the spec leaves open: the ledger suites must pass with each of them. */
export const ledgerVariants: VariantSwitch[] = [
  {
    name: 'ledger-order-ascending',
    suites: ['ledger'],
    description: 'Lists rows oldest first (the reference lists newest first by default).',
  },
  {
    name: 'ledger-default-window-calendar-early',
    suites: ['ledger'],
    description: 'Reads "the last 30 days" as the 30 calendar days before today, and today, at UTC-12: the default window starts at that zone\'s midnight 30 days before today\'s, up to 31 days back.',
  },
  {
    name: 'ledger-default-window-calendar-late',
    suites: ['ledger'],
    description: 'Reads "the last 30 days" as today and the 29 calendar days before it, at UTC+14: the default window starts at that zone\'s midnight 29 days before today\'s, as little as 29 days back.',
  },
  {
    name: 'ledger-clock-ahead',
    suites: ['ledger'],
    description: "The server's clock runs 47.3 s ahead of the machine's: its Date header, row timestamps and default window read it.",
  },
  {
    name: 'ledger-clock-behind',
    suites: ['ledger'],
    description: "The server's clock runs 83.7 s behind the machine's: its Date header, row timestamps and default window read it.",
  },
  {
    name: 'ledger-long-features',
    suites: ['ledger'],
    description: 'Rows of two frequent features carry names no filter can name: 70 ASCII characters, and 44 characters of 74 UTF-8 bytes (§2.1 gives a row\'s feature no length; §8.3 bounds the filter to 1 to 64).',
  },
  {
    name: 'ledger-operation-ids-opaque',
    suites: ['ledger'],
    description: '`operation_uuid` is an id of the server\'s own, `op_` and 20 hex digits, not a UUID (§2.1: "Identifier of the operation", a string).',
  },
  {
    name: 'ledger-timestamps-microseconds',
    suites: ['ledger'],
    description: 'Row timestamps carry six fraction digits (`2026-11-29T20:55:11.123000Z`), as a database with microsecond columns writes them.',
  },
  {
    name: 'ledger-no-ties',
    suites: ['ledger'],
    description: 'No two rows of a workspace share a timestamp (a row stamped like one already there is moved 1 ms later), so no page boundary can fall between tied rows.',
  },
  {
    name: 'ledger-recent-batch-import',
    suites: ['ledger'],
    description: 'A batch import of 3,000 rows in workspace ws_1, all at one instant 20 minutes before the server started: every recent window that holds it lists far more rows than a walk of the known window may, and only a few rows come after it.',
  },
  {
    name: 'ledger-rows-shuffled',
    suites: ['ledger'],
    description: 'Shuffles the rows within each page.',
  },
  {
    name: 'ledger-cursor-server-side',
    suites: ['ledger'],
    description: 'Cursors are random ids of listing states kept by the server, a new id for every page served.',
  },
  {
    name: 'ledger-short-pages',
    suites: ['ledger'],
    description: 'Non-final pages hold between 1 and `limit` rows.',
  },
  {
    name: 'ledger-extra-fields',
    suites: ['ledger'],
    description: 'Rows carry `workspace_id` and `unit`; pages carry `has_more`, `limit` and `window`.',
  },
  {
    name: 'ledger-cursor-reserved-characters',
    suites: ['ledger'],
    description: 'Cursors contain a space and `+ & = / ? # %` and a non-ASCII letter, all of which need percent-encoding in a query.',
  },
  {
    name: 'ledger-repeated-parameters-last',
    suites: [BOUNDS],
    description: 'A parameter given twice is read as its last value (the reference refuses it with 400).',
  },
  {
    name: 'ledger-one-bound-30-days',
    suites: [MODEL],
    description: 'Gives a window with one bound 30 days on its open side (`to` alone: the 30 days before it) instead of leaving that side open.',
  },
  {
    name: 'ledger-feature-length-utf16',
    suites: [BOUNDS],
    description: 'Counts `feature` length in UTF-16 units (an emoji counts 2).',
  },
  {
    name: 'ledger-feature-length-bytes',
    suites: [BOUNDS],
    description: 'Counts `feature` length in UTF-8 bytes (`é` counts 2).',
  },
  {
    name: 'ledger-limit-lenient',
    suites: [BOUNDS],
    description: 'Reads `limit` as any number text that is an integer: `007`, `+5`, `5.0`, `1e2` and spaces around are taken.',
  },
  {
    name: 'ledger-query-plus-literal',
    suites: [BOUNDS],
    description: 'Reads a raw `+` in the query as a plus (RFC 3986) rather than a space (form decoding).',
  },
  {
    name: 'ledger-cursor-single-use',
    suites: [CURSOR, PAGINATION],
    description: 'A cursor is valid once: passing it again answers 400.',
  },
  {
    name: 'ledger-cursor-json-accepted',
    suites: [CURSOR],
    description: 'A cursor written as an empty JSON object (`{}`) is read as the start of the listing.',
  },
  // A vendor's staging system: size, page caps, other clients, distance.
  {
    name: 'ledger-busy-100k',
    suites: ['ledger'],
    description: 'Workspace ws_1 holds 100,000 more rows over the last 30 days (ws_2 10,000), generated as a function of their index.',
  },
  {
    name: 'ledger-page-cap-25',
    suites: ['ledger'],
    description: 'No page holds more than 25 rows, whatever `limit` says; next_cursor leads on.',
  },
  {
    name: 'ledger-background-writers',
    suites: ['ledger'],
    description: 'Other clients append rows stamped with the server clock while the run goes on (about ten a second in ws_1, one in ws_2).',
  },
  {
    // Timing is what a distant server changes: the walks run while the ledger grows are the ledger's
    // timing-sensitive check. The bench runs full certifications with it.
    name: 'latency-150ms',
    suites: [GROWTH],
    description: 'Every response of the server is delayed 150 ms.',
  },
];
