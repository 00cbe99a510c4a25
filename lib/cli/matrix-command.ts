import { mkdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { BUNDLE_FILE_NAME } from '../certification/bundle-layout.ts';
import { loadPublicKey, loadSigningKey } from '../certification/signing-key.ts';
import { UsageError } from '../errors.ts';
import { findBundles } from '../matrix/find-bundles.ts';
import { bundleColumn, type NamedPublicKey } from '../matrix/matrix-columns.ts';
import { buildMatrix, type ColumnInput } from '../matrix/matrix-model.ts';
import { planMatrix } from '../matrix/matrix-plan.ts';
import { matrixSummary, mergeVerifiedLine } from '../matrix/matrix-text.ts';
import { runTargets, type TargetRun } from '../matrix/run-targets.ts';
import { loadTargetsFile } from '../matrix/targets-file.ts';
import { writeMatrix } from '../matrix/write-matrix.ts';
import { PACKAGE_ROOT } from '../package-root.ts';
import { newRunId } from '../runner/certify.ts';
import { checkWritableFolder } from '../user-file.ts';
import { consolePath } from './console-path.ts';
import { MATRIX_HELP } from './help.ts';
import { integerOption, parseOptions } from './parse-options.ts';

function tool(): { name: string; version: string } {
  const pkg = JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { name: string; version: string };
  return { name: pkg.name, version: pkg.version };
}

/** A new matrix folder below the parent, named like a run's: `matrix-<time>-<4 hex>`. */
function matrixFolder(command: string, parent: string): string {
  checkWritableFolder(parent, (message) => new UsageError(`${command}: --out ${JSON.stringify(parent)} ${message}`));
  const dir = resolve(parent, `matrix-${newRunId()}`);
  try {
    mkdirSync(dir, { recursive: true });
  } catch (err) {
    throw new UsageError(`${command}: --out ${parent}: cannot create ${dir} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
  return dir;
}

function publicKeys(files: readonly string[]): NamedPublicKey[] {
  return files.map((file) => ({ ...loadPublicKey(file), file }));
}

/** The columns of a matrix's own runs: each verified from its bundle, or saying why it has none. */
async function runColumns(runs: readonly TargetRun[], dir: string, keys: readonly NamedPublicKey[]): Promise<ColumnInput[]> {
  const inputs: ColumnInput[] = [];
  for (const run of runs) {
    const { name } = run.target;
    if (run.runDir !== undefined) {
      inputs.push(await bundleColumn(join(run.runDir, BUNDLE_FILE_NAME), { id: name, name, matrixDir: dir, evidence: 'in-place', publicKeys: keys }));
    } else {
      const reason = run.started ? (run.error ?? 'the run wrote no report') : 'the matrix was interrupted before this target started';
      inputs.push({ column: { id: name, name, state: run.started ? 'no-report' : 'not-started', reason } });
    }
  }
  return inputs;
}

const HELP_OPTION = { help: { type: 'boolean', short: 'h' } } as const;

/** `asi-conformance matrix FILE`: certifies every target of the file, side by side, and writes the page. */
async function matrixRun(args: string[]): Promise<number> {
  const { values, positionals } = parseOptions(
    'matrix',
    args,
    { out: { type: 'string' }, concurrency: { type: 'string' }, seed: { type: 'string' }, ...HELP_OPTION },
    true,
  );
  if (values.help === true) {
    process.stdout.write(`${MATRIX_HELP}\n`);
    return 0;
  }
  if (positionals.length !== 1) throw new UsageError(`matrix: expected one targets file (or 'matrix merge DIR...'), got ${positionals.length}; see 'asi-conformance matrix --help'`);
  const file = positionals[0]!;
  const concurrency = integerOption('matrix', 'concurrency', values.concurrency, 1, 16);
  const seed = integerOption('matrix', 'seed', values.seed, -2147483648, 2147483647);
  const parsed = loadTargetsFile(file);
  const plan = planMatrix(file, parsed, {
    env: process.env,
    ...(values.out === undefined ? {} : { out: values.out }),
    ...(concurrency === undefined ? {} : { concurrency }),
    ...(seed === undefined ? {} : { seed }),
  });
  // A run that signs its bundle is checked against the public half of the same key.
  const keys: NamedPublicKey[] = [];
  if (plan.signKey !== undefined) {
    const key = loadSigningKey(plan.signKey);
    keys.push({ key: key.publicKey, keyid: key.keyid, file: plan.signKey });
  }
  const dir = matrixFolder('matrix', plan.outParent);
  const say = (line: string): void => void process.stderr.write(`${line}\n`);
  const n = plan.targets.length;
  say(`matrix: ${n} target${n === 1 ? '' : 's'}, ${Math.min(plan.concurrency, n)} at a time, into ${consolePath(dir)}/`);
  const { runs, interrupted } = await runTargets(plan.targets, { dir, concurrency: plan.concurrency, say });
  const inputs = await runColumns(runs, dir, keys);
  const { matrix } = writeMatrix(buildMatrix(inputs, { source: 'runs', tool: tool(), generatedAt: new Date(), ...(interrupted === undefined ? {} : { interrupted }) }), dir);
  process.stdout.write(`${matrixSummary(matrix, consolePath(dir))}\n`);
  return matrix.exitCode;
}

/** `asi-conformance matrix merge PATH...`: the same page from bundles made elsewhere, each verified here. */
async function matrixMerge(args: string[]): Promise<number> {
  const { values, positionals } = parseOptions('matrix merge', args, { out: { type: 'string' }, 'public-key': { type: 'string', multiple: true }, ...HELP_OPTION }, true);
  if (values.help === true) {
    process.stdout.write(`${MATRIX_HELP}\n`);
    return 0;
  }
  if (positionals.length === 0) throw new UsageError("matrix merge: expected the folders (or files) that hold the bundles; see 'asi-conformance matrix --help'");
  const keys = publicKeys(values['public-key'] ?? []);
  const sources = findBundles(positionals);
  const dir = matrixFolder('matrix merge', values.out ?? 'reports');
  process.stderr.write(`matrix merge: ${sources.length} bundle${sources.length === 1 ? '' : 's'} found, verifying each, into ${consolePath(dir)}/\n`);
  const taken = new Set<string>();
  const inputs: ColumnInput[] = [];
  for (const source of sources) inputs.push(await bundleColumn(source, { taken, matrixDir: dir, evidence: 'copy', publicKeys: keys }));
  const { matrix } = writeMatrix(buildMatrix(inputs, { source: 'bundles', tool: tool(), generatedAt: new Date() }), dir);
  process.stderr.write(`${mergeVerifiedLine(inputs.map((input, i) => ({ column: input.column, source: consolePath(resolve(sources[i]!)) })))}\n`);
  process.stdout.write(`${matrixSummary(matrix, consolePath(dir))}\n`);
  return matrix.exitCode;
}

/**
 * Many implementations on one page. `matrix FILE` certifies each target of a targets file in its
 * own run process; `matrix merge PATH...` takes the bundles of runs made elsewhere (CI jobs on many
 * machines). Both verify every bundle and write matrix.html and matrix.json. Exit 0 every column
 * conformant (or partial without failures), 1 a column not conformant or a bundle that does not
 * verify, 3 a column incomplete or without a report (or an interrupt), 2 usage.
 */
export async function matrixCommand(args: string[]): Promise<number> {
  if (args[0] === 'merge') return matrixMerge(args.slice(1));
  return matrixRun(args);
}
