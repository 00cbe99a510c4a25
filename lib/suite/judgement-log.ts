import { appendFileSync } from 'node:fs';
import { recordJudgements } from '../checks/judged.ts';
import { JudgementEncoder } from '../judgement/codec.ts';
import type { CallLine, JudgementLine } from '../judgement/judgement-line.ts';
import { jsonText } from '../model/json-text.ts';

let current: string | undefined;

/** The test whose body runs now (judgements record it for a reader). */
export function judgingFor(test: string | undefined): void {
  current = test;
}

/**
 * Records every judgement the worker makes into `file`, a JSON line each: the checker, its inputs
 * and its output, as lib/judgement/codec.ts encodes them. Not redacted again: a checker's inputs
 * are recorded exchanges, redacted as they were recorded, and what it derives from them; the
 * bundle's secret guard reads the file as every other before it is written.
 */
export function startJudgementLog(file: string): void {
  let n = 0;
  const write = (line: JudgementLine): void => appendFileSync(file, `${jsonText(line)}\n`);
  const encoder = new JudgementEncoder((value, data) => write({ value, data }));
  recordJudgements({
    record(checker, args, output) {
      const id = `j${++n}`;
      encoder.opaque = false;
      const line: CallLine = { judgement: id, checker, args: args.map((a) => encoder.encode(a)), output: encoder.encode(output) };
      if (current !== undefined) line.test = current;
      if (encoder.opaque) line.opaque = true;
      write(line);
      return id;
    },
  });
}
