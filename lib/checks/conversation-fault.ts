import type { FaultName } from '../profile/resolved-profile.ts';
import type { Exchange } from '../model/exchange.ts';
import { fail, inconclusive, pass, type Finding } from '../model/finding.ts';
import { parseEnvelope } from './error-envelope.ts';
import { describeResponse, isObject } from './json-body.ts';
import { mediaType } from './conversation-rest.ts';
import { judged } from './judged.ts';

export const UPSTREAM_503 = 'conversation/7/upstream-503';
export const UPSTREAM_TRANSIENT = 'conversation/7/upstream-transient';
export const SPEND_CAP_REFUSED = 'conversation/8.2/spend-cap-refused';
export const SPEND_CAP_NOT_RATE_LIMIT = 'conversation/8.2/spend-cap-not-rate-limit';
export const FAULT_CODE = 'conversation/7/fault-code';
export const FAULT_RECOVERY = 'conversation/7/fault-recovery';

export type MessageFaultName = Extract<FaultName, 'upstream_unavailable' | 'spend_cap_reached'>;

/** How the target refused (or did not refuse) a message under a fault. */
export type Refusal =
  | { kind: 'envelope'; status: number; code: string; category: string }
  | { kind: 'error-event'; code: string; category: string }
  | { kind: 'bad-error'; status: number; why: string }
  | { kind: 'served'; how: string }
  | { kind: 'no-response'; why: string };

/** Reads one message POST made while a fault was on. */
export function refusalOf(exchange: Exchange): Refusal {
  const res = exchange.response;
  if (res === undefined) return { kind: 'no-response', why: describeResponse(exchange) };
  if (res.status >= 400) {
    const env = parseEnvelope(exchange);
    if (!env.ok) return { kind: 'bad-error', status: res.status, why: env.problems.join('; ') };
    return { kind: 'envelope', status: res.status, code: env.error.code, category: env.error.category };
  }
  const events = res.events ?? [];
  if (mediaType(exchange) === 'text/event-stream' || events.length > 0) {
    const error = events.find((e) => e.event === 'error');
    if (error !== undefined) {
      let data: unknown;
      try {
        data = JSON.parse(error.data) as unknown;
      } catch {
        data = undefined;
      }
      const code = isObject(data) && typeof data['code'] === 'string' ? data['code'] : '(unreadable)';
      const category = isObject(data) && typeof data['category'] === 'string' ? data['category'] : '(unreadable)';
      return { kind: 'error-event', code, category };
    }
    return { kind: 'served', how: `HTTP ${res.status}: a stream of ${events.length} events ending ${events.at(-1)?.event ?? 'empty'}, no error event` };
  }
  return { kind: 'served', how: `HTTP ${describeResponse(exchange).slice(0, 160)}` };
}

export interface FaultProbe {
  exchange: Exchange;
  /** The request was under way before the fault was switched on (a stream that had started). */
  startedBeforeFault?: boolean;
  /** What was sent, for the report (`POST /deal-agents/{agent_id}/messages (stream: true)`). */
  label?: string;
  /**
   * A job-mode POST: the turn runs after the answer, so accepting the job under the fault (a
   * 2xx) is legal and only noted; a refusal is judged like any other.
   */
  job?: boolean;
}

function describeRefusal(r: Refusal): string {
  switch (r.kind) {
    case 'envelope':
      return `HTTP ${r.status}, code ${r.code}, category ${r.category}`;
    case 'error-event':
      return `an error event, code ${r.code}, category ${r.category}`;
    case 'bad-error':
      return `HTTP ${r.status} without the §7 envelope (${r.why})`;
    case 'served':
      return `served: ${r.how}`;
    case 'no-response':
      return `no response: ${r.why}`;
  }
}

function whatWasSent({ exchange, startedBeforeFault, label }: FaultProbe): string {
  if (startedBeforeFault === true) return `${label ?? 'a stream'} started before the fault`;
  if (label !== undefined) return label;
  return (exchange.request.headers['accept'] ?? '').includes('text/event-stream') ? 'a stream asked for under the fault' : 'a REST message under the fault';
}

/** What each probe met, the same outcome said once with the requests that met it. */
function outcomes(seen: ReadonlyArray<{ what: string; outcome: string }>): string {
  const byOutcome = new Map<string, string[]>();
  for (const { what, outcome } of seen) byOutcome.set(outcome, [...(byOutcome.get(outcome) ?? []), what]);
  return [...byOutcome].map(([outcome, whats]) => `${outcome}: ${whats.join(', ')}`).join('; ');
}

/**
 * Findings of the message POSTs made while `fault` was on. A request sent under the fault must be
 * refused; one that was already streaming may end with an `error` event or, when the turn was over
 * before the fault took hold, with `done` (then it only adds a note); a job-mode POST may accept
 * the job (noted). Every refusal is judged: its status, envelope or event, and its category.
 */
