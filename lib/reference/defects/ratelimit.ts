import type { DefectSwitch, VariantSwitch } from '../switches.ts';

/** Short windows keep calibration fast: exhausting a pool heals in seconds, not a minute. */
const FAST = { read: 30, write: 10, windowS: 4 } as const;

/**
 * A write pool whose batch serves enough messages to read rows per message off (ten, in
 * lib/suite/rate-limit-campaign.ts), as a pool of the spec's size does: on a ledger others
 * write to, the brackets of single POSTs may all catch another client's row.
 */
const FAST_WIDE_WRITES = { ...FAST, write: 20 } as const;

/** The rate-limit suites: the exhaustion at the start of a run and the recovery at its end. */
const RATE_LIMIT_SUITES = ['ratelimit-exhaust', 'ratelimit-recovery'];
const LIMITER_DRILL = ['ratelimit-limiter-fault'];

/**
 * "Unauthenticated routes consuming points" is the foundation defect `unauthenticated-charges-token`
 * (lib/reference/defects/foundation.ts), proved by the unauthenticated suite.
 */
export const ratelimitDefects: DefectSwitch[] = [
  {
    name: 'ratelimit-header-missing-on-400',
    breaks: ['ratelimit/4/headers-on-authenticated-responses'],
    suites: ['ratelimit-exhaust'],
    description: 'A 400 (a ledger request with `to` before `from`) goes out without the X-RateLimit-* headers.',
    limits: FAST,
  },
  {
    name: 'ratelimit-retry-after-missing',
    breaks: ['ratelimit/8.1/retry-after-integer'],
    suites: ['ratelimit-exhaust'],
    description: 'A 429 carries no Retry-After header.',
    limits: FAST,
  },
  {
    name: 'ratelimit-head-as-write',
    breaks: ['ratelimit/8.1/pool-by-method'],
    suites: ['ratelimit-exhaust'],
    description: 'HEAD requests are charged to (and name) the write pool.',
    limits: FAST,
  },
  {
    name: 'ratelimit-reset-milliseconds',
    breaks: ['ratelimit/8.1/reset-unix-seconds'],
    suites: ['ratelimit-exhaust'],
    description: 'X-RateLimit-Reset is a Unix time in milliseconds.',
    limits: FAST,
  },
  {
    name: 'ratelimit-reset-delta',
    breaks: ['ratelimit/8.1/reset-unix-seconds'],
    suites: ['ratelimit-exhaust'],
    description: 'X-RateLimit-Reset is the number of seconds until the refill, not a Unix time.',
    limits: FAST,
  },
  {
    name: 'ratelimit-reset-too-early',
    breaks: ['ratelimit/8.1/reset-refill'],
    suites: RATE_LIMIT_SUITES,
    description: 'X-RateLimit-Reset is always the current second, so an exhausted pool is still refused after it.',
    // A window the staged spend's early points take long to leave: in 4 s they come back soon
    // after the 429, and a probe a loaded machine sends late finds one of them.
    limits: { ...FAST, windowS: 10 },
  },
  {
    name: 'ratelimit-remaining-stuck',
    breaks: ['ratelimit/8.1/remaining-counts-down', 'ratelimit/8.1/429-remaining-zero'],
    suites: ['ratelimit-exhaust'],
    description: 'X-RateLimit-Remaining always says limit − 1, whatever was spent.',
    limits: FAST,
  },
  {
    name: 'ratelimit-wrong-limit',
    breaks: ['ratelimit/8.1/limit-value'],
    suites: ['ratelimit-exhaust'],
    description: 'X-RateLimit-Limit says 1000 (read) and 100 (write) while the pools hold the configured sizes.',
    limits: FAST,
  },
  {
    name: 'ratelimit-lenient-limit',
    breaks: ['ratelimit/8.1/limit-enforced'],
    suites: ['ratelimit-exhaust'],
    description: 'Each pool serves one request more than its limit before it answers 429.',
    limits: FAST,
  },
  {
    name: 'ratelimit-hidden-lower-limit',
    breaks: ['ratelimit/8.1/limit-enforced', 'ratelimit/8.1/unplanned-429'],
    suites: RATE_LIMIT_SUITES,
    description: 'Each pool serves a tenth of its limit while Limit and Remaining count from the whole, so a client pacing by the headers meets 429s.',
    limits: FAST,
  },
  {
    name: 'ratelimit-fixed-window',
    breaks: ['ratelimit/8.1/rolling-window'],
    suites: RATE_LIMIT_SUITES,
    description: 'Pools refill all at once at fixed clock boundaries instead of on a rolling window.',
    // Its boundaries fall half a window after a token's first request (lib/reference/rate-limiter.ts),
    // so the heal probe is served well within a window of the burst.
    limits: { ...FAST, windowS: 10 },
  },
  {
    name: 'ratelimit-workspace-budget',
    breaks: ['ratelimit/5.5/per-token'],
    suites: ['ratelimit-exhaust'],
    description: 'The budget is shared by all tokens of a workspace instead of being per token.',
    limits: FAST,
  },
  {
    name: 'ratelimit-single-pool',
    breaks: ['ratelimit/8.1/separate-pools'],
    suites: ['ratelimit-exhaust'],
    description: 'All methods spend one bucket (the read pool\'s), while the headers still name the pool of the method.',
    limits: FAST,
  },
  {
    name: 'ratelimit-pool-uppercase',
    breaks: ['ratelimit/8.1/pool-by-method'],
    suites: ['ratelimit-exhaust'],
    description: 'X-RateLimit-Pool is `READ` or `WRITE`.',
    limits: FAST,
  },
  {
    name: 'ratelimit-retry-after-short',
    breaks: ['ratelimit/8.1/retry-after-true'],
    suites: RATE_LIMIT_SUITES,
    description: 'Retry-After is half the real wait, so the retried request is refused again.',
    limits: FAST,
  },
  {
    name: 'ratelimit-retry-after-zero',
    breaks: ['ratelimit/8.1/retry-after-true'],
    suites: RATE_LIMIT_SUITES,
    description: 'Retry-After is always 0.',
    limits: FAST,
  },
  {
    name: 'ratelimit-retry-after-http-date',
    breaks: ['ratelimit/8.1/retry-after-integer'],
    suites: ['ratelimit-exhaust'],
    description: 'Retry-After is an HTTP date (legal in HTTP, not the integer of seconds the spec fixes).',
    limits: FAST,
  },
  {
    name: 'ratelimit-refused-post-does-work',
    breaks: ['ratelimit/8.1/refused-no-work', 'ratelimit/8.1/replay-once'],
    suites: RATE_LIMIT_SUITES,
    description: 'A message POST refused with 429 still appends its ledger row.',
    limits: FAST,
  },
  {
    name: 'ratelimit-429-without-request-id',
    breaks: ['ratelimit/7/429-request-id'],
    suites: ['ratelimit-exhaust'],
    description: 'The 429 body is the published example: code, category and message, no request_id.',
    limits: FAST,
  },
  {
    name: 'ratelimit-429-transient',
    breaks: ['ratelimit/7/429-code-category'],
    suites: ['ratelimit-exhaust'],
    description: 'A 429 carries rate_limit.exceeded with category `transient`.',
    limits: FAST,
  },
  {
    name: 'ratelimit-limiter-fails-open',
    breaks: ['ratelimit/7/limiter-down-503', 'ratelimit/7/limiter-down-fail-closed'],
    suites: LIMITER_DRILL,
    description: 'With the limiter store down, requests are served unmetered.',
    limits: FAST,
  },
  {
    name: 'ratelimit-limiter-fault-500',
    breaks: ['ratelimit/7/limiter-down-503'],
    suites: LIMITER_DRILL,
    description: 'With the limiter store down, requests answer 500 system.internal.',
    limits: FAST,
  },
  {
    name: 'ratelimit-limiter-down-company-stream-open',
    breaks: ['ratelimit/7/limiter-down-503', 'ratelimit/7/limiter-down-fail-closed'],
    suites: LIMITER_DRILL,
    description: 'POSTs on the company route with `Accept: text/event-stream` skip the limiter: with its store down they are streamed, unmetered (every other request answers 503).',
    limits: FAST,
  },
  {
    name: 'ratelimit-limiter-latches-down',
    breaks: ['ratelimit/7/limiter-down-recovers'],
    suites: LIMITER_DRILL,
    description: 'Once the limiter store was down, the limiter keeps answering 503 after the store is back.',
    limits: FAST,
  },
  {
    name: 'ratelimit-workspace-write-budget',
    breaks: ['ratelimit/5.5/per-token', 'ratelimit/8.1/limit-enforced'],
    suites: ['ratelimit-exhaust'],
    description:
      'The write pool is shared by all tokens of a workspace (the read pool stays per token); the primary token\'s message POST spends a point of the secondary\'s pool, and is refused once it is spent.',
    // A window long enough that the primary's POST, sent before the staged pause, is still in it
    // when the secondary's burst meets its first 429 on a loaded machine (in 4 s it had aged out).
    limits: { ...FAST, windowS: 10 },
  },
  {
    name: 'ratelimit-ledger-429-bare',
    breaks: ['ratelimit/8.1/retry-after-integer', 'ratelimit/8.1/429-remaining-zero', 'ratelimit/4/headers-on-authenticated-responses'],
    suites: ['ratelimit-exhaust'],
    description: "The ledger's 429 carries the envelope but neither the X-RateLimit-* headers nor Retry-After (GET /me's 429 has them).",
    limits: FAST,
  },
  {
    name: 'ratelimit-ledger-unmetered',
    breaks: ['ratelimit/8.1/limit-enforced'],
    suites: ['ratelimit-exhaust'],
    description: 'The ledger spends read points but is served when none is left: an exhausted read pool does not hold it back.',
    limits: FAST,
  },
  {
    name: 'ratelimit-ledger-charged-twice',
    breaks: ['ratelimit/8.1/remaining-counts-down', 'ratelimit/8.1/limit-enforced', 'ratelimit/8.1/one-point-per-request'],
    suites: ['ratelimit-exhaust'],
    description: 'A served ledger GET spends two read points (the headers show both).',
    limits: FAST,
  },
  {
    name: 'ratelimit-stream-charged-twice',
    breaks: ['ratelimit/8.1/remaining-counts-down', 'ratelimit/8.1/limit-enforced'],
    suites: ['ratelimit-exhaust'],
    description: 'A served message POST with `Accept: text/event-stream` spends two write points (the headers show both).',
    limits: FAST,
  },
  {
    name: 'ratelimit-refused-stream-does-work',
    breaks: ['ratelimit/8.1/refused-no-work'],
    suites: ['ratelimit-exhaust'],
    description: 'A streamed message POST refused with 429 still appends its ledger row (the plain POST does not).',
    limits: FAST,
  },
  {
    name: 'ratelimit-refused-job-does-work',
    breaks: ['ratelimit/8.1/refused-no-work'],
    suites: ['ratelimit-exhaust'],
    description: 'A job-mode message POST (`"async": true`) refused with 429 still queues its job and appends its ledger row.',
    limits: FAST,
  },
  {
    name: 'ratelimit-write-retry-after-short',
    breaks: ['ratelimit/8.1/retry-after-true', 'ratelimit/8.1/replay-once'],
    suites: RATE_LIMIT_SUITES,
    description: "The write pool's Retry-After is half the real wait (the read pool's is right), so the replayed POST is refused again.",
    limits: FAST,
  },
  {
    name: 'ratelimit-window-from-first-spend',
    breaks: ['ratelimit/8.1/rolling-window-model'],
    suites: RATE_LIMIT_SUITES,
    description: "Fixed windows that open at a token's first spend: every point comes back at once, one window after the first, however late in the window it was spent.",
    limits: FAST,
  },
  {
    name: 'ratelimit-token-bucket',
    breaks: ['ratelimit/8.1/rolling-window-model'],
    suites: RATE_LIMIT_SUITES,
    description: 'A token bucket of the pool\'s size refilling continuously at limit per window: points come back one by one before any has aged out.',
    limits: FAST,
  },
  {
    name: 'ratelimit-all-back-after-last-spend',
    breaks: ['ratelimit/8.1/rolling-window-model'],
    suites: RATE_LIMIT_SUITES,
    description: 'Every point comes back at once, one window after the last point spent (a window restarted by each served request): the early points of a staged spend stay out until a window after the later ones.',
    limits: FAST,
  },
  {
    name: 'ratelimit-sliding-window-counter',
    breaks: ['ratelimit/8.1/rolling-window-model'],
    suites: RATE_LIMIT_SUITES,
    description:
      "The sliding-window approximation: fixed windows from a token's first request, the previous window's count weighted by its overlap with the rolling window plus the current count, so points come back a little at a time from the first window's end, whenever they were spent.",
    limits: FAST,
  },
  {
    name: 'ratelimit-all-back-after-first-refusal',
    breaks: ['ratelimit/8.1/rolling-window-model'],
    suites: RATE_LIMIT_SUITES,
    description: 'Every point comes back at once, one window after the first 429 (the window opened at the first spend is stretched to it): the early points of a staged spend stay out past their window.',
    limits: FAST,
  },
  {
    name: 'ratelimit-me-spends-write',
    breaks: ['ratelimit/8.1/rolling-window-model'],
    suites: RATE_LIMIT_SUITES,
    description: 'GET /me spends a point of the write pool besides its read point; its own headers show only the read pool.',
    limits: FAST,
  },
];

