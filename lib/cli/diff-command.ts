import { UsageError } from '../errors.ts';
import { diffLines, diffReports, loadReportFile } from '../report/baseline-diff.ts';
import { consoleText } from '../report/console-text.ts';
import { DIFF_HELP } from './help.ts';
import { parseOptions } from './parse-options.ts';
import { jsonText } from '../model/json-text.ts';

/**
 * Compares two report.json files, baseline first: new failures, fixed, still failing, ids added
 * or removed between harness versions, and error codes or fields that went away. Exits 1 only on
 * a regression, so it gates a release against the last one.
 */
export async function diffCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseOptions('diff', args, { json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } }, true);
  if (values.help === true) {
    process.stdout.write(`${DIFF_HELP}\n`);
    return 0;
  }
  if (positionals.length !== 2) throw new UsageError(`diff: expected two report.json files (baseline, then new), got ${positionals.length}; see 'asi-conformance diff --help'`);
  const [beforeFile, afterFile] = positionals as [string, string];
  const diff = diffReports(loadReportFile(beforeFile), loadReportFile(afterFile));
  const exitCode = diff.regressed ? 1 : 0;
  const lines = [...diffLines(diff), `exit ${exitCode}: ${diff.regressed ? 'a regression' : 'no regression (only a regression fails a diff)'}`];
  process.stdout.write(values.json === true ? `${jsonText(diff, 2)}\n` : `${lines.map(consoleText).join('\n')}\n`);
  return exitCode;
}
