#!/usr/bin/env node
// Mutation testing of the reference implementation (`npm run mutate`, outside `npm test` and CI).
// StrykerJS mutates the reference's behaviour code (lib/reference, not its defect and variant
// switches), builds dist/ once in its sandbox with every mutant switched in, and runs
// bench/mutation/run-mutant.mjs once per mutant (its command runner, the mutant chosen by
// __STRYKER_ACTIVE_MUTANT__). The report (reports/mutation/report.md and summary.json) counts
// mutants killed, survived, timed out and not covered, per file and per spec section, and shows
// each survivor's diff and place.
//
// A full run is hours on 2 cores, so lines are sampled: `--sample F` takes that share of the
// mutable lines (seeded by `--seed N`), `--lines N` that many lines; Stryker then makes every
// mutant on each chosen line. `--file NAME` limits the choice to files whose name contains NAME.
// `--budget-min N` stops running mutants N minutes in (the rest are reported as not run).
// `--count` prints how many mutants the (chosen) files have and how many the switch-only ignorer
// leaves out; `--plan` prints the chosen lines and exits; `--report DIR` rewrites the report from the
// mutation.json and records.jsonl of an earlier run in DIR.
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { countMutants } from './count-mutants.mjs';
import { writeReport } from './report.mjs';
import { switchOnlyIgnorer } from './switch-only-ignorer.mjs';
// The reference's seeded generator (mulberry32), so that a seed names one sample on every machine.
import { seededRandom } from '../../dist/seeded-random.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const REFERENCE = 'lib/reference';
/** Not behaviour: the switches themselves, and the loopback-only fault routes the drills use. */
const EXCLUDED = [/^lib\/reference\/defects\//, /^lib\/reference\/switches\.ts$/, /^lib\/reference\/admin-routes\.ts$/];
const DEFAULT_SEED = 20261128;
const DEFAULT_OUT = 'reports/mutation';

const USAGE = 'usage: npm run mutate -- [--sample F | --lines N] [--seed N] [--file NAME ...] [--budget-min N] [--out DIR] [--count] [--plan] [--report DIR]';

export class UsageError extends Error {}

/** The options of a run, from argv (without node and the script). Throws UsageError with one line. */
export function parseMutateArgs(argv) {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        sample: { type: 'string' },
        lines: { type: 'string' },
        seed: { type: 'string' },
        file: { type: 'string', multiple: true },
        out: { type: 'string' },
        plan: { type: 'boolean' },
        count: { type: 'boolean' },
        report: { type: 'string' },
        'budget-min': { type: 'string' },
        help: { type: 'boolean' },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (err) {
    throw new UsageError(`mutate: ${String(err.message).split('\n')[0]}`);
  }
  if (values.sample !== undefined && values.lines !== undefined) throw new UsageError('mutate: --sample and --lines: give one of them');
  const sample = values.sample === undefined ? undefined : Number(values.sample);
  if (sample !== undefined && !(sample > 0 && sample <= 1)) throw new UsageError(`mutate: --sample ${values.sample}: expected a share above 0 and at most 1 (e.g. 0.05)`);
  const lines = values.lines === undefined ? undefined : integer('--lines', values.lines, 1);
  const seed = values.seed === undefined ? DEFAULT_SEED : integer('--seed', values.seed, 0);
  const budgetMin = values['budget-min'] === undefined ? undefined : integer('--budget-min', values['budget-min'], 1);
  return {
    help: values.help === true,
    budgetMin,
    sample: sample ?? (lines === undefined ? 1 : undefined),
    lines,
    seed,
    files: values.file ?? [],
    out: values.out ?? DEFAULT_OUT,
    plan: values.plan === true,
    count: values.count === true,
    report: values.report,
  };
}

function integer(flag, text, min) {
  if (!/^\d+$/.test(text) || Number(text) < min) throw new UsageError(`mutate: ${flag} ${text}: expected a whole number of at least ${min}`);
  return Number(text);
}

/** The files Stryker may mutate, relative to the project with `/`, sorted. */
export function mutableFiles(root = ROOT) {
  const out = [];
  const walk = (dir) => {
    for (const e of readdirSync(join(root, dir), { withFileTypes: true })) {
      const path = `${dir}/${e.name}`;
      if (e.isDirectory()) walk(path);
      else if (path.endsWith('.ts') && !EXCLUDED.some((x) => x.test(path))) out.push(path);
    }
  };
  walk(REFERENCE);
  return out.sort();
}

/** Lines that can hold a mutant: not blank, not a comment, not an import or a type declaration. */
function codeLines(source) {
  const out = [];
  source.split('\n').forEach((text, i) => {
    const t = text.trim();
    if (t === '' || /^(\/\/|\/\*|\*)/.test(t) || /^(import|export type|type |export interface|interface )/.test(t) || /^[}\])]+[;,]?$/.test(t)) return;
    out.push(i + 1);
  });
  return out;
}

