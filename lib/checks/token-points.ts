import type { Exchange } from '../model/exchange.ts';
import { fail, inconclusive, pass, type Finding } from '../model/finding.ts';
import { judged } from './judged.ts';

function remaining(exchange: Exchange): number | undefined {
  const v = exchange.response?.headers['x-ratelimit-remaining'];
  return v !== undefined && /^\d+$/.test(v) ? Number(v) : undefined;
}

/**
 * Whether the requests between two measured reads spent points of the token's read pool.
 * `before` and `after` are authenticated GETs of the same token; each spends one point itself,
 * so an untouched pool shows `after` ≥ `before` − 1 (points may come back as the rolling window
 * moves on, never go faster).
 */
export const pointsUntouchedFinding = judged('token-points/pointsUntouchedFinding', function pointsUntouchedFinding(requirement: string, before: Exchange, between: Exchange[], after: Exchange): Finding {
  const r1 = remaining(before);
  const r2 = remaining(after);
  const exchanges = [before, ...between, after];
  if (r1 === undefined || r2 === undefined) {
    return inconclusive(requirement, 'no integer X-RateLimit-Remaining on the measuring requests, so points cannot be counted', exchanges);
  }
  if (r2 >= r1 - 1) return pass(requirement, exchanges);
  return fail(
    requirement,
    `X-RateLimit-Remaining ${r1} then at least ${r1 - 1} (only the measuring GET spends a point)`,
    `${r2}: the ${between.length} requests between spent ${r1 - 1 - r2} points of the token`,
    exchanges,
  );
});
