import '../checks/all-checkers.ts';
import { checkerNamed } from '../checks/judged.ts';
import type { RecordContext } from '../invariants/exchange-facts.ts';
import { judgeExchanges } from '../invariants/judge-record.ts';
import type { Exchange } from '../model/exchange.ts';
import type { Finding } from '../model/finding.ts';
import type { RequirementResult } from '../report/report-model.ts';
import { decodeJudgementValue, type Encoded } from './codec.ts';
import { RUN_WIDE_JUDGEMENT, type CallLine } from './judgement-line.ts';
import type { RunRecord } from './rederive.ts';

/** A recorded request to send again, relative to the new base URL; secrets still as their placeholders. */
export interface ReplayRequest {
  method: string;
  /** Path and query below base_url, as recorded (`/credits/operations?from=...`). */
  target: string;
  headers: Record<string, string>;
  body?: string;
  tokenRole?: string;
  /** The recorded answer was an event stream. */
  stream: boolean;
}

/** One judgement sent again: what it found then, what the same checker finds now. */
export interface ReplayedJudgement {
  judgement: string;
  checker: string;
  then: Finding[];
  now: Finding[];
  /** Requests sent again. */
  sent: number;
  /** What was sent again, as `METHOD /target` below base_url, in order. */
  requests: string[];
  /** Why it was not sent again, when it was not. */
  skipped?: string;
}

/** More recorded requests than this in one judgement: a walk of a whole ledger, not a fix to prove. */
export const MAX_REPLAYED_REQUESTS = 60;

/**
 * Checkers whose judgement rests on a sequence in time (a pool spent, a window healing, rows added
 * between two walks): their requests sent again one after another prove nothing. A full run with
 * `--only` does.
 */
const TIMED = /^(rate-limit-[a-z-]+|token-points|disbelieved-headers|ledger-growth)\//;

/** Headers the client sets itself, and the token, which the replay sets from the environment. */
const OWN_HEADERS = new Set(['host', 'content-length', 'connection', 'transfer-encoding', 'user-agent']);

/** The sequence numbers of the exchanges an encoded value cites, in order. */
function citedExchanges(value: Encoded, values: (digest: string) => Encoded | undefined, out: Set<number> = new Set()): Set<number> {
  if (value === null || typeof value !== 'object') return out;
  if (Array.isArray(value)) {
    for (const v of value) citedExchanges(v, values, out);
    return out;
  }
  for (const key of ['$exchange', '$page'] as const) if (typeof value[key] === 'number') out.add(value[key]);
  const doc = value['$document'];
  if (typeof doc === 'object' && doc !== null && !Array.isArray(doc) && typeof doc['exchange'] === 'number') out.add(doc['exchange']);
  if (typeof value['$value'] === 'string') {
    const v = values(value['$value']);
    if (v !== undefined) citedExchanges(v, values, out);
    return out;
  }
  for (const v of Object.values(value)) citedExchanges(v, values, out);
  return out;
}

/** The request of a recorded exchange, below the base URL the bundle's run used. */
export function replayRequestOf(exchange: Exchange, recordedBase: string): ReplayRequest | undefined {
  const base = recordedBase.replace(/\/+$/, '');
  const url = exchange.request.url;
  if (!url.startsWith(`${base}/`)) return undefined;
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(exchange.request.headers)) if (!OWN_HEADERS.has(k)) headers[k] = v;
  const request: ReplayRequest = { method: exchange.request.method, target: url.slice(base.length), headers, stream: exchange.response?.events !== undefined };
  if (exchange.request.body !== undefined) request.body = exchange.request.body;
  if (exchange.request.tokenRole !== undefined) request.tokenRole = exchange.request.tokenRole;
  return request;
}

export interface ReplayOptions {
  record: RunRecord;
  results: readonly RequirementResult[];
  requirement: string;
  /** base_url of the bundle's run: recorded URLs are read below it. */
  recordedBaseUrl: string;
  /** base_url the requests go to now. */
  baseUrl: string;
  /** Sends one request to the new target (tokens from the environment, never from the bundle). */
  send: (request: ReplayRequest) => Promise<Exchange>;
  /**
   * Throws when the requirement's requests cannot all go out as recorded (a secret this shell
   * lacks): called with all of them before the first is sent, so that none is sent in vain.
   */
  check?: (requests: readonly ReplayRequest[]) => void;
}

