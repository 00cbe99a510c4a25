/**
 * The one agent turn the message scenarios play, and what a client reports of it. §4.3 leaves the
 * message route's path and body open and §2.5 the fields of a message: these are the reference's
 * (`POST /deal-agents/{agent_id}/messages` with `{"message": …}`, messages `{role, content}`).
 */

export const MESSAGE_PATH = '/deal-agents/agt_demo/messages';
export const JOB_PATH_PREFIX = '/message-jobs/';

/** The assistant's text, in the parts the stream sends it in (spaces and punctuation at part edges). */
export const TURN_PARTS = ['Deal', ' ACME-7 is on track', ': next step,', ' a call on Tuesday.'] as const;
export const TURN_TEXT = TURN_PARTS.join('');

export const CONVERSATION_ID = 'conv_client_1';

/** The REST answer of the turn (§2.4), and the data of the stream's `done` event: the same shape (§6). */
export const TURN_RESPONSE = {
  conversation_id: CONVERSATION_ID,
  messages: [
    { role: 'user', content: 'How is ACME-7 doing?' },
    { role: 'assistant', content: TURN_TEXT },
  ],
};

/** The code of the `error` event of the failing stream: an upstream 503's code is not shown (§7), this is the scenario's. */
export const STREAM_ERROR_CODE = 'upstream.unavailable';

/** The variable naming the file a client writes its final state to, under the run's prefix. */
export const RESULT_FILE_VARIABLE = 'RESULT_FILE';

/** What a client that reached the end of the turn writes to the result file. */
export function expectedResult(failed: boolean): string {
  return failed ? `error ${STREAM_ERROR_CODE}` : TURN_TEXT;
}
