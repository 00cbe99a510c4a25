import { appendFileSync, writeFileSync } from 'node:fs';
import { inject } from 'vitest';
import { HttpClient } from '../http/client.ts';
import { Pacer, windowPacing } from '../http/pacer.ts';
import type { Exchange } from '../model/exchange.ts';
import { holdsServedDescription } from '../checks/openapi-served-description.ts';
import { TRANSCRIPT_BUDGET, trimExchange, type RecordBudget } from '../model/evidence-trim.ts';
import { judgementsFile, pacerStatsFile, targetDownFile } from './worker-files.ts';
import { startJudgementLog } from './judgement-log.ts';
import type { RunContext } from './run-context.ts';

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
}

let current: Session | undefined;

/** The fault hooks switched on now, by name (lib/suite/fault-hooks.ts): every exchange records them. */
export const faultsOn = new Set<string>();

/**
 * The served description is an input of the run-wide rules (lib/invariants/rules/served-description.ts):
 * the first fetch that holds it keeps its body whole in the record, bounded by the client's size cap.
 */
const WHOLE_BODY: RecordBudget = { ...TRANSCRIPT_BUDGET, body: Number.POSITIVE_INFINITY };
let descriptionKept = false;

/**
 * An exchange as one transcript line, within TRANSCRIPT_BUDGET: a flood of events or a huge body
 * costs the file a bounded line, and what was left out is counted. Lines go to disk as they come.
 */
function transcriptLine(exchange: Exchange, baseUrl: string): string {
  const whole = !descriptionKept && holdsServedDescription(exchange, baseUrl);
  descriptionKept ||= whole;
  return `${JSON.stringify(trimExchange(exchange, whole ? WHOLE_BODY : TRANSCRIPT_BUDGET))}\n`;
}

export function session(): Session {
  if (current !== undefined) return current;
  const context = inject('asi');
  const pacer = new Pacer(windowPacing(context.profile.limits.windowS));
  let count = 0;
  let waitedReported = 0;
  const client = new HttpClient({
    baseUrl: context.baseUrl,
    tokens: context.tokens,
    pacer,
    ...(context.httpLimits === undefined ? {} : { limits: context.httpLimits }),
    ...(context.transport === undefined ? {} : { transport: context.transport }),
    onExchange(exchange) {
      count += 1;
      appendFileSync(context.transcriptFile, transcriptLine(exchange, context.baseUrl));
      // The pacer lives in this worker; the report in the main process learns its waiting from here.
      if (pacer.waitedMs !== waitedReported) {
        waitedReported = pacer.waitedMs;
        writeFileSync(pacerStatsFile(context.transcriptFile), JSON.stringify(pacer.stats()));
      }
    },
    // The main process watches for this file and cuts the run short (lib/runner/run-control.ts).
    onUnresponsive: (reason) => writeFileSync(targetDownFile(context.transcriptFile), reason),
    faultsOn: () => [...faultsOn],
  });
  startJudgementLog(judgementsFile(context.transcriptFile), (text) => client.redact(text));
  current = { context, client, pacer, requestCount: () => count };
  return current;
}
