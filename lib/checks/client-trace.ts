/** One request a client sent to the scripted reference, and the answer it got (tokens already redacted). */
export interface TracedRequest {
  method: string;
  /** Request target as sent: path and query, not decoded. */
  target: string;
  headers: Readonly<Record<string, string>>;
  body: string;
  receivedAtMs: number;
  answer: { status: number; headers: Readonly<Record<string, string>>; body: string };
}

export type ClientVerdict = 'pass' | 'fail' | 'not-run';

/** A checker's judgement of one trace: a fail names the request (index into the trace) that breaks the rule. */
export interface ClientJudgement {
  requirement: string;
  verdict: ClientVerdict;
  /** Why: what was judged, what broke, or what never happened. */
  reason: string;
  at?: number;
}

/** The path of a request target, relative to the base path `/v1` when under it. */
export function pathOf(target: string): string {
  const path = target.split('?')[0] ?? '';
  return path.startsWith('/v1/') ? path.slice(3) : path;
}

/** The decoded query parameters of a request target, as a server reads them. */
export function queryOf(target: string): URLSearchParams {
  const i = target.indexOf('?');
  return new URLSearchParams(i < 0 ? '' : target.slice(i + 1));
}

/** The query, canonical: decoded pairs in order, so `a=%2B` and `a=%2b` compare equal. */
export function canonicalQuery(target: string): string {
  return JSON.stringify([...queryOf(target)]);
}

/** §8.1: GET and HEAD spend the read pool, every other method the write pool. */
export function poolOf(method: string): 'read' | 'write' {
  return method === 'GET' || method === 'HEAD' ? 'read' : 'write';
}

/** The error category of an answer, when its body is the §7 envelope. */
export function categoryOf(answerBody: string): string | undefined {
  try {
    const parsed = JSON.parse(answerBody) as { error?: { category?: unknown } };
    return typeof parsed.error?.category === 'string' ? parsed.error.category : undefined;
  } catch {
    return undefined;
  }
}

/** Method, path, query and body: what makes two requests the same request. */
export function sameRequest(a: TracedRequest, b: TracedRequest): boolean {
  return a.method === b.method && pathOf(a.target) === pathOf(b.target) && canonicalQuery(a.target) === canonicalQuery(b.target) && a.body === b.body;
}

/** What differs between two requests, for a finding's sentence. */
export function differences(a: TracedRequest, b: TracedRequest): string[] {
  const out: string[] = [];
  if (a.method !== b.method) out.push(`method ${a.method} → ${b.method}`);
  if (pathOf(a.target) !== pathOf(b.target)) out.push(`path ${pathOf(a.target)} → ${pathOf(b.target)}`);
  if (canonicalQuery(a.target) !== canonicalQuery(b.target)) out.push(`query ${JSON.stringify(a.target.split('?')[1] ?? '')} → ${JSON.stringify(b.target.split('?')[1] ?? '')}`);
  if (a.body !== b.body) out.push('body differs');
  return out;
}

function shorten(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** The trace around one request, a line each: `+1.20 s GET /credits/operations?cursor=… → 200`, the one judged marked. */
export function timeline(trace: readonly TracedRequest[], at: number | undefined, around = 3): string[] {
  if (trace.length === 0) return [];
  const t0 = trace[0]!.receivedAtMs;
  const from = at === undefined ? 0 : Math.max(0, at - around);
  const to = at === undefined ? Math.min(trace.length, 2 * around + 1) : Math.min(trace.length, at + around + 1);
  const lines: string[] = [];
  for (let i = from; i < to; i++) {
    const r = trace[i]!;
    const retryAfter = r.answer.headers['retry-after'];
    const extra = retryAfter === undefined ? '' : ` (Retry-After: ${retryAfter})`;
    lines.push(`${i === at ? '>' : ' '} +${((r.receivedAtMs - t0) / 1000).toFixed(2)} s ${r.method} ${shorten(pathOf(r.target) + (r.target.includes('?') ? `?${r.target.split('?')[1]}` : ''), 90)} → ${r.answer.status}${extra}`);
  }
  return lines;
}
