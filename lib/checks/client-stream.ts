import { expectedResult, MESSAGE_PATH } from '../client-grading/stream-turn.ts';
import { pathOf, type ClientJudgement, type TracedRequest } from './client-trace.ts';

const ID = 'client/6/stream-final-state';

/** An `error` event's field line, under any of the grammar's line ends and with or without the space. */
const ERROR_EVENT = /(^|[\r\n])event: ?error(\r\n|\r|\n)/;

/**
 * §6: the `done` event is the final state, "same shape as the REST response"; a client reading the
 * stream reaches the answer the REST call gives (or the `error` event's code). Judged on a run that
 * streamed the turn and whose client wrote its result file: the file holds the REST answer's
 * assistant text, or `error <code>`.
 */
// > done | conversation_id, messages | Final state; same shape as the REST response.
export function judgeStreamFinalState(trace: readonly TracedRequest[], result: string | undefined): ClientJudgement {
  const at = trace.findIndex((r) => r.method === 'POST' && pathOf(r.target) === MESSAGE_PATH && (r.answer.headers['content-type'] ?? '').startsWith('text/event-stream'));
  if (at < 0) return { requirement: ID, verdict: 'not-run', reason: 'the client never asked for the turn as an event stream' };
  if (result === undefined) return { requirement: ID, verdict: 'not-run', reason: 'the client streamed the turn and wrote nothing to its result file ($ASI_RESULT_FILE)' };
  const expected = expectedResult(ERROR_EVENT.test(trace[at]!.answer.body));
  const got = result.replace(/\r?\n$/, '');
  if (got !== expected) return { requirement: ID, verdict: 'fail', reason: `the client's result is ${JSON.stringify(got.slice(0, 120))}; the stream's final state is ${JSON.stringify(expected)}`, at };
  return { requirement: ID, verdict: 'pass', reason: 'the client reached the final state of the stream, the same as the REST answer' };
}
