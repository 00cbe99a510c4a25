import type { ReferenceState } from './state.ts';

/** Counters per running server, so two servers in one process never share ids. */
const counters = new WeakMap<ReferenceState, number>();

/**
 * A fresh id such as `conv_mf3k2a_0000001`: the prefix, the server's start time and a counter.
 * The spec fixes no id format (§2.4 only says `conversation_id` is a string); this is the reference's.
 */
export function nextMessageId(state: ReferenceState, prefix: 'conv' | 'job' | 'tool'): string {
  const n = (counters.get(state) ?? 0) + 1;
  counters.set(state, n);
  return `${prefix}_${state.startedAt.toString(36)}_${n.toString(36).padStart(7, '0')}`;
}
