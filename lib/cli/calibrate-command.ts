import { writeFileSync } from 'node:fs';
import { calibrateSwitch, type CalibrationResult } from '../calibration/calibrate.ts';
import { SharedSuiteRunner } from '../runner/run-suites.ts';
import { UsageError } from '../errors.ts';
import { checkWritableFile } from '../user-file.ts';
import { DEFECTS, VARIANTS } from '../reference/defects/index.ts';
import type { DefectSwitch, VariantSwitch } from '../reference/switches.ts';
import { CALIBRATE_HELP } from './help.ts';
import { parseOptions } from './parse-options.ts';
import { consoleText } from '../report/console-text.ts';

/** `--shard i/n`: the i-th of n interleaved parts of the switch list, for calibrating in parallel processes. */
function parseShard(value: string | undefined): { index: number; of: number } | undefined {
  if (value === undefined) return undefined;
  const m = /^(\d+)\/(\d+)$/.exec(value);
  const index = Number(m?.[1]);
  const of = Number(m?.[2]);
  if (m === null || of < 1 || index < 1 || index > of) throw new UsageError(`calibrate: --shard expects i/n with 1 <= i <= n, for example 2/3; got ${JSON.stringify(value)}`);
  return { index, of };
}

export async function calibrateCommand(args: string[]): Promise<number> {
  const { values } = parseOptions('calibrate', args, {
    all: { type: 'boolean' },
    defect: { type: 'string', multiple: true },
    variant: { type: 'string', multiple: true },
    json: { type: 'string' },
    shard: { type: 'string' },
    quiet: { type: 'boolean', short: 'q' },
    help: { type: 'boolean', short: 'h' },
  });
  if (values.help === true) {
    process.stdout.write(`${CALIBRATE_HELP}\n`);
    return 0;
  }
  const pick = <T extends { name: string }>(kind: string, all: readonly T[], names: string[]): T[] =>
    names.map((n) => {
      const found = all.find((s) => s.name === n);
      if (found === undefined) throw new UsageError(`calibrate: unknown ${kind} ${JSON.stringify(n)}; see 'asi-conformance serve --list-switches'`);
      return found;
    });
  const named = (values.defect?.length ?? 0) + (values.variant?.length ?? 0) > 0;
  const defects: DefectSwitch[] = values.all === true || !named ? [...DEFECTS] : pick('defect', DEFECTS, values.defect ?? []);
  const variants: VariantSwitch[] = values.all === true || !named ? [...VARIANTS] : pick('variant', VARIANTS, values.variant ?? []);
  const all: Array<['defect', DefectSwitch] | ['variant', VariantSwitch]> = [
    ...defects.map((d) => ['defect', d] as ['defect', DefectSwitch]),
    ...variants.map((v) => ['variant', v] as ['variant', VariantSwitch]),
  ];
  const shard = parseShard(values.shard);
  // Checked before the switches run: the results are written only at the end.
  if (values.json !== undefined) checkWritableFile(values.json, (message) => new UsageError(`calibrate: --json ${JSON.stringify(values.json)} ${message}`));
  // Every n-th switch: the slow rate-limit switches sit together in the list and spread evenly.
  const jobs = shard === undefined ? all : all.filter((_, i) => i % shard.of === shard.index - 1);
  const results: CalibrationResult[] = [];
  const started = Date.now();
  // One vitest instance for every switch of this process: each run still starts its suites afresh.
  const shared = new SharedSuiteRunner();
  try {
  for (const [i, [kind, sw]] of jobs.entries()) {
    const result = await calibrateSwitch(kind, sw, shared);
    results.push(result);
    const mark = result.ok ? '✓' : '×';
    const what = kind === 'defect' ? `fails ${Object.keys(result.verdicts).join(', ')}` : 'passes';
    process.stdout.write(`${mark} [${i + 1}/${jobs.length}] ${kind} ${sw.name} ${result.ok ? what : ''} (${(result.durationMs / 1000).toFixed(1)}s, ${result.requests} requests)\n`);
    // A problem quotes what the switch made the reference answer, which may be any bytes (a defect's garbage).
    if (!result.ok && values.quiet !== true) for (const p of result.problems) process.stdout.write(`      ${consoleText(p)}\n`);
  }
  } finally {
    await shared.close();
  }
  const bad = results.filter((r) => !r.ok);
  process.stdout.write(
    `\n${results.length - bad.length} of ${results.length} switches calibrated in ${((Date.now() - started) / 1000).toFixed(1)}s${bad.length === 0 ? '' : `; not proven: ${bad.map((r) => r.name).join(', ')}`}\n`,
  );
  if (values.json !== undefined) writeFileSync(values.json, JSON.stringify(results, null, 2));
  return bad.length === 0 ? 0 : 1;
}
