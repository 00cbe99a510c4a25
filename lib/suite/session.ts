import { appendFileSync, writeFileSync } from 'node:fs';
import { inject } from 'vitest';
import { HttpClient } from '../http/client.ts';
import { Pacer } from '../http/pacer.ts';
import type { Exchange } from '../model/exchange.ts';
import { pacerStatsFile, targetDownFile } from './worker-files.ts';
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

/** Trims an exchange for the transcript: bodies past 64 KiB are cut (the HAR carries excerpts). */
function transcriptLine(exchange: Exchange): string {
  const res = exchange.response;
  const trimmed =
    res !== undefined && res.body.length > 65_536
      ? { ...exchange, response: { ...res, body: res.body.slice(0, 65_536), truncated: true } }
      : exchange;
  return `${JSON.stringify(trimmed)}\n`;
}

export function session(): Session {
  if (current !== undefined) return current;
  const context = inject('asi');
  const pacer = new Pacer();
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
