import { appendFileSync, writeFileSync } from 'node:fs';
import { inject } from 'vitest';
import { HttpClient, sleep } from '../http/client.ts';
import { Pacer, windowPacing } from '../http/pacer.ts';
import type { Exchange } from '../model/exchange.ts';
import { TRANSCRIPT_BUDGET, trimExchange } from './evidence-trim.ts';
import { pacerStatsFile, targetDownFile } from './worker-files.ts';
import type { RunContext } from './run-context.ts';
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
}

let current: Session | undefined;

/** Waits of the budget service this long or longer are announced to the main process's progress lines. */
const ANNOUNCED_WAIT_MS = 1_000;

/**
 * An exchange as one transcript line, within TRANSCRIPT_BUDGET: a flood of events or a huge body
 * costs the file a bounded line, and what was left out is counted. Lines go to disk as they come.
 */
function transcriptLine(exchange: Exchange): string {
  return `${JSON.stringify(trimExchange(exchange, TRANSCRIPT_BUDGET))}\n`;
}

export function session(): Session {
  if (current !== undefined) return current;
  const context = inject('asi');
  // A long wait of the budget service shows as progress, like the rate-limit suites' own waits.
  const pacer = new Pacer({
    ...windowPacing(context.profile.limits.windowS),
    sleep: (ms, why) => (ms < ANNOUNCED_WAIT_MS ? sleep(ms) : waitingFor(context.transcriptFile, why, Date.now() + ms, sleep(ms))),
  });
  let count = 0;
  let waitedReported = 0;
  const client = new HttpClient({
    baseUrl: context.baseUrl,
    tokens: context.tokens,
    pacer,
    maxInFlight: context.profile.pacing.maxInFlight,
    ...(context.httpLimits === undefined ? {} : { limits: context.httpLimits }),
    ...(context.transport === undefined ? {} : { transport: context.transport }),
    onExchange(exchange) {
      count += 1;
      appendFileSync(context.transcriptFile, transcriptLine(exchange));
      // The pacer lives in this worker; the report in the main process learns its waiting from here.
      if (pacer.waitedMs !== waitedReported) {
        waitedReported = pacer.waitedMs;
        writeFileSync(pacerStatsFile(context.transcriptFile), JSON.stringify(pacer.stats()));
      }
    },
    // The main process watches for this file and cuts the run short (lib/runner/run-control.ts).
    onUnresponsive: (reason) => writeFileSync(targetDownFile(context.transcriptFile), reason),
  });
  current = { context, client, pacer, requestCount: () => count };
  return current;
}