/**
 * Sends a requirement's recorded requests again and judges the answers with the same checkers:
 * for each judgement that gave the requirement a finding, its cited exchanges are sent again in
 * their recorded order, and the checker runs on the new answers in their place. The run-wide
 * rules are judged again on the answers to the exchanges their finding cites.
 */
export async function replayRequirement(options: ReplayOptions): Promise<ReplayedJudgement[]> {
  const { record, requirement } = options;
  const bySeq = new Map(record.exchanges.map((e) => [e.seq, e]));
  const values = new Map<string, Encoded>();
  const calls = new Map<string, CallLine>();
  for (const line of record.judgements) {
    if ('value' in line) values.set(line.value, line.data);
    else calls.set(line.judgement, line);
  }
  const result = options.results.find((r) => r.requirement.id === requirement);
  const findings = result?.findings ?? [];
  const ids = [...new Set(findings.flatMap((f) => (f.judgement === undefined ? [] : [f.judgement.id])))];
  const out: ReplayedJudgement[] = [];
  // First what each judgement would send, then all of it checked, then sent: a secret this shell
  // lacks in any request stops the replay before the first goes out.
  const planned: Array<{ entry: ReplayedJudgement; call: CallLine; requests: Array<[number, ReplayRequest]> }> = [];
  for (const id of ids) {
    const call = calls.get(id);
    if (call === undefined) continue;
    const then = findings.filter((f) => f.judgement?.id === id);
    const entry: ReplayedJudgement = { judgement: id, checker: call.checker, then, now: [], sent: 0, requests: [] };
    out.push(entry);
    const cited = call.checker === RUN_WIDE_JUDGEMENT ? new Set(then.flatMap((f) => f.exchanges.map((e) => e.seq))) : citedExchanges(call.args, (d) => values.get(d));
    if (TIMED.test(call.checker)) {
      entry.skipped = `its judgement rests on requests in time (a pool, a window, rows added between walks): run the requirement again with \`run --only ${requirement}\``;
      continue;
    }
    if (cited.size > MAX_REPLAYED_REQUESTS) {
      entry.skipped = `it cites ${cited.size} exchanges, more than ${MAX_REPLAYED_REQUESTS}: run the requirement again with \`run --only ${requirement}\``;
      continue;
    }
    const requests: Array<[number, ReplayRequest]> = [];
    for (const seq of [...cited].sort((a, b) => a - b)) {
      const recorded = bySeq.get(seq);
      const request = recorded === undefined ? undefined : replayRequestOf(recorded, options.recordedBaseUrl);
      if (request === undefined) {
        entry.skipped = `exchange ${seq} is not in the record, or went elsewhere than base_url`;
        break;
      }
      requests.push([seq, request]);
    }
    if (entry.skipped === undefined) planned.push({ entry, call, requests });
  }
  options.check?.(planned.flatMap((p) => p.requests.map(([, r]) => r)));
  for (const { entry, call, requests } of planned) {
    const answers = new Map<number, Exchange>();
    for (const [seq, request] of requests) {
      answers.set(seq, await options.send(request));
      entry.sent += 1;
      entry.requests.push(`${request.method} ${request.target}`);
    }
    const source = { exchange: (seq: number) => answers.get(seq) ?? bySeq.get(seq), value: (d: string) => values.get(d) };
    const args = call.args.map((a) => decodeJudgementValue(a, source));
    const checker = checkerNamed(call.checker);
    let found: unknown;
    if (call.checker === RUN_WIDE_JUDGEMENT) found = judgeExchanges([...answers.values()], { ...(args[0] as RecordContext), baseUrl: options.baseUrl }, (r) => r === requirement);
    else if (checker !== undefined) found = checker(...args);
    else {
      entry.skipped = `the checker ${call.checker} is not one this harness has (the bundle was made by another version)`;
      continue;
    }
    const list = Array.isArray(found) ? (found as Finding[]) : found === undefined ? [] : [found as Finding];
    entry.now = list.filter((f) => f.requirement === requirement);
  }
  return out;
}
