import { describe } from 'vitest';
import { messageBodyWith } from '../lib/arbitraries/message-text.ts';
import { MESSAGE_WRITE_POOL } from '../lib/checks/conversation-rest.ts';
import { carriesStream, SSE_BY_ACCEPT, SSE_BY_STREAM_FLAG, streamTurnFindings } from '../lib/checks/conversation-stream.ts';
import { deliveryFindings, INCREMENTAL_DELIVERY } from '../lib/checks/sse-delivery.ts';
import { FRAMING } from '../lib/checks/sse-framing-lint.ts';
import { GRAMMAR_REQUIREMENTS } from '../lib/checks/sse-grammar.ts';
import { requirementTest } from '../lib/suite/requirement-test.ts';

// Budget: two writes per route (at most MAX_ROUTES), one with the Accept header and one with
// `stream: true` (4 writes on the primary token with the reference's profile). Every stream is read within the client's
// budget (time, silence, size, and a short grace after the terminal event): never a hang.
const MAX_ROUTES = 3;
const STREAM_IDS = [...GRAMMAR_REQUIREMENTS, INCREMENTAL_DELIVERY, FRAMING, MESSAGE_WRITE_POOL];

describe('§6 Events: the message stream', () => {
  // > SSE streaming: chosen by sending the header `Accept: text/event-stream` or the body field `stream: true`. See Events.
  // > done | conversation_id, messages | Final state; same shape as the REST response.
  requirementTest([SSE_BY_ACCEPT, ...STREAM_IDS], `Accept: text/event-stream on each route (up to ${MAX_ROUTES}), no \`stream\` field`, async ({ sendAll, context, notRun }) => {
    const { routes } = context.profile.messages;
    if (routes.length === 0) return notRun('the profile lists no messages.routes');
    const sent = await sendAll(
      routes.slice(0, MAX_ROUTES).map((route) => ({
        method: 'POST',
        path: route.path,
        token: 'primary',
        headers: { accept: 'text/event-stream' },
        json: messageBodyWith(route.body, '', 'absent'),
        stream: true,
      })),
    );
    return [...sent.flatMap((ex) => streamTurnFindings(ex, { choice: 'accept', pool: context.profile.limits, delivery: true })), ...deliveryFindings(sent.filter(carriesStream))];
  });

  // > SSE streaming: chosen by sending the header `Accept: text/event-stream` or the body field `stream: true`. See Events.
  requirementTest([SSE_BY_STREAM_FLAG, ...STREAM_IDS], `\`stream: true\` in the body of each route (up to ${MAX_ROUTES}), no Accept header`, async ({ sendAll, context, notRun }) => {
    const { routes } = context.profile.messages;
    if (routes.length === 0) return notRun('the profile lists no messages.routes');
    const sent = await sendAll(routes.slice(0, MAX_ROUTES).map((route) => ({ method: 'POST', path: route.path, token: 'primary', json: messageBodyWith(route.body, '', true), stream: true })));
    return [...sent.flatMap((ex) => streamTurnFindings(ex, { choice: 'stream-flag', pool: context.profile.limits, delivery: true })), ...deliveryFindings(sent.filter(carriesStream))];
  });
});
