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
import { hasFault, withFault } from '../lib/suite/fault-hooks.ts';
import { requirementTest } from '../lib/suite/requirement-test.ts';

// Budget per fault: a stream started before the fault, a REST message and a stream asked for
// while it is on, and one REST message after it is off: 4 writes, 8 for both faults.

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
      `${fault}: a stream already running when the fault starts, then a REST message and a stream sent under it`,
      async ({ client, context, notRun }) => {
        if (!hasFault(fault)) return notRun(`the profile has no faults.${fault} hook`);
        const route = context.profile.messages.routes[0];
        if (route === undefined) return notRun('the profile lists no messages.routes');
        const rest: SendOptions = { method: 'POST', path: route.path, token: 'primary', json: messageBodyWith(route.body, '', 'absent') };
        const stream: SendOptions = { ...rest, headers: { accept: 'text/event-stream' }, stream: true };
        // Sent before the hook runs: if it is still streaming when the fault takes hold, it must end with `error`.
        const running = client.send(stream);
        const probes = await withFault(fault, async (): Promise<FaultProbe[]> => {
          // Unpaced: a refusal under the fault is the evidence, never a 429 to wait out and resend.
          const underFault = [{ exchange: await client.send({ ...rest, unpaced: true }) }, { exchange: await client.send({ ...stream, unpaced: true }) }];
          return [{ exchange: await running, startedBeforeFault: true }, ...underFault];
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
