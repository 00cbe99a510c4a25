import { nextMessageId } from './message-ids.ts';
import type { ReferenceState } from './state.ts';

export type AgentKind = 'deal' | 'company';

/** The demo agents (docs/reference.md): one deal agent and one company agent. */
export const DEMO_AGENTS: Readonly<Record<AgentKind, readonly string[]>> = { deal: ['da_1'], company: ['ca_1'] };

/** §2.4: the REST response of a turn, which is also the data of `done` (§6: "same shape as the REST response"). */
export interface ConversationResponse {
  conversation_id: string;
  /** §2.5: "Fields ... of messages ... are not shown"; the reference uses `{role, content}`. */
  messages: { role: 'user' | 'assistant'; content: string }[];
}

/** One event of a turn before framing: a §6 name and the data object sent as JSON. */
export interface TurnEvent {
  event: string;
  data: Record<string, unknown>;
}

export interface Turn {
  response: ConversationResponse;
  /** The events of the streamed turn in order, `done` last. */
  events: TurnEvent[];
}

const REPLIES: Record<AgentKind, string[]> = {
  deal: ['The deal ', 'is in negotiation; ', 'the last call ', 'went well. ', 'Two tasks ', 'are open ', 'and the close date ', 'holds.'],
  company: ['The company ', 'posted a new role ', 'and updated ', 'its pricing page. ', 'No new ', 'funding ', 'was announced ', 'this week.'],
};

const TOOLS: Record<AgentKind, string> = { deal: 'crm.get_deal', company: 'crm.get_company' };

/**
 * The scripted turn the reference's agents play: a few text deltas, one tool call with its
 * result, more deltas, then `done` with the same object the REST transport returns. The reply
 * does not depend on the message: the reference is a protocol sandbox, not an agent.
 */
export function planTurn(state: ReferenceState, kind: AgentKind, message: string, tools: 'none' | 'text-ids' | 'numeric-ids' = 'text-ids'): Turn {
  const pieces = REPLIES[kind];
  const response: ConversationResponse = {
    conversation_id: nextMessageId(state, 'conv'),
    messages: [
      { role: 'user', content: message },
      { role: 'assistant', content: pieces.join('') },
    ],
  };
  const deltas = pieces.map((content) => ({ event: 'text_delta', data: { content } }));
  const events: TurnEvent[] = deltas.slice(0, 3);
  if (tools !== 'none') {
    const textId = nextMessageId(state, 'tool');
    // §6 gives the id no type: a variant sends the id's counter as a number.
    const id = tools === 'numeric-ids' ? Number.parseInt(textId.slice(textId.lastIndexOf('_') + 1), 36) : textId;
    events.push({ event: 'tool_use', data: { id, tool_name: TOOLS[kind] } }, { event: 'tool_result', data: { id } });
  }
  events.push(...deltas.slice(3), { event: 'done', data: { ...response } });
  return { response, events };
}
