import type { Category } from './exchange-context.ts';
import type { ReferenceState } from './state.ts';

/** What the reference answers when a message meets a fault (docs/reference.md). */
export interface MessageFault {
  status: number;
  code: string;
  category: Category;
  message: string;
  /** Headers the refusal adds (a defect's Retry-After). */
  headers?: Record<string, string>;
}

/**
 * The fault a message POST meets now, if any. §7 gives upstream 503s no code ("The codes for 400
 * and for upstream 503 responses: not shown"): `upstream.unavailable` and
 * `credits.spend_cap_reached` are the reference's own. Both are transient: the upstream comes back,
 * and a cap lifts when the month turns or the cap is raised.
 */
export function activeMessageFault(state: ReferenceState): MessageFault | undefined {
  // > When a spend cap is reached, requests can fail with HTTP 503 (upstream unavailable).
  if (state.faults.has('spend_cap_reached') && !state.defects.has('conversation-spend-cap-ignored')) {
    // Defect: the cap dressed as the per-minute rate limit (§1: "Rate limits are separate").
    if (state.defects.has('conversation-spend-cap-as-429')) {
      return { status: 429, code: 'rate_limit.exceeded', category: 'rate_limited', message: 'Too many requests.', headers: { 'retry-after': '60' } };
    }
    return { status: 503, code: 'credits.spend_cap_reached', category: 'transient', message: 'The workspace reached its spend cap; agent messages are paused.' };
  }
  // > 503 | (upstream unavailable) | | An upstream dependency is unavailable
  if (state.faults.has('upstream_unavailable')) {
    const category: Category = state.defects.has('conversation-upstream-permanent') ? 'permanent' : 'transient';
    return { status: 503, code: 'upstream.unavailable', category, message: 'An upstream dependency of the agent is unavailable; retry with backoff.' };
  }
  return undefined;
}