/** The chosen lines, as Stryker `mutate` entries (`file:L-L`), and the share of lines they are. */
export function planSample(options, root = ROOT) {
  const files = mutableFiles(root).filter((f) => options.files.length === 0 || options.files.some((n) => f.includes(n)));
  if (files.length === 0) throw new UsageError(`mutate: --file ${options.files.join(', ')}: no file under ${REFERENCE} matches`);
  const all = files.flatMap((f) => codeLines(readFileSync(join(root, f), 'utf8')).map((line) => ({ file: f, line })));
  const want = options.lines ?? Math.max(1, Math.round(all.length * options.sample));
  const next = seededRandom(options.seed);
  const pool = [...all];
  for (let i = pool.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [pool[i], pool[j]] = [pool[j], pool[i]];
  }
  const chosen = pool.slice(0, Math.min(want, pool.length)).sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line);
  const whole = chosen.length === all.length;
  return {
    files,
    totalLines: all.length,
    chosenLines: chosen.length,
    mutate: whole ? files : chosen.map((c) => `${c.file}:${c.line}-${c.line}`),
  };
}

async function runStryker(options, plan) {
  let Stryker;
  try {
    ({ Stryker } = await import('@stryker-mutator/core'));
  } catch {
    throw new UsageError('mutate: @stryker-mutator/core is not installed; run npm ci first');
  }
  // Relative to the project (where Stryker runs), or absolute as given.
  const out = resolve(ROOT, options.out);
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  const records = join(out, 'records.jsonl');
  process.env.ASI_MUTATE_RECORDS = records;
  const started = Date.now();
  if (options.budgetMin !== undefined) process.env.ASI_MUTATE_STOP_AT = String(started + options.budgetMin * 60_000);
  const stryker = new Stryker({
    testRunner: 'command',
    // Code only a defect or variant switch reaches is left out (bench/mutation/switch-only-ignorer.mjs).
    plugins: ['@stryker-mutator/*', fileURLToPath(new URL('./switch-only-ignorer.mjs', import.meta.url))],
    ignorers: ['switch-only'],
    commandRunner: { command: 'node bench/mutation/run-mutant.mjs' },
    buildCommand: 'node bin/build.mjs',
    mutate: plan.mutate,
    // The sandbox needs lib/, suites/, config/, bin/, the build's inputs and bench/mutation (the
    // command Stryker runs); the rest is weight.
    ignorePatterns: ['/dist', '/reports', '/docs', '/examples', '/bench/*', '!/bench/mutation', '/action', '/docker', '/test', '/.dist-*', '/.vitest-cache'],
    coverageAnalysis: 'off',
    concurrency: 1,
    // Stryker waits 2 x the dry run + this before it calls a mutant timed out (a hang, a loop).
    timeoutMS: 30_000,
    timeoutFactor: 2,
    reporters: ['json', 'progress'],
    jsonReporter: { fileName: join(out, 'mutation.json') },
    tempDirName: '.stryker-tmp',
    cleanTempDir: true,
    logLevel: 'warn',
    fileLogLevel: 'off',
  });
  await stryker.runMutationTest();
  const meta = { seed: options.seed, totalLines: plan.totalLines, chosenLines: plan.chosenLines, wallMs: Date.now() - started, files: options.files };
  writeFileSync(join(out, 'meta.json'), `${JSON.stringify(meta, null, 2)}\n`);
  return out;
}

async function main(argv) {
  const options = parseMutateArgs(argv);
  if (options.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  if (options.report !== undefined) {
    const dir = resolve(options.report);
    if (!existsSync(join(dir, 'mutation.json'))) throw new UsageError(`mutate: --report ${options.report}: no mutation.json there`);
    printSummary(dir);
    return 0;
  }
  const plan = planSample(options);
  if (options.count) {
    const { total, ignored } = await countMutants(ROOT, plan.files, [switchOnlyIgnorer]);
    process.stdout.write(`mutants of ${plan.files.length} files: ${total}; left out as switch-only: ${ignored}; to run: ${total - ignored}\n`);
    return 0;
  }
  if (options.plan) {
    process.stdout.write(`${JSON.stringify({ seed: options.seed, totalLines: plan.totalLines, chosenLines: plan.chosenLines, mutate: plan.mutate }, null, 2)}\n`);
    return 0;
  }
  process.stderr.write(`mutate: ${plan.chosenLines} of ${plan.totalLines} mutable lines (seed ${options.seed})\n`);
  const dir = await runStryker(options, plan);
  printSummary(dir);
  return 0;
}

/** Writes the report of the run in DIR and prints its counts in one line, and where it is. */
function printSummary(dir) {
  const { summary: s } = writeReport(dir, ROOT);
  const counts = `mutants ${s.total}: killed ${s.killed}, survived ${s.survived}, timed out ${s.timedOut}, not covered ${s.noCoverage}, errors ${s.errors}, not run ${s.notRun}; score ${s.score}`;
  process.stdout.write(`${counts}\nreport: ${relative(process.cwd(), join(dir, 'report.md')).split(sep).join('/')}\n`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (err) => {
      process.stderr.write(`${err instanceof UsageError ? err.message : `mutate: ${String(err?.message ?? err).split('\n')[0]}`}\n`);
      process.exit(err instanceof UsageError ? 2 : 3);
    },
  );
}
