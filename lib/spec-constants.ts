// The numbers the spec fixes, each with the section that fixes it. Every other module
// takes them from here so that a profile can override limits in one place.

/** §8.1: read pool (GET, HEAD) per token per window. */
export const READ_LIMIT = 600;
/** §8.1: write pool (POST, PUT, PATCH, DELETE) per token per window. */
export const WRITE_LIMIT = 60;
/** §8.1 rule 2: pools refill on a 60-second rolling window. */
export const WINDOW_SECONDS = 60;
/** §8.1: "slow down when X-RateLimit-Remaining falls below 10% of the limit". */
export const SLOW_DOWN_FRACTION = 0.1;

/** §4.1, §8.3: `limit` is an integer 1 to 200, default 50. */
export const LEDGER_LIMIT_MIN = 1;
export const LEDGER_LIMIT_MAX = 200;
export const LEDGER_LIMIT_DEFAULT = 50;
/** §4.1, §8.3: `feature` has length 1 to 64. */
export const FEATURE_LENGTH_MIN = 1;
export const FEATURE_LENGTH_MAX = 64;
/** §4.1 rule 1, §8.3: with neither bound the window is the last 30 days. */
export const DEFAULT_WINDOW_DAYS = 30;

/** §8.1: recommended async job polling: start at 1 s, double, up to 5 s. */
export const JOB_POLL_START_MS = 1000;
export const JOB_POLL_MAX_MS = 5000;

/** §7: the error categories. */
export const ERROR_CATEGORIES = ['permanent', 'transient', 'rate_limited'] as const;
export type ErrorCategory = (typeof ERROR_CATEGORIES)[number];

/** §7 known codes with their fixed status and category. */
export const KNOWN_ERROR_CODES = {
  'auth.token_missing': { status: 401, category: 'permanent' },
  'auth.token_invalid': { status: 401, category: 'permanent' },
  'rate_limit.exceeded': { status: 429, category: 'rate_limited' },
  'system.rate_limit_unavailable': { status: 503, category: 'transient' },
} as const satisfies Record<string, { status: number; category: ErrorCategory }>;

/** §8.1: method to pool. */
export const READ_METHODS = ['GET', 'HEAD'] as const;
export const WRITE_METHODS = ['POST', 'PUT', 'PATCH', 'DELETE'] as const;
export type Pool = 'read' | 'write';
export function poolOfMethod(method: string): Pool | undefined {
  const m = method.toUpperCase();
  if ((READ_METHODS as readonly string[]).includes(m)) return 'read';
  if ((WRITE_METHODS as readonly string[]).includes(m)) return 'write';
  return undefined;
}

/** §6: the SSE event names. */
export const SSE_EVENT_NAMES = ['text_delta', 'tool_use', 'tool_result', 'done', 'error'] as const;
export type SseEventName = (typeof SSE_EVENT_NAMES)[number];

/** §4.2: routes that need no token. */
export const UNAUTHENTICATED_PATHS = ['/health', '/openapi.json', '/openapi.yaml'] as const;

/** §4.1: the ledger path. */
export const LEDGER_PATH = '/credits/operations';
/** §4.3: token introspection. */
export const ME_PATH = '/me';
