import type { IncomingMessage, ServerResponse } from 'node:http';

/** One request as the scripted reference received it, every issued token replaced by its variable's name. */
export interface ReceivedRequest {
  method: string;
  /** The request target as sent (path and query, not decoded). */
  target: string;
  headers: Record<string, string>;
  body: string;
  /** Milliseconds since the epoch when the request's head arrived. */
  receivedAtMs: number;
}

export interface ScriptedAnswer {
  status: number;
  headers: Record<string, string>;
  /** The whole body, as recorded; with `chunks`, their texts joined. */
  body: string;
  /** A body sent in parts, each after a pause (an event stream that starts slowly, lines split across writes). */
  chunks?: readonly { afterMs: number; text: string }[];
}

/** One received request and what the script answered: the recorder's unit. */
export interface RecordedRequest extends ReceivedRequest {
  answer: ScriptedAnswer;
}

/** Answers a request in scripted mode; sees only redacted requests, so no script can leak a token. */
export type RequestScript = (request: ReceivedRequest) => ScriptedAnswer;

/** Replaces every token value with the name of the environment variable that carries it. */
export function redactTokens(text: string, tokens: ReadonlyMap<string, string>): string {
  let out = text;
  for (const [value, name] of tokens) out = out.split(value).join(name);
  return out;
}

function readAll(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });
}

/**
 * Scripted, recording mode: the script answers every request and the recorder receives each one,
 * tokens already redacted, with its receive time. Used to grade clients (`asi-conformance client`).
 */
export async function answerScripted(
  script: RequestScript,
  recorder: (r: RecordedRequest) => void,
  tokens: ReadonlyMap<string, string>,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const receivedAtMs = Date.now();
  const body = redactTokens(await readAll(req), tokens);
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers[name] = redactTokens(Array.isArray(value) ? value.join(', ') : value, tokens);
  }
  const request: ReceivedRequest = { method: req.method ?? 'GET', target: redactTokens(req.url ?? '/', tokens), headers, body, receivedAtMs };
  const answer = script(request);
  recorder({ ...request, answer });
  if (answer.chunks === undefined) {
    res.writeHead(answer.status, { 'content-length': String(Buffer.byteLength(answer.body)), ...answer.headers });
    res.end(answer.body);
    return;
  }
  res.writeHead(answer.status, answer.headers);
  res.flushHeaders();
  for (const chunk of answer.chunks) {
    if (chunk.afterMs > 0) await new Promise((resolve) => setTimeout(resolve, chunk.afterMs));
    if (res.destroyed) return;
    res.write(chunk.text);
  }
  res.end();
}
