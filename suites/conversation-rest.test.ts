import fc from 'fast-check';
import { describe } from 'vitest';
import { messageBodyWith, messageText, type StreamFlag } from '../lib/arbitraries/message-text.ts';
import { MESSAGE_WRITE_POOL, RESPONSE_FIELDS, REST_DEFAULT, REST_FINISHED, REST_MESSAGES_NON_EMPTY, restTurnFindings } from '../lib/checks/conversation-rest.ts';
import { SSE_BY_STREAM_FLAG, streamTurnFindings } from '../lib/checks/conversation-stream.ts';
import { refusedTextFindings } from '../lib/checks/generated-message.ts';
import { EVENT_DATA, SINGLE_TERMINAL } from '../lib/checks/sse-grammar.ts';
import type { Finding } from '../lib/model/finding.ts';
import { checkProperty } from '../lib/suite/property.ts';
import { requirementTest } from '../lib/suite/requirement-test.ts';

// Budget: one write per route (2 with the reference's profile, at most MAX_ROUTES) plus 3 writes
// per property run (3 runs): 11 writes on the primary token when everything passes.
const MAX_ROUTES = 3;
const PROPERTY_RUNS = 3;
const FLAGS: readonly StreamFlag[] = ['absent', false, true];
const REST_IDS = [REST_DEFAULT, REST_FINISHED, REST_MESSAGES_NON_EMPTY, RESPONSE_FIELDS, MESSAGE_WRITE_POOL];
const STREAM_FLAG_IDS = [SSE_BY_STREAM_FLAG, EVENT_DATA, SINGLE_TERMINAL, MESSAGE_WRITE_POOL];

describe('§1, §2.4 Conversation transports: REST blocking (the default)', () => {
  // > REST blocking (default): the request returns when the agent finishes. The response is an object with `conversation_id` and `messages` (array).
  requirementTest(
    REST_IDS,
    `the profile's message on each route (up to ${MAX_ROUTES}), without Accept: text/event-stream or \`stream\``,
    async ({ sendAll, context, notRun }) => {
      const { routes } = context.profile.messages;
      if (routes.length === 0) return notRun('the profile lists no messages.routes');
      const sent = await sendAll(routes.slice(0, MAX_ROUTES).map((route) => ({ method: 'POST', path: route.path, token: 'primary', json: messageBodyWith(route.body, '', 'absent') })));
      return sent.flatMap((ex) => restTurnFindings(ex, context.profile.limits));
    },
  );

  // > It accepts an optional `stream` boolean body field and the `Accept: text/event-stream` header.
  // > It returns either the conversation response (section 2.4), an SSE stream, or an async job.
  // The spec fixes no rule for a message's content: a generated text the target refuses is noted,
  // not judged; one it serves is held to the transport rules like the profile's own message.
  requirementTest(
    [...REST_IDS, SSE_BY_STREAM_FLAG, EVENT_DATA, SINGLE_TERMINAL],
    'generated message texts (lengths, scripts, emoji, escapes), each with `stream` absent, false and true; a text the target refuses is not judged (property)',
    async ({ client, context, notRun }) => {
      const { routes } = context.profile.messages;
      if (routes.length === 0) return notRun('the profile lists no messages.routes');
      const pool = context.profile.limits;
      const input = fc.record({ route: fc.constantFrom(...routes), suffix: messageText() });
      return checkProperty(
        REST_DEFAULT,
        input,
        async ({ route, suffix }) => {
          const findings: Finding[] = [];
          for (const flag of FLAGS) {
            const json = messageBodyWith(route.body, suffix, flag);
            const streamed = flag === true;
            const ex = await client.send({ method: 'POST', path: route.path, token: 'primary', json, ...(streamed ? { stream: true } : {}) });
            const refused = refusedTextFindings(streamed ? STREAM_FLAG_IDS : REST_IDS, ex);
            if (refused !== undefined) findings.push(...refused);
            else if (streamed) findings.push(...streamTurnFindings(ex, { choice: 'stream-flag', pool, grammar: [EVENT_DATA, SINGLE_TERMINAL] }));
            else findings.push(...restTurnFindings(ex, pool));
          }
          return findings;
        },
        { numRuns: PROPERTY_RUNS, maxShrinkRequests: 6 },
      );
    },
  );
});
