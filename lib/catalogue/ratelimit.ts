import { requirements } from './define.ts';

/**
 * Rate limits: the pool headers, the per-token pools and their rolling window, the 429 and its
 * Retry-After, replay safety of refused requests, and the fail-closed limiter. Limits are the
 * spec's (600 reads, 60 writes per 60 s) unless the profile gives others; readings behind the
 * levels are in docs/ambiguity-register.md (## Rate limits).
 */
export const ratelimitRequirements = requirements('ratelimit', [
  {
    id: 'ratelimit/4/headers-on-authenticated-responses',
    level: 'MUST',
    section: '4',
    statement:
      'Every authenticated response (2xx, 429, and 4xx such as a ledger 400) carries X-RateLimit-Pool, X-RateLimit-Limit, X-RateLimit-Remaining and X-RateLimit-Reset.',
    quote: 'Every authenticated response carries the rate-limit headers (section 8).',
  },
  {
    id: 'ratelimit/8.1/pool-by-method',
    level: 'MUST',
    section: '8.1',
    statement: 'X-RateLimit-Pool is `read` for GET and HEAD and `write` for POST (PUT, PATCH and DELETE are not probed: no route the spec shows is safe to call with them).',
    quote: 'X-RateLimit-Pool | `read` or `write` | Pool that served the request.',
  },
  {
    id: 'ratelimit/8.1/limit-value',
    level: 'MUST',
    section: '8.1',
    statement: 'X-RateLimit-Limit is the pool\'s size: 600 for read and 60 for write (or the profile\'s limits).',
    quote: 'read | GET, HEAD | 600 requests per minute … write | POST, PUT, PATCH, DELETE | 60 requests per minute',
  },
  {
    id: 'ratelimit/8.1/remaining-counts-down',
    level: 'MUST',
    section: '8.1',
    statement: 'X-RateLimit-Remaining is an integer, never above the pool\'s limit, that drops by exactly one per request on sequential requests of one token and pool.',
    quote: 'Each request consumes one point from the pool matching its method. … X-RateLimit-Remaining | integer | Requests left before the next refill.',
  },
  {
    id: 'ratelimit/8.1/reset-unix-seconds',
    level: 'MUST',
    section: '8.1',
    statement: 'X-RateLimit-Reset is an integer Unix timestamp in seconds within the coming window (not milliseconds, not a delta).',
    quote: 'X-RateLimit-Reset | integer | Unix timestamp in seconds when the bucket refills.',
  },
  {
    id: 'ratelimit/8.1/reset-refill',
    level: 'MUST',
    section: '8.1',
    statement: 'Once the X-RateLimit-Reset instant sent with a 429 has passed, the exhausted pool serves a request again.',
    quote: 'X-RateLimit-Reset | integer | Unix timestamp in seconds when the bucket refills.',
  },
  {
    id: 'ratelimit/8.1/limit-enforced',
    level: 'MUST',
    section: '8.1',
    statement: 'A fresh pool serves exactly its limit of requests within one window and answers the next one 429.',
    quote: 'read | GET, HEAD | 600 requests per minute … write | POST, PUT, PATCH, DELETE | 60 requests per minute',
  },
  {
    id: 'ratelimit/8.1/rolling-window',
    level: 'MUST',
    section: '8.1',
    statement:
      'No span of one window holds more served requests of a pool than its limit: points come back only as the requests that spent them age out, not all at once at a clock boundary.',
    quote: 'Pools refill on a 60-second rolling window and are scoped per API token.',
  },
  {
    id: 'ratelimit/8.1/rolling-window-model',
    level: 'MUST',
    section: '8.1',
    statement:
      "Over the whole run, every 2xx and 429 of a live token's pool, and its X-RateLimit-Remaining, X-RateLimit-Reset and Retry-After, is explained by some order and instant in which the run's requests were counted, one point each from the pool of their method, each point back one window after it was counted.",
    quote: 'Each request consumes one point from the pool matching its method. … Pools refill on a 60-second rolling window and are scoped per API token.',
  },
  {
    id: 'ratelimit/8.1/one-point-per-request',
    level: 'MUST',
    section: '8.1',
    statement:
      "Every request, on every route and form, spends exactly one point of the pool matching its method or none at all, never a point of the other pool; a request without a live token spends no token's points and is never answered 429.",
    quote: 'Each request consumes one point from the pool matching its method.',
  },
  {
    id: 'ratelimit/8.1/no-hidden-route-cap',
    level: 'MUST',
    section: '8.1',
    statement: 'No route or form is refused with 429 while its pool, counted one point per request, surely still has points: no cap of its own below the pool\'s limit.',
    quote: 'Each request consumes one point from the pool matching its method. … 429 | rate_limit.exceeded | rate_limited | The pool for the token is exhausted.',
  },
  {
    id: 'ratelimit/5.5/per-token',
    level: 'MUST',
    section: '5.5',
    statement: 'Exhausting the secondary token\'s read pool leaves the primary token\'s read pool, in the same workspace, untouched.',
    quote: 'Rate limits are scoped per token; several tokens in one workspace each have their own budget.',
  },
  {
    id: 'ratelimit/8.1/separate-pools',
    level: 'MUST',
    section: '8.1',
    statement: 'With its read pool exhausted, a token\'s write pool still serves a POST, counted against the write limit.',
    quote: 'Each request consumes one point from the pool matching its method.',
  },
  {
    id: 'ratelimit/7/429-code-category',
    level: 'MUST',
    section: '7',
    statement: 'A request beyond the pool answers 429 with the §7 envelope, code `rate_limit.exceeded` and category `rate_limited`.',
    quote: '429 | rate_limit.exceeded | rate_limited | The pool for the token is exhausted.',
  },
  {
    id: 'ratelimit/7/429-request-id',
    level: 'MUST',
    section: '7',
    statement:
      'The 429 envelope carries `error.request_id` equal to X-Request-Id: the envelope schema requires it although the published 429 example shows only code, category and message.',
    quote: 'A 429 body in the published example carries `code`, `category` and `message`; the envelope schema lists `request_id` as required.',
  },
  {
    id: 'ratelimit/8.1/429-remaining-zero',
    level: 'MUST',
    section: '8.1',
    statement: 'A 429 carries the pool headers of the exhausted pool with X-RateLimit-Remaining 0.',
    quote: 'Response headers on every authenticated response (2xx and 429): … X-RateLimit-Remaining | integer | Requests left before the next refill.',
  },
  {
    id: 'ratelimit/8.1/retry-after-integer',
    level: 'MUST',
    section: '8.1',
    statement: 'A 429 carries `Retry-After` as an integer number of seconds (not an HTTP date).',
    quote: 'Retry-After | integer | 429 responses only: seconds until the next request will succeed.',
  },
  {
    id: 'ratelimit/8.1/retry-after-only-on-429',
    level: 'MUST',
    section: '8.1',
    statement:
      'No authenticated response other than a 429 carries `Retry-After` (a 503 that does is only noted: HTTP defines Retry-After for 503, and §8.1 lists the headers of 2xx and 429 responses).',
    quote: 'Retry-After | integer | 429 responses only: seconds until the next request will succeed.',
  },
  {
    id: 'ratelimit/8.1/retry-after-true',
    level: 'MUST',
    section: '8.1',
    statement:
      'Retry-After is true: the same request sent once it has elapsed succeeds. A pool that serves earlier is not faulted (the header is then a safe upper bound, noted).',
    quote: 'Retry-After | integer | 429 responses only: seconds until the next request will succeed.',
  },
  {
    id: 'ratelimit/8.1/refused-no-work',
    level: 'MUST',
    section: '8.1',
    statement: 'A message POST refused with 429 has done no work: it leaves no row in the ledger.',
    quote: 'A rejected 429 request has done no work, so repeating it is safe, including POST and DELETE.',
  },
  {
    id: 'ratelimit/8.1/replay-once',
    level: 'MUST',
    section: '8.1',
    statement: 'Message POSTs refused with 429 and repeated after Retry-After are served, and each does its work exactly once in all.',
    quote: 'A rejected 429 request has done no work, so repeating it is safe, including POST and DELETE.',
  },
  {
    id: 'ratelimit/8.1/refused-consumes-points',
    level: 'INFO',
    section: '8.1',
    statement: 'Whether a request refused with 429 consumes a point of its pool (the spec does not say); reported as observed.',
  },
  {
    id: 'ratelimit/7/limiter-down-503',
    level: 'MUST',
    section: '7',
    statement: 'With the limiter store down, every authenticated request answers 503 `system.rate_limit_unavailable`, category `transient` (runs when the profile gives faults.limiter_store_down).',
    quote: '503 | system.rate_limit_unavailable | transient | The rate-limiter store is down. The limiter is fail-closed.',
  },
  {
    id: 'ratelimit/7/limiter-down-fail-closed',
    level: 'MUST',
    section: '7',
    statement: 'With the limiter store down nothing passes and nothing is done: no request is served and a message POST leaves no ledger row.',
    quote: 'The rate-limiter store is down. The limiter is fail-closed.',
  },
  {
    id: 'ratelimit/7/limiter-down-recovers',
    level: 'SHOULD',
    section: '7',
    statement:
      'Once the hook says the limiter store is back, an authenticated request retried with backoff (waits of 1, 2 and 4 s) is served again instead of 503 `system.rate_limit_unavailable`: the category `transient` promises it, no sentence requires it.',
    quote: '`transient`: retry with backoff.',
  },
  {
    id: 'ratelimit/8.1/unplanned-429',
    level: 'INFO',
    section: '8.1',
    statement:
      'A client pacing itself by the pool headers as §8.1 recommends met no 429 it did not provoke; any it met was absorbed by sleeping Retry-After and is listed here.',
    quote: 'Recommended client behaviour: on 429, sleep for `Retry-After` seconds and retry the same request; … slow down when `X-RateLimit-Remaining` falls below 10% of the limit',
  },
]);
