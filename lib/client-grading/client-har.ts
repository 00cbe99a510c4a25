import type { Exchange } from '../model/exchange.ts';
import { jsonText } from '../model/json-text.ts';
import { entry } from '../report/writers/har.ts';
import type { TracedRequest } from '../checks/client-trace.ts';
import type { ClientReport, ScenarioRun } from './client-report.ts';

/** A recorded request and the scripted answer as the run's Exchange, so that the run's HAR entry writer serves both. */
export function exchangeOf(run: ScenarioRun, request: TracedRequest, seq: number): Exchange {
  const exchange: Exchange = {
    seq,
    startedAt: new Date(request.receivedAtMs).toISOString(),
    request: { method: request.method, url: `${new URL(run.baseUrl).origin}${request.target}`, headers: { ...request.headers } },
    response: { status: request.answer.status, headers: { ...request.answer.headers }, body: request.answer.body, bodyBytes: Buffer.byteLength(request.answer.body), truncated: false },
    // The server answers at once; the time to the next request is the client's, not the exchange's.
    timings: { totalMs: 0 },
  };
  if (request.body !== '') exchange.request.body = request.body;
  return exchange;
}

/** transcript.har: every request of every scenario and the answer the script gave, HAR 1.2 with the run's `_asi` fields and the scenario's name. */
export function clientHar(report: ClientReport): string {
  let seq = 0;
  const entries = report.scenarios.flatMap((run) =>
    run.trace.map((request, index) => {
      const e = entry(exchangeOf(run, request, ++seq), false);
      return { ...e, _asi: { ...(e['_asi'] as Record<string, unknown>), scenario: run.scenario, index } };
    }),
  );
  const comment = `client grading ${report.runId}: ${report.scenarios.map((s) => `${s.scenario} (${s.trace.length} requests)`).join(', ')}`;
  return `${jsonText({ log: { version: '1.2', creator: { name: report.harness.name, version: report.harness.version }, comment, entries } }, 2)}\n`;
}
