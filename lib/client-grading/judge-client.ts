import { clientRequirements, type ClientRequirement } from '../catalogue/client.ts';
import { judgeBearerOnly } from '../checks/client-bearer.ts';
import { judgeCursorVerbatim } from '../checks/client-cursor.ts';
import { judgeNoRetryPermanent } from '../checks/client-permanent.ts';
import { judgeBackoffMultiplier, judgeRetryAfterHonoured, judgeSameRequestAfter429 } from '../checks/client-rate-limited.ts';
import { timeline, type ClientJudgement, type ClientVerdict, type TracedRequest } from '../checks/client-trace.ts';

/** Every rule judges every scenario's trace: a scenario only makes some rules' triggers likely. */
const CHECKERS: readonly ((trace: readonly TracedRequest[]) => ClientJudgement)[] = [
  judgeCursorVerbatim,
  judgeRetryAfterHonoured,
  judgeSameRequestAfter429,
  judgeBackoffMultiplier,
  judgeNoRetryPermanent,
  judgeBearerOnly,
];

export interface ScenarioTrace {
  scenario: string;
  trace: readonly TracedRequest[];
}

export interface ClientFinding {
  scenario: string;
  verdict: ClientVerdict;
  reason: string;
  /** The trace around the request judged, a line each with its time from the scenario's first request. */
  timeline: string[];
  /** The index in the scenario's trace of the request judged, when one was. */
  at?: number;
}

export interface ClientRequirementVerdict {
  requirement: ClientRequirement;
  verdict: ClientVerdict | 'warn';
  /** One line: the first failure, else what passed, else why nothing was judged. */
  reason: string;
  findings: ClientFinding[];
}

/** A requirement fails if any scenario fails it, passes if none fails and one passes, else is not run. */
export function judgeClient(traces: readonly ScenarioTrace[]): ClientRequirementVerdict[] {
  const all = traces.flatMap(({ scenario, trace }) =>
    CHECKERS.map((check) => {
      const j = check(trace);
      return { id: j.requirement, finding: { scenario, verdict: j.verdict, reason: j.reason, timeline: j.verdict === 'fail' ? timeline(trace, j.at) : [], ...(j.at === undefined ? {} : { at: j.at }) } };
    }),
  );
  return clientRequirements.map((requirement) => {
    const findings = all.filter((f) => f.id === requirement.id).map((f) => f.finding);
    const failed = findings.find((f) => f.verdict === 'fail');
    const passed = findings.filter((f) => f.verdict === 'pass');
    // A SHOULD broken is a warning, as in a server run.
    if (failed !== undefined) return { requirement, verdict: requirement.level === 'MUST' ? 'fail' : 'warn', reason: `${failed.scenario}: ${failed.reason}`, findings };
    if (passed.length > 0) return { requirement, verdict: 'pass', reason: passed.map((f) => `${f.scenario}: ${f.reason}`).join('; '), findings };
    const why = findings.map((f) => `${f.scenario}: ${f.reason}`).join('; ');
    return { requirement, verdict: 'not-run', reason: why === '' ? 'no scenario ran' : why, findings };
  });
}
