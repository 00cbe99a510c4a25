import { isJudgementLine, rederiveVerdicts } from '../judgement/rederive.ts';
import type { JudgementLine } from '../judgement/judgement-line.ts';
import { EXCHANGES_RECORD, JUDGEMENTS_RECORD } from './bundle-layout.ts';
import { REPORT_NAME, bundledReport, exchangeRecord } from './bundled-report.ts';
import type { OpenedBundle } from './open-bundle.ts';
import type { StepResult, VerifyProblem } from './verify-problem.ts';

/**
 * The checkers run again on what they were given: every judgement of the run (record/judgements.jsonl)
 * re-run with the same pure checker on the recorded exchanges, the run-wide rules over the whole
 * record, and every finding of report.json traced to the judgement that gave it.
 */
export function judgementRederivation(bundle: OpenedBundle): StepResult {
  const read = bundledReport(bundle);
  if ('problem' in read) return { checked: 'judgements not re-run: report.json cannot be read', problems: [] };
  const exchanges = exchangeRecord(bundle);
  const lines = bundle.recordLines(JUDGEMENTS_RECORD);
  if (exchanges === undefined || lines === undefined) {
    const missing = exchanges === undefined ? EXCHANGES_RECORD : JUDGEMENTS_RECORD;
    return { checked: 'judgements not re-run', problems: [{ file: missing, message: `is missing: the verdicts cannot be derived again from the checkers' inputs` }] };
  }
  const problems: VerifyProblem[] = [];
  const judgements: JudgementLine[] = [];
  for (const l of lines) {
    if (isJudgementLine(l.value)) judgements.push(l.value);
    else problems.push({ file: JUDGEMENTS_RECORD, message: `line ${l.line} is not a judgement${l.error === undefined ? '' : ` (${l.error})`}` });
  }
  const r = rederiveVerdicts({ exchanges: [...exchanges.bySeq.values()], judgements }, read.report);
  for (const p of r.problems) {
    problems.push({ file: p.requirement === undefined ? JUDGEMENTS_RECORD : REPORT_NAME, ...(p.requirement === undefined ? {} : { requirement: p.requirement }), message: p.message });
  }
  for (const u of r.unverifiable) problems.push({ file: JUDGEMENTS_RECORD, message: `judgement ${u}: it cannot be re-run, so the verdicts resting on it are not verified` });
  return {
    checked: `${r.rederived} of ${r.judgements} judgements re-run by their checkers on the recorded exchanges, with the same findings; ${r.findingsTraced} findings of the report traced to them`,
    problems,
  };
}
