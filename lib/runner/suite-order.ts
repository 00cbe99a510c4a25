/**
 * The order suites run in, by name prefix (the longest matching prefix wins). Exhausting a pool
 * takes a window to heal, so `ratelimit-exhaust` spends both pools of the secondary token first,
 * its timed Retry-After probes run in the background while every other suite works, and
 * `ratelimit-recovery` waits only for what is left of the window. The other rate-limit suites
 * (the limiter-store drill) sit before it. The exchange matrix sends its rows of spent pools right
 * after the exhaustion (the secondary token's are spent then), brings the other workspace's read
 * pool low once the ledger suites have read with it, and sends the rows of pools just refilled
 * last (those that spend no read point of the secondary token go once the recovery has replayed
 * the refused POSTs, beside its last probe of the read pool); the other workspace's first write
 * points go beside the exhaustion, so that its write pool, which the matrix spends, is back a
 * window later, and its refilled rows go then, started as the recovery begins. All files share
 * one worker, one client and one budget service (lib/suite/session.ts), so
 * the order is also the pacing order.
 */
export const SUITE_ORDER = [
  'ratelimit-exhaust',
  'exchange-matrix',
  'openapi',
  'unauthenticated',
  'auth',
  'errors',
  'ledger',
  'exchange-matrix-read-low',
  'conversation',
  'ratelimit-',
  'ratelimit-recovery',
  'exchange-matrix-refilled',
] as const;

/** Two suites by name in the run's order: SUITE_ORDER, then by name. */
export function compareSuites(a: string, b: string): number {
  return suiteRank(a) - suiteRank(b) || a.localeCompare(b);
}

export function suiteRank(name: string): number {
  let best = -1;
  let bestLength = -1;
  SUITE_ORDER.forEach((prefix, i) => {
    if (name.startsWith(prefix) && prefix.length > bestLength) {
      best = i;
      bestLength = prefix.length;
    }
  });
  return best === -1 ? SUITE_ORDER.length : best;
}
