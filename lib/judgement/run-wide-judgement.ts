import { appendFileSync } from 'node:fs';
import type { RecordContext } from '../invariants/exchange-facts.ts';
import type { Finding } from '../model/finding.ts';
import { JudgementEncoder } from './codec.ts';
import { RUN_WIDE_JUDGEMENT, type JudgementLine } from './judgement-line.ts';
import { jsonText } from '../model/json-text.ts';

/**
 * Records the run-wide rules' judgement of the whole record (lib/invariants/): the context and the
 * requirements it judged, and its findings, which then cite it. Offline verification re-runs the
 * rules over the recorded exchanges, in the order the record holds them.
 */
export function recordRunWideJudgement(file: string, context: RecordContext, requirements: readonly string[], findings: Finding[]): void {
  // Not redacted again, as the worker's judgements are not (lib/suite/judgement-log.ts): the rules read recorded exchanges only.
  const write = (line: JudgementLine): void => appendFileSync(file, `${jsonText(line)}\n`);
  const encoder = new JudgementEncoder((value, data) => write({ value, data }));
  write({ judgement: RUN_WIDE_JUDGEMENT, checker: RUN_WIDE_JUDGEMENT, args: [encoder.encode(context), encoder.encode(requirements)], output: encoder.encode(findings) });
  findings.forEach((f, index) => {
    f.judgement = { id: RUN_WIDE_JUDGEMENT, index };
  });
}
