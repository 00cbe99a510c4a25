import { writeFileSync } from 'node:fs';
import { inject } from 'vitest';
import { ExchangeSequence, HttpClient, sleep, type SendOptions } from '../http/client.ts';
import { Pacer, windowPacing } from '../http/pacer.ts';
import type { Exchange } from '../model/exchange.ts';
import { holdsServedDescription } from '../checks/openapi-served-description.ts';
import { ClockWitness } from '../checks/server-clock.ts';
import { appendExchange } from '../report/writers/transcript.ts';
import { TRANSCRIPT_BUDGET, type RecordBudget } from '../model/evidence-trim.ts';
import { judgementsFile } from '../judgement/judgement-line.ts';
import { pacerStatsFile, targetDownFile } from './worker-files.ts';
import { startJudgementLog } from './judgement-log.ts';
import type { RunContext } from './run-context.ts';
import { RoundTripFloor, sendAll, sideBySide } from './side-by-side.ts';
import { waitingFor } from './wait-notices.ts';

/**
 * The worker's one client and pacer. Suites run in a single worker with isolation off, so this
 * module state is shared by every suite file: one budget service for the whole run.
 */
export interface Session {
  context: RunContext;
  client: HttpClient;
  pacer: Pacer;
  /** Requests sent so far by this worker, every token and none. */
  requestCount(): number;
  /** Independent requests sent side by side (lib/suite/side-by-side.ts); their exchanges in the order given. */
  sendAll(requests: readonly SendOptions[]): Promise<Exchange[]>;
  /** How many independent requests go side by side now: more once the target is seen to be far. */
  sideBySide(): number;
  /** The answer so far whose Date header places the target's clock most tightly (lib/checks/server-clock.ts). */
  clockWitness(): Exchange | undefined;
}

let current: Session | undefined;

/** Waits of the budget service this long or longer are announced to the main process's progress lines. */
const ANNOUNCED_WAIT_MS = 1_000;

/** The fault hooks switched on now, by name (lib/suite/fault-hooks.ts): every exchange records them. */
export const faultsOn = new Set<string>();

/**
 * The served description is an input of the run-wide rules (lib/invariants/rules/served-description.ts):
 * the first fetch that holds it keeps its body whole in the record, bounded by the client's size cap.
 */
const WHOLE_BODY: RecordBudget = { ...TRANSCRIPT_BUDGET, body: Number.POSITIVE_INFINITY };
let descriptionKept = false;

/** What the transcript keeps of an exchange: TRANSCRIPT_BUDGET, or the served description whole. */
function transcriptBudget(exchange: Exchange, baseUrl: string): RecordBudget {
  const whole = !descriptionKept && holdsServedDescription(exchange, baseUrl);
  descriptionKept ||= whole;
  return whole ? WHOLE_BODY : TRANSCRIPT_BUDGET;
}

export function session(): Session {
  if (current !== undefined) return current;
  const context = inject('asi');
  // A long wait of the budget service shows as progress, like the rate-limit suites' own waits.
  const pacer = new Pacer({
    ...windowPacing(context.profile.limits.windowS),
    sleep: (ms, why) => (ms < ANNOUNCED_WAIT_MS ? sleep(ms) : waitingFor(context.transcriptFile, why, Date.now() + ms, sleep(ms))),
    // The pacer lives in this worker; the report in the main process learns its waiting from here,
    // the recovery suite's wait at the very end of a run included.
    onWaited: () => writeFileSync(pacerStatsFile(context.transcriptFile), JSON.stringify(pacer.stats())),
  });
  let count = 0;
  const roundTrips = new RoundTripFloor();
  const clock = new ClockWitness();
  const client = new HttpClient({
    baseUrl: context.baseUrl,
    tokens: context.tokens,
    pacer,
    maxInFlight: context.profile.pacing.maxInFlight,
    ...(context.httpLimits === undefined ? {} : { limits: context.httpLimits }),
    ...(context.transport === undefined ? {} : { transport: context.transport }),
    // The main process numbered the preflight's exchanges: this worker's come after them.
    sequence: new ExchangeSequence(context.firstSeq ?? 1),
    onExchange(exchange) {
      count += 1;
      roundTrips.note(exchange);
      clock.note(exchange);
      appendExchange(context.transcriptFile, exchange, transcriptBudget(exchange, context.baseUrl));
    },
    // The main process watches for this file and cuts the run short (lib/runner/run-control.ts).
    onUnresponsive: (reason) => writeFileSync(targetDownFile(context.transcriptFile), reason),
    faultsOn: () => [...faultsOn],
  });
  startJudgementLog(judgementsFile(context.transcriptFile));
  const inFlight = (): number => sideBySide(context.profile.pacing.maxInFlight, roundTrips.ms());
  current = { context, client, pacer, requestCount: () => count, sendAll: (requests) => sendAll(client, requests, inFlight()), sideBySide: inFlight, clockWitness: () => clock.witness() };
  return current;
}
