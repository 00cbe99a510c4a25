#!/usr/bin/env node
// The command Stryker's command runner starts once per mutant (and once with none, its dry run),
// inside its sandbox: the mutant is chosen by __STRYKER_ACTIVE_MUTANT__, read by the instrumented
// reference in dist/. Two lanes, each against an embedded reference of its own, in parallel:
// - the suites without the rate-limit window, at the spec's limits;
// - the rate-limit suites at short limits (30 reads, 10 writes per 4 s, as calibration runs them).
// Exit 0: both runs conformant, the mutant survived. Exit 1: a requirement failed (SHOULD counts,
// as in calibration). Exit 3: a run was incomplete (inconclusive, cut short, a run error): the
// harness noticed a server it could not judge, so that counts as killed too, and is recorded apart.
// One line of JSON per mutant goes to $ASI_MUTATE_RECORDS (when set), for the report.
import { appendFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL, fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SEED = 20261122;
const FAST = { read: 30, write: 10, windowS: 4 };
// The main lane's ledger has generated rows on top of the seeded ones (as the bench's busy ledgers
// do), so that the code that generates them runs under every mutant too.
export const LANES = [
  { name: 'main', suites: ['openapi', 'unauthenticated', 'auth', 'errors', 'ledger', 'conversation'], ledger: { generatedRows: 2_000 } },
  { name: 'ratelimit', suites: ['ratelimit'], limits: FAST },
];

const load = (path) => import(pathToFileURL(join(ROOT, 'dist', path)).href);

async function runLane(lane) {
  const [{ startReference }, { certify }, { embeddedTarget }, { selectSuiteFiles }] = await Promise.all([
    load('reference/server.js'),
    load('runner/certify.js'),
    load('runner/embedded-target.js'),
    load('runner/suite-files.js'),
  ]);
  const reference = await startReference({ ...(lane.limits === undefined ? {} : { limits: lane.limits }), ...(lane.ledger === undefined ? {} : { ledger: lane.ledger }) });
  const out = mkdtempSync(join(tmpdir(), 'asi-mutant-'));
  try {
    const { report } = await certify({
      target: embeddedTarget(reference),
      embedded: true,
      files: selectSuiteFiles(lane.suites),
      selection: { suites: lane.suites, only: [], skip: [] },
      outDir: out,
      formats: ['json'],
      seed: SEED,
      failOn: 'should',
      replayPaths: {},
      progress: () => {},
      argv: ['mutate', lane.name],
    });
    const failed = report.results.filter((r) => r.verdict === 'fail').map((r) => r.requirement.id);
    const inconclusive = report.results.filter((r) => r.verdict === 'inconclusive').map((r) => r.requirement.id);
    return { lane: lane.name, exitCode: report.exitCode, failed, inconclusive, runErrors: report.runErrors.length };
  } finally {
    await reference.close();
    rmSync(out, { recursive: true, force: true });
  }
}

async function main() {
  const started = Date.now();
  const mutant = process.env.__STRYKER_ACTIVE_MUTANT__ ?? '';
  // Past the run's time budget a mutant is not run: its record says so, and the report counts it
  // apart from the survivors (Stryker, seeing exit 0, calls it survived).
  const stopAt = Number(process.env.ASI_MUTATE_STOP_AT ?? 'NaN');
  if (mutant !== '' && Number.isFinite(stopAt) && Date.now() > stopAt) {
    if (process.env.ASI_MUTATE_RECORDS) appendFileSync(process.env.ASI_MUTATE_RECORDS, `${JSON.stringify({ mutant, notRun: true })}\n`);
    return 0;
  }
  const lanes = await Promise.all(
    LANES.map((lane) => runLane(lane).catch((err) => ({ lane: lane.name, exitCode: 3, failed: [], inconclusive: [], runErrors: 1, error: String(err?.message ?? err).split('\n')[0] }))),
  );
  const failed = lanes.flatMap((l) => l.failed);
  const incomplete = lanes.some((l) => l.exitCode === 3 || l.runErrors > 0 || l.inconclusive.length > 0);
  const exitCode = failed.length > 0 ? 1 : incomplete ? 3 : 0;
  const record = { mutant, exitCode, failed, inconclusive: lanes.flatMap((l) => l.inconclusive), lanes: lanes.map((l) => ({ lane: l.lane, exitCode: l.exitCode, ...(l.error ? { error: l.error } : {}) })), ms: Date.now() - started };
  if (process.env.ASI_MUTATE_RECORDS) appendFileSync(process.env.ASI_MUTATE_RECORDS, `${JSON.stringify(record)}\n`);
  return exitCode;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main().then(
    (code) => process.exit(code),
    (err) => {
      process.stderr.write(`run-mutant: ${String(err?.message ?? err).split('\n')[0]}\n`);
      process.exit(3);
    },
  );
}
