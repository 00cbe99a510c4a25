import { describe } from 'vitest';
import { messageBodyWith } from '../lib/arbitraries/message-text.ts';
import {
  FAULT_CODE,
  FAULT_RECOVERY,
  SPEND_CAP_NOT_RATE_LIMIT,
  SPEND_CAP_REFUSED,
  UPSTREAM_503,
  UPSTREAM_TRANSIENT,
  faultFindings,
  recoveryFinding,
  type FaultProbe,
  type MessageFaultName,
} from '../lib/checks/conversation-fault.ts';
import { EVENT_DATA, SINGLE_TERMINAL, sseGrammarFindings } from '../lib/checks/sse-grammar.ts';
import type { SendOptions } from '../lib/http/client.ts';
import type { Finding } from '../lib/model/finding.ts';
import { authenticatedRoutes, probeRequest } from '../lib/suite/authenticated-routes.ts';
import { hasFault, withFault } from '../lib/suite/fault-hooks.ts';
import { probeJobId } from '../lib/suite/probe-job.ts';
import { requirementTest } from '../lib/suite/requirement-test.ts';

// Budget per fault, on the primary token: a stream started before the fault; while it is on, every
// message route in its four forms (REST, streamed by Accept and by `stream: true`, job mode: 8
// writes with the reference's two routes) and the reads (GET /me, the ledger, the poll of a job
// created before); one REST message after it is off. 10 writes and 3 reads per fault, 20 writes for
// both faults (the job polled is the run's one probe job).

const DRILLS: ReadonlyArray<{ fault: MessageFaultName; ids: string[] }> = [
  { fault: 'upstream_unavailable', ids: [UPSTREAM_503, UPSTREAM_TRANSIENT, FAULT_CODE, FAULT_RECOVERY] },
  { fault: 'spend_cap_reached', ids: [SPEND_CAP_REFUSED, SPEND_CAP_NOT_RATE_LIMIT, FAULT_CODE, FAULT_RECOVERY] },
];

describe('§7, §8.2 Upstream unavailable and spend cap on the message POST', () => {
  for (const { fault, ids } of DRILLS) {
    // > 503 | (upstream unavailable) | | An upstream dependency is unavailable, and it can also occur on reaching a spend cap.
    // > When a spend cap is reached, requests can fail with HTTP 503 (upstream unavailable).
    // > Credits cap monthly agent usage. Rate limits are separate and cap requests per minute (see Limits).
    requirementTest(
      ids,
      `${fault}: a stream already running when the fault starts, then every authenticated route in every form sent under it (each message route as REST, streamed both ways and in the job mode; GET /me, the ledger, a job poll)`,
      async ({ client, sendAll, context, notRun }) => {
        if (!hasFault(fault)) return notRun(`the profile has no faults.${fault} hook`);
        const route = context.profile.messages.routes[0];
        if (route === undefined) return notRun('the profile lists no messages.routes');
        const rest: SendOptions = { method: 'POST', path: route.path, token: 'primary', json: messageBodyWith(route.body, '', 'absent') };
        const stream: SendOptions = { ...rest, headers: { accept: 'text/event-stream' }, stream: true };
        // A job created before the fault: its poll is sent under it like every other route.
        const pollJobId = await probeJobId();
        const routes = authenticatedRoutes(context.profile, pollJobId === undefined ? {} : { pollJobId });
        // Sent before the hook runs: if it is still streaming when the fault takes hold, it must end with `error`.
        const running = client.send(stream);
        const probes = await withFault(fault, async (): Promise<FaultProbe[]> => {
          // Unpaced: a refusal under the fault is the evidence, never a 429 to wait out and resend.
          const sent = await sendAll(routes.map((r) => ({ ...probeRequest(r), token: 'primary', unpaced: true })));
          // The spec says nothing of the reads under these faults: the run-wide rules judge their answers.
          const underFault = routes.flatMap((r, i): FaultProbe[] => (r.form === undefined ? [] : [{ exchange: sent[i]!, label: r.label, job: r.form === 'job' }]));
          return [{ exchange: await running, startedBeforeFault: true, label: `POST ${route.template} (Accept: text/event-stream)` }, ...underFault];
        });
        const after = await client.send(rest);
        const findings: Finding[] = [...faultFindings(fault, probes), recoveryFinding(fault, after)];
        // Streams that ended in an error event still follow the §6 grammar.
        for (const { exchange } of probes) {
          if ((exchange.response?.events?.length ?? 0) > 0) findings.push(...sseGrammarFindings(exchange, [EVENT_DATA, SINGLE_TERMINAL]));
        }
        return findings;
      },
      { timeout: 90_000 },
    );
  }
});
