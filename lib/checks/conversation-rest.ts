import type { Exchange } from '../model/exchange.ts';
import { fail, inconclusive, pass, type Finding } from '../model/finding.ts';
import { conversationResponseProblems } from './conversation-response.ts';
import { describeResponse, isObject, jsonBody } from './json-body.ts';
import { poolHeaderFinding } from './pool-headers.ts';
import { judged } from './judged.ts';

export const REST_DEFAULT = 'conversation/1/rest-default';
export const RESPONSE_FIELDS = 'conversation/2.4/response-fields';
export const MESSAGE_WRITE_POOL = 'conversation/8.1/message-write-pool';
export const REST_FINISHED = 'conversation/1/rest-finished';
export const REST_MESSAGES_NON_EMPTY = 'conversation/2.4/rest-messages-non-empty';

/** The write pool as the run knows it (the profile's limits). */
export interface WritePool {
  write: number;
  windowS: number;
}

/** The media type of a response without its parameters, lower case. */
export function mediaType(exchange: Exchange): string {
  return (exchange.response?.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
}

/** Why a response is not the blocking REST answer, or undefined when it is. */
function notRest(exchange: Exchange): string | undefined {
  const res = exchange.response;
  if (res === undefined) return describeResponse(exchange);
  if (res.status < 200 || res.status > 299) return `HTTP ${res.status}: ${describeResponse(exchange)}`;
  // A 202 says the work was accepted, not finished: that is the job mode, not a blocking turn.
  if (res.status === 202) return 'HTTP 202 Accepted: the turn was not finished when the response came';
  if (mediaType(exchange) === 'text/event-stream') return `an event stream (Content-Type: ${res.headers['content-type']}) although streaming was not chosen`;
  const body = jsonBody(exchange);
  if (!body.ok) return body.why;
  return undefined;
}

/**
 * A message POST sent without `Accept: text/event-stream` and without `stream: true`: the
 * blocking REST answer (§1), the §2.4 fields, and the write pool's headers (§8.1).
 */
export const restTurnFindings = judged('conversation-rest/restTurnFindings', function restTurnFindings(exchange: Exchange, pool: WritePool): Finding[] {
  const ex = [exchange];
  const findings: Finding[] = [];
  // > REST blocking (default): the request returns when the agent finishes.
  // > Events are delivered as Server-Sent Events only when streaming is chosen on the message POST
  const why = notRest(exchange);
  findings.push(why === undefined ? pass(REST_DEFAULT, ex) : fail(REST_DEFAULT, 'a 2xx JSON response (the blocking REST transport)', why, ex));
  const body = jsonBody(exchange);
  if (why !== undefined || !body.ok) {
    findings.push(...[RESPONSE_FIELDS, REST_FINISHED, REST_MESSAGES_NON_EMPTY].map((id) => inconclusive(id, 'no REST response to judge', ex)));
  } else {
    // > The response is an object with `conversation_id` and `messages` (array).
    const problems = conversationResponseProblems(body.value);
    findings.push(
      problems.length === 0 ? pass(RESPONSE_FIELDS, ex) : fail(RESPONSE_FIELDS, '`conversation_id` (string) and `messages` (array)', problems.join('; '), ex),
      finishedTurnFinding(exchange, body.value),
      messagesFinding(exchange, body.value),
    );
  }
  findings.push(writePoolFinding(exchange, pool));
  return findings;
});

/**
 * Words that say work is still under way. Narrower than a job poll's reading: a REST body may
 * well say `created` or `accepted` of the conversation it opened.
 */
const UNDER_WAY = new Set(['queued', 'pending', 'running', 'in_progress', 'processing']);

/**
 * > REST blocking (default): the request returns when the agent finishes.
 * So the answer is the finished turn: no state word saying it is under way (`status: running`, ...).
 */
function finishedTurnFinding(exchange: Exchange, value: unknown): Finding {
  const ex = [exchange];
  const problems: string[] = [];
  for (const key of ['status', 'state']) {
    const word = isObject(value) ? value[key] : undefined;
    if (typeof word === 'string' && UNDER_WAY.has(word.toLowerCase())) problems.push(`the body says ${key} "${word}": the turn was still under way`);
  }
  return problems.length === 0 ? pass(REST_FINISHED, ex) : fail(REST_FINISHED, 'the finished turn: no pending state', problems.join('; '), ex);
}

/**
 * > messages | array | Messages of the turn.
 * A finished turn has messages; but §1 and §2.4 fix `messages` only as an array (and `done`, "the
 * same shape", is judged the same way), so an empty one is a SHOULD. A missing or non-array
 * `messages` is `conversation/2.4/response-fields`' to judge.
 */
function messagesFinding(exchange: Exchange, value: unknown): Finding {
  const messages = isObject(value) ? value['messages'] : undefined;
  if (!Array.isArray(messages)) return inconclusive(REST_MESSAGES_NON_EMPTY, 'no `messages` array to count', [exchange]);
  return messages.length > 0 ? pass(REST_MESSAGES_NON_EMPTY, [exchange]) : fail(REST_MESSAGES_NON_EMPTY, 'at least one message in `messages`', '`messages` is an empty array', [exchange]);
}

/** §8.1: a message POST is a write; its response carries the write pool's headers. */
export const writePoolFinding = judged('conversation-rest/writePoolFinding', function writePoolFinding(exchange: Exchange, pool: WritePool): Finding {
  // > Each request consumes one point from the pool matching its method.
  return poolHeaderFinding(MESSAGE_WRITE_POOL, exchange, { pool: 'write', limit: pool.write, windowS: pool.windowS });
});
