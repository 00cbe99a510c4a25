import { catalogue } from '../catalogue/index.ts';
import { UsageError } from '../errors.ts';
import { LIST_HELP } from './help.ts';
import { parseOptions } from './parse-options.ts';

export async function listCommand(args: string[]): Promise<number> {
  const { values } = parseOptions('list', args, {
    area: { type: 'string' },
    level: { type: 'string' },
    json: { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
  });
  if (values.help === true) {
    process.stdout.write(`${LIST_HELP}\n`);
    return 0;
  }
  const areas = [...new Set(catalogue.map((r) => r.area))];
  if (values.area !== undefined && !areas.includes(values.area as never)) {
    throw new UsageError(`list: --area ${JSON.stringify(values.area)} is not an area; expected one of ${areas.join(', ')}`);
  }
  if (values.level !== undefined && !['MUST', 'SHOULD', 'INFO'].includes(values.level)) {
    throw new UsageError(`list: --level expects MUST, SHOULD or INFO, got ${JSON.stringify(values.level)}`);
  }
  const rows = catalogue.filter((r) => (values.area === undefined || r.area === values.area) && (values.level === undefined || r.level === values.level));
  if (values.json === true) {
    process.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
    return 0;
  }
  let area = '';
  for (const r of rows) {
    if (r.area !== area) {
      area = r.area;
      process.stdout.write(`\n${area}\n`);
    }
    process.stdout.write(`  ${r.id.padEnd(46)} ${r.level.padEnd(6)} §${r.section.padEnd(5)} ${r.statement}\n`);
  }
  process.stdout.write(`\n${rows.length} requirements\n`);
  return 0;
}