export const faultFindings = judged('conversation-fault/faultFindings', function faultFindings(fault: MessageFaultName, probes: readonly FaultProbe[]): Finding[] {
  const findings: Finding[] = [];
  const seen: Array<{ what: string; outcome: string }> = [];
  const main = fault === 'upstream_unavailable' ? UPSTREAM_503 : SPEND_CAP_REFUSED;
  for (const probe of probes) {
    const { exchange, startedBeforeFault, job } = probe;
    const ex = [exchange];
    const r = refusalOf(exchange);
    const what = whatWasSent(probe);
    seen.push({ what, outcome: describeRefusal(r) });
    if (r.kind === 'no-response') {
      findings.push(inconclusive(main, `no response under ${fault} to ${what}: ${r.why}`, ex));
      continue;
    }
    if (r.kind === 'served' && (startedBeforeFault === true || (job === true && (exchange.response?.status ?? 0) < 300))) continue;
    if (fault === 'upstream_unavailable') {
      // > 503 | (upstream unavailable) | | An upstream dependency is unavailable
      // > All error responses use this envelope
      const ok = (r.kind === 'envelope' && r.status === 503) || r.kind === 'error-event';
      findings.push(ok ? pass(main, ex) : fail(main, '503 with the §7 envelope, or an error event on a stream already started', `${what}: ${describeRefusal(r)}`, ex));
      // > `transient`: retry with backoff.
      if (r.kind === 'envelope' || r.kind === 'error-event') {
        findings.push(
          r.category === 'transient'
            ? pass(UPSTREAM_TRANSIENT, ex)
            : fail(UPSTREAM_TRANSIENT, 'category transient for an unavailable upstream', `${what}: category ${r.category}`, ex),
        );
      } else {
        findings.push(inconclusive(UPSTREAM_TRANSIENT, `no error category to read: ${describeRefusal(r)}`, ex));
      }
    } else {
      // > When a spend cap is reached, requests can fail with HTTP 503 (upstream unavailable).
      // §8.2 leaves "the exact response on reaching the cap" open: any error in the envelope refuses.
      const ok = r.kind === 'envelope' || r.kind === 'error-event';
      findings.push(ok ? pass(main, ex) : fail(main, 'the message refused with an error in the §7 envelope (or an error event)', `${what}: ${describeRefusal(r)}`, ex));
      if (ok) findings.push(notRateLimitFinding(r, what, ex));
    }
  }
  if (!findings.some((f) => f.requirement === main)) {
    findings.push(inconclusive(main, `no request was sent while ${fault} was on`, probes.map((p) => p.exchange)));
  }
  if (fault === 'spend_cap_reached' && !findings.some((f) => f.requirement === SPEND_CAP_NOT_RATE_LIMIT)) {
    findings.push(inconclusive(SPEND_CAP_NOT_RATE_LIMIT, 'no refusal under the spend cap to read', probes.map((p) => p.exchange)));
  }
  if (fault === 'upstream_unavailable' && !findings.some((f) => f.requirement === UPSTREAM_TRANSIENT)) {
    findings.push(inconclusive(UPSTREAM_TRANSIENT, 'no refusal to read a category from', probes.map((p) => p.exchange)));
  }
  // The spec names no code for these 503s: the report shows what came.
  findings.push(pass(FAULT_CODE, probes.map((p) => p.exchange).slice(0, 1), `${fault}: ${outcomes(seen)}`));
  return findings;
});

/**
 * > Credits cap monthly agent usage. Rate limits are separate and cap requests per minute
 * A spend-cap refusal dressed as the rate-limit one (§7: `429 | rate_limit.exceeded | rate_limited`)
 * sends a client to sleep Retry-After and try again, against a cap that lasts the month.
 */
function notRateLimitFinding(r: Extract<Refusal, { kind: 'envelope' | 'error-event' }>, what: string, ex: Exchange[]): Finding {
  const asRateLimit = r.code === 'rate_limit.exceeded' || (r.category === 'rate_limited' && (r.kind === 'error-event' || r.status === 429));
  return asRateLimit
    ? fail(SPEND_CAP_NOT_RATE_LIMIT, 'a refusal other than the rate limit: not rate_limit.exceeded, not a 429 of category rate_limited', `${what}: ${describeRefusal(r)}`, ex)
    : pass(SPEND_CAP_NOT_RATE_LIMIT, ex);
}

/** INFO: the message POST sent after the disable hook ran. */
export const recoveryFinding = judged('conversation-fault/recoveryFinding', function recoveryFinding(fault: MessageFaultName, exchange: Exchange): Finding {
  const res = exchange.response;
  if (res !== undefined && res.status >= 200 && res.status <= 299) return pass(FAULT_RECOVERY, [exchange], `${fault}: HTTP ${res.status} after the disable hook`);
  return { requirement: FAULT_RECOVERY, verdict: 'warn', note: `${fault}: still refused after the disable hook: ${describeResponse(exchange).slice(0, 160)}`, exchanges: [exchange] };
});