/** Legal choices the spec leaves open: the rate-limit suites must not fail on them. */
export const ratelimitVariants: VariantSwitch[] = [
  {
    name: 'ratelimit-lookup-before-limiter',
    suites: [...RATE_LIMIT_SUITES, 'exchange-matrix', 'conversation-async'],
    description:
      'An agent or a job the path names that does not exist is answered 404 before the limiter: no point is spent and no pool headers are sent (the reference looks it up after the limiter by default; §4 leaves the order open).',
    limits: FAST,
  },
  {
    name: 'ratelimit-refused-request-charged',
    suites: [...RATE_LIMIT_SUITES, ...LIMITER_DRILL],
    description: 'A request refused with 429 spends a point too (Retry-After accounts for it).',
    limits: FAST,
  },
  {
    name: 'ratelimit-two-rows-per-message',
    suites: [...RATE_LIMIT_SUITES, ...LIMITER_DRILL, 'ledger-growth'],
    description: 'A served message records two ledger rows (`agent_message` and `agent_tool_use`), where the reference records one: the refused and replayed POSTs are counted in rows per message.',
    limits: FAST,
  },
  {
    name: 'ratelimit-clock-ahead',
    suites: [...RATE_LIMIT_SUITES, ...LIMITER_DRILL],
    description: "The server's clock runs 47.3 s ahead of the machine's: its Date header and X-RateLimit-Reset read it.",
    limits: FAST,
  },
  {
    name: 'ratelimit-clock-behind',
    suites: [...RATE_LIMIT_SUITES, ...LIMITER_DRILL],
    description: "The server's clock runs 83.7 s behind the machine's: its Date header and X-RateLimit-Reset read it.",
    limits: FAST,
  },
  {
    name: 'ratelimit-retry-after-upper-bound',
    suites: RATE_LIMIT_SUITES,
    description: 'Retry-After is twice the real wait: a safe upper bound, so a request sent earlier may already be served.',
    // A window long enough that the read probe a second before the doubled Retry-After goes after
    // Reset: the staged pause takes most of a 4-second window.
    limits: { ...FAST, windowS: 10 },
  },
  {
    name: 'ratelimit-reset-full-refill',
    suites: [...RATE_LIMIT_SUITES, ...LIMITER_DRILL],
    description: 'X-RateLimit-Reset names the moment every spent point is back, not the moment the oldest one is.',
    limits: FAST,
  },
  {
    // The checks that count ledger rows around refused, replayed and fail-closed POSTs, on a ledger
    // other clients write to (the writers of `ledger-background-writers`).
    name: 'ratelimit-background-writers',
    suites: [...RATE_LIMIT_SUITES, ...LIMITER_DRILL],
    description: 'Other clients of the workspace append ledger rows (about ten a second) while refused, replayed and fail-closed POSTs are counted.',
    limits: FAST_WIDE_WRITES,
  },
];
