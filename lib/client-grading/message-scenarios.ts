import { acceptsEventStream } from '../reference/message-request.ts';
import type { ReceivedRequest, ScriptedAnswer } from '../reference/scripted-mode.ts';
import { dataText, frameEvent, type SseFraming } from '../reference/sse-writer.ts';
import { json, notFound, pathOf, poolHeaders, refuseUnauthenticated } from './scenario-answers.ts';
import type { Scenario } from './scenarios.ts';
import { JOB_PATH_PREFIX, MESSAGE_PATH, STREAM_ERROR_CODE, TURN_PARTS, TURN_RESPONSE } from './stream-turn.ts';

function bodyOf(request: ReceivedRequest): Record<string, unknown> {
  try {
    const parsed = JSON.parse(request.body) as unknown;
    return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** The job finishes this long after its POST: a client polling at 1, 3 and 7 s sees it on its third poll. */
export const JOB_RUNS_MS = 4_000;

const slowJob: Scenario = {
  name: 'slow-job',
  asks: `POST ${MESSAGE_PATH} with {"message": "How is ACME-7 doing?", "async": true}, then poll GET ${JOB_PATH_PREFIX}{job_id} until its status is completed`,
  serves: `202 {job_id, status: queued}; the job is running until ${JOB_RUNS_MS / 1000} s after the POST, then completed with the turn as its result`,
  script() {
    let createdAtMs: number | undefined;
    return (request): ScriptedAnswer => {
      const refused = refuseUnauthenticated(request);
      if (refused !== undefined) return refused;
      const now = request.receivedAtMs;
      const headers = poolHeaders(request.method, request.method === 'GET' || request.method === 'HEAD' ? 590 : 59, now);
      const path = pathOf(request);
      if (path === MESSAGE_PATH && request.method === 'POST') {
        if (bodyOf(request)['async'] !== true) return json(200, TURN_RESPONSE, headers);
        createdAtMs ??= now;
        return json(202, { job_id: 'job_client_1', status: 'queued' }, headers);
      }
      if (path === `${JOB_PATH_PREFIX}job_client_1` && createdAtMs !== undefined) {
        const done = now - createdAtMs >= JOB_RUNS_MS;
        return json(200, done ? { job_id: 'job_client_1', status: 'completed', result: TURN_RESPONSE } : { job_id: 'job_client_1', status: 'running' }, headers);
      }
      return notFound(request);
    };
  },
};

/** The legal framings the streams scenario serves, one client run each (the HTML event-stream grammar). */
const FRAMINGS: readonly { label: string; framing: SseFraming; slowStart?: boolean; fails?: boolean }[] = [
  { label: 'lf', framing: plain('\n') },
  { label: 'crlf', framing: plain('\r\n') },
  { label: 'cr', framing: plain('\r') },
  { label: 'comments-id-retry', framing: { ...plain('\n'), comments: true, ids: true, retryMs: 3000 } },
  { label: 'multiline-data', framing: { ...plain('\r\n'), multilineData: true, noSpace: true } },
  { label: 'slow-start', framing: plain('\n'), slowStart: true },
  { label: 'error-event', framing: plain('\n'), fails: true },
];

function plain(lineEnd: SseFraming['lineEnd']): SseFraming {
  return { lineEnd, comments: false, ids: false, multilineData: false, bom: false, noSpace: false };
}

/** The turn as one event-stream text: deltas, then `done` (or an `error` event after two deltas). */
function streamText(framing: SseFraming, fails: boolean): string {
  const end = framing.lineEnd;
  let id = 0;
  const event = (name: string, data: unknown): string =>
    (framing.comments ? `: keepalive${end}` : '') + frameEvent(name, dataText(data, framing), framing, framing.ids ? String(++id) : undefined);
  let text = framing.retryMs === undefined ? '' : `retry: ${framing.retryMs}${end}${end}`;
  if (framing.comments) text = `: stream open${end}${text}`;
  const parts = fails ? TURN_PARTS.slice(0, 2) : TURN_PARTS;
  for (const content of parts) text += event('text_delta', { content });
  if (fails) return text + event('error', { code: STREAM_ERROR_CODE, category: 'transient', message: 'An upstream dependency is unavailable.' });
  return text + event('done', TURN_RESPONSE);
}

/** A slow start: nothing for 800 ms, then the text in pieces cut mid-line, a pause between each. */
function slowChunks(text: string): { afterMs: number; text: string }[] {
  const chunks = [{ afterMs: 800, text: text.slice(0, 7) }];
  for (let i = 7; i < text.length; i += 23) chunks.push({ afterMs: 30, text: text.slice(i, i + 23) });
  return chunks;
}

const streams: Scenario = {
  name: 'streams',
  asks: `POST ${MESSAGE_PATH} with {"message": "How is ACME-7 doing?", "stream": true} (or Accept: text/event-stream), read the stream, and write the assistant's final text (or "error <code>") to the file named by ASI_RESULT_FILE`,
  serves: `the turn as an event stream, one run per framing: ${FRAMINGS.map((f) => f.label).join(', ')}`,
  runs: FRAMINGS.map((f) => f.label),
  script(_seed, run) {
    const shape = FRAMINGS.find((f) => f.label === run) ?? FRAMINGS[0]!;
    return (request): ScriptedAnswer => {
      const refused = refuseUnauthenticated(request);
      if (refused !== undefined) return refused;
      const headers = poolHeaders(request.method, 59, request.receivedAtMs);
      if (pathOf(request) !== MESSAGE_PATH || request.method !== 'POST') return notFound(request);
      if (bodyOf(request)['stream'] !== true && !acceptsEventStream(request.headers['accept'])) return json(200, TURN_RESPONSE, headers);
      const text = streamText(shape.framing, shape.fails === true);
      const answer = json(200, {}, { ...headers, 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      return { ...answer, body: text, ...(shape.slowStart === true ? { chunks: slowChunks(text) } : { chunks: [{ afterMs: 0, text }] }) };
    };
  },
};


export const MESSAGE_SCENARIOS: readonly Scenario[] = [slowJob, streams];
