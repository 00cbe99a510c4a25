import type { Report } from '../report-model.ts';
import { jsonText } from '../../model/json-text.ts';

const INDENT = 2;

/** A value as JSON.stringify(…, 2) writes it `depth` levels down: every line after the first indented. */
function nested(value: unknown, depth: number): string {
  // JSON escapes every newline inside a string, so each newline of the text is one of its own.
  return value === undefined ? 'null' : jsonText(value, INDENT).replace(/\n/g, `\n${' '.repeat(depth * INDENT)}`);
}

/**
 * report.json in pieces (a top-level field each, and each element of a top-level list), byte for
 * byte what JSON.stringify(report, undefined, 2) writes, invisible format characters escaped. A
 * report holding much evidence is written without ever being one string: the copies each step
 * makes of a whole file (escaping, local paths, the secret guard) stay the size of one result.
 */
export function* reportJsonPieces(report: Report): Generator<string> {
  const fields = Object.entries(report).filter(([, v]) => v !== undefined && typeof v !== 'function' && typeof v !== 'symbol');
  if (fields.length === 0) {
    yield '{}\n';
    return;
  }
  yield '{';
  for (const [i, [key, value]] of fields.entries()) {
    yield `${i === 0 ? '' : ','}\n${' '.repeat(INDENT)}${jsonText(key)}: `;
    if (!Array.isArray(value) || value.length === 0) {
      yield nested(value, 1);
      continue;
    }
    yield '[';
    for (const [j, item] of value.entries()) yield `${j === 0 ? '' : ','}\n${' '.repeat(2 * INDENT)}${nested(item, 2)}`;
    yield `\n${' '.repeat(INDENT)}]`;
  }
  yield '\n}\n';
}

/** report.json: the Report as it is (invisible format characters escaped), described by lib/report/report.schema.json. */
export function reportJson(report: Report): string {
  return [...reportJsonPieces(report)].join('');
}
