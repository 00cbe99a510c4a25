import { clientRequirements, type ClientRequirement } from '../catalogue/client.ts';
import { judgeBearerOnly } from '../checks/client-bearer.ts';
import { judgeCursorVerbatim } from '../checks/client-cursor.ts';
import { judgeNoRetryPermanent } from '../checks/client-permanent.ts';
import { judgeBackoffMultiplier, judgeRetryAfterHonoured, judgeSameRequestAfter429 } from '../checks/client-rate-limited.ts';
import { judgePollCadence } from '../checks/client-poll.ts';
import { judgeSlowDown } from '../checks/client-slow-down.ts';
import { judgeStreamFinalState } from '../checks/client-stream.ts';
import { timeline, type ClientJudgement, type ClientVerdict, type TracedRequest } from '../checks/client-trace.ts';
import { judgeTransientBackoff } from '../checks/client-transient.ts';
import { judgeNoMatchOnWording } from '../checks/client-wording.ts';

export interface ScenarioTrace {
  /** The scenario's name, with the run's label after a slash when it runs more than once (`streams/crlf`). */
  scenario: string;
  trace: readonly TracedRequest[];
  /** What the client wrote to its result file, when it wrote one. */
  result?: string;
}

/** Every rule judges every scenario's trace: a scenario only makes some rules' triggers likely. */
const CHECKERS: readonly ((run: ScenarioTrace) => ClientJudgement)[] = [
  ({ trace }) => judgeCursorVerbatim(trace),
  ({ trace }) => judgeRetryAfterHonoured(trace),
  ({ trace }) => judgeSameRequestAfter429(trace),
  ({ trace }) => judgeBackoffMultiplier(trace),
  ({ trace }) => judgeNoRetryPermanent(trace),
  ({ trace }) => judgeBearerOnly(trace),
  ({ trace }) => judgeTransientBackoff(trace),
  ({ trace }) => judgePollCadence(trace),
  ({ trace }) => judgeSlowDown(trace),
  ({ trace, result }) => judgeStreamFinalState(trace, result),
];

/** The two runs of the wording scenario, judged together (the finding goes to the second). */
function wordingJudgements(traces: readonly ScenarioTrace[]): { run: ScenarioTrace; judgement: ClientJudgement }[] {
  const first = traces.find((t) => t.scenario === 'wording/first');
  const second = traces.find((t) => t.scenario === 'wording/second');
  if (first === undefined || second === undefined) return [];
  return [{ run: second, judgement: judgeNoMatchOnWording(first.trace, second.trace) }];
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
  const judged = [...traces.flatMap((run) => CHECKERS.map((check) => ({ run, judgement: check(run) }))), ...wordingJudgements(traces)];
  const all = judged.map(({ run: { scenario, trace }, judgement: j }) => ({
    id: j.requirement,
    finding: { scenario, verdict: j.verdict, reason: j.reason, timeline: j.verdict === 'fail' ? timeline(trace, j.at) : [], ...(j.at === undefined ? {} : { at: j.at }) },
  }));
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
