import type { Category } from './exchange-context.ts';
import type { MessageRequest } from './message-request.ts';
import type { AgentKind } from './message-turn.ts';
import type { ReferenceState } from './state.ts';

/** What the reference answers when a message meets a fault (docs/reference.md). */
export interface MessageFault {
  status: number;
  code: string;
  category: Category;
  message: string;
  /** Headers the refusal adds (a defect's Retry-After). */
  headers?: Record<string, string>;
  /** The refusal goes out without the X-RateLimit-* headers (a defect). */
  withoutPoolHeaders?: boolean;
}

/** Defects' answer to a spend cap: the per-minute rate limit's refusal (§1: "Rate limits are separate"). */
const SPEND_CAP_AS_RATE_LIMIT: MessageFault = {
  status: 429,
  code: 'rate_limit.exceeded',
  category: 'rate_limited',
  message: 'Too many requests.',
  headers: { 'retry-after': '60' },
};

/**
 * The fault a message POST meets now, if any. §7 gives upstream 503s no code ("The codes for 400
 * and for upstream 503 responses: not shown"): `upstream.unavailable` and
 * `credits.spend_cap_reached` are the reference's own. Both are transient: the upstream comes back,
 * and a cap lifts when the month turns or the cap is raised.
 */
export function activeMessageFault(state: ReferenceState): MessageFault | undefined {
  // > When a spend cap is reached, requests can fail with HTTP 503 (upstream unavailable).
  if (state.faults.has('spend_cap_reached') && !state.defects.has('conversation-spend-cap-ignored')) {
    if (state.defects.has('conversation-spend-cap-as-429')) return SPEND_CAP_AS_RATE_LIMIT;
    // Variant: a 429 that is not the rate limit's, under its own code, with no Retry-After.
    if (state.variants.has('conversation-spend-cap-429-own-code')) return { status: 429, code: 'credits.spend_cap_reached', category: 'permanent', message: 'The workspace reached its spend cap for this month.' };
    return { status: 503, code: 'credits.spend_cap_reached', category: 'transient', message: 'The workspace reached its spend cap; agent messages are paused.' };
  }
  // > 503 | (upstream unavailable) | | An upstream dependency is unavailable
  if (state.faults.has('upstream_unavailable')) {
    const category: Category = state.defects.has('conversation-upstream-permanent') ? 'permanent' : 'transient';
    return { status: 503, code: 'upstream.unavailable', category, message: 'An upstream dependency of the agent is unavailable; retry with backoff.' };
  }
  return undefined;
}

/** One message POST as the fault defects that touch a single route or transport see it. */
export interface MessagePost {
  kind: AgentKind;
  request: MessageRequest;
}

/**
 * The fault one message POST meets now: activeMessageFault, with the defects that break a rule on
 * one route or transport only (lib/reference/defects/conversation.ts and run-wide.ts).
 */
export function messageFaultFor(state: ReferenceState, post: MessagePost): MessageFault | undefined {
  const d = state.defects;
  const { kind, request } = post;
  const company = kind === 'company';
  // Defect: the company route's `stream: true` POSTs never ask whether the upstream is up or the cap reached.
  if (d.has('conversation-faults-skip-company-stream-flag') && company && request.streamFlag && !request.asyncFlag) return undefined;
  const fault = activeMessageFault(state);
  if (fault === undefined) return undefined;
  // Defect: a job-mode POST reports the unavailable upstream as a rate limit.
  if (fault.code === 'upstream.unavailable' && request.asyncFlag && d.has('conversation-upstream-job-rate-limited')) return { ...fault, category: 'rate_limited' };
  if (fault.code === 'credits.spend_cap_reached' && company) {
    // Defect: the company route's job mode answers the cap with the per-minute limit's 429, its pool headers showing points left.
    if (request.asyncFlag && d.has('conversation-spend-cap-company-job-as-429')) return SPEND_CAP_AS_RATE_LIMIT;
    // Defect: the company route's streams (Accept) refuse at the cap without the pool headers.
    if (request.acceptsStream && !request.asyncFlag && d.has('conversation-spend-cap-company-stream-no-pool-headers')) return { ...fault, withoutPoolHeaders: true };
  }
  return fault;
}
