import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { clientRequirements } from '../../lib/catalogue/client.ts';
import { runCli } from '../support/cli.ts';

const CLIENT = ['node', 'examples/reference-client/client.mjs'];
const out = mkdtempSync(join(tmpdir(), 'asi-client-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

interface GradedReport {
  outcome: string;
  verdicts: { requirement: { id: string }; verdict: string; reason: string }[];
}

/** Grades a command; returns the exit code, the console and the report.json it wrote. A full grading starts the client 15 times: the limits are safety nets far above a loaded machine's pace. */
async function grade(command: string[], env: NodeJS.ProcessEnv = {}, flags: string[] = []) {
  const dir = mkdtempSync(join(out, 'run-'));
  const result = await runCli(['client', '--seed', '11', '--out', dir, ...flags, '--', ...command], { env: { ASI_CLIENT_DEFECT: '', ...env }, timeoutMs: 480_000 });
  const [runDir] = readdirSync(dir);
  const reportText = runDir === undefined ? '' : readFileSync(join(dir, runDir, 'report.json'), 'utf8');
  const summary = runDir === undefined ? '' : readFileSync(join(dir, runDir, 'summary.md'), 'utf8');
  const report = JSON.parse(reportText || '{}') as GradedReport;
  const verdict = (id: string) => report.verdicts.find((v) => v.requirement.id === id)?.verdict;
  return { ...result, report, reportText, summary, verdict };
}

/** A token is `<prefix>_live_<hex>`: none may appear in any output. */
const TOKEN = /_live_[0-9a-f]{8,}/;

describe.concurrent('asi-conformance client on the reference client', () => {
  test('clean: every client requirement passes, and no token is printed or recorded', { timeout: 500_000 }, async () => {
    const graded = await grade(CLIENT);
    expect(graded.code, graded.stdout + graded.stderr).toBe(0);
    expect(graded.report.outcome).toBe('conformant');
    for (const r of clientRequirements) expect(graded.verdict(r.id), r.id).toBe('pass');
    for (const text of [graded.stdout, graded.stderr, graded.reportText, graded.summary]) expect(text).not.toMatch(TOKEN);
    expect(graded.reportText).toContain('Bearer $ASI_TOKEN');
  });

  // The scenarios that can trigger the defect's rule, beside those it runs with no harm (each run stays short).
  const FIRST = ['paging', 'rate-limited', 'permanent'];
  test.each([
    ['retry-400', 'client/7/no-retry-permanent', FIRST],
    ['ignore-retry-after', 'client/8.1/retry-after-honoured', FIRST],
    ['alter-retry', 'client/8.1/same-request-after-429', FIRST],
    ['reencode-cursor', 'client/4.1/cursor-verbatim', FIRST],
    ['no-backoff', 'client/8.1/backoff-multiplier', FIRST],
    ['token-in-query', 'client/5/bearer-only', FIRST],
    ['fixed-transient', 'client/7/transient-backoff', ['transient', 'wording']],
    ['match-wording', 'client/7/no-match-on-wording', ['wording', 'permanent']],
    ['fast-poll', 'client/8.1/poll-cadence', ['slow-job']],
    ['no-slow-down', 'client/8.1/slow-down-low-remaining', ['slow-down', 'paging']],
    ['lf-only-sse', 'client/6/stream-final-state', ['streams']],
  ])('defect %s fails exactly %s', { timeout: 500_000 }, async (defect, id, scenarios) => {
    const graded = await grade(CLIENT, { ASI_CLIENT_DEFECT: defect }, scenarios.flatMap((s) => ['--scenario', s]));
    const should = clientRequirements.find((r) => r.id === id)?.level === 'SHOULD';
    // A SHOULD broken warns and leaves the exit code at 0, as in a server run.
    expect(graded.code, graded.stdout + graded.stderr).toBe(should ? 0 : 1);
    // Another rule may go unjudged (a changed retry is no repeat to time), never fail.
    expect(graded.report.verdicts.filter((v) => v.verdict === 'fail' || v.verdict === 'warn').map((v) => [v.requirement.id, v.verdict])).toEqual([[id, should ? 'warn' : 'fail']]);
    // The finding shows the trace around it, with times, and the sentence it breaks.
    expect(graded.stdout).toMatch(/> \+\d+\.\d\d s (GET|POST) /);
    expect(graded.stdout).toContain('-> §');
    expect(graded.stdout + graded.reportText).not.toMatch(TOKEN);
  });

  test('a client that sends its token in other forms (base64 in a Basic header, hex in the query) gets it into no output', { timeout: 500_000 }, async () => {
    const script =
      "const t = process.env.ASI_TOKEN; const b = process.env.ASI_BASE_URL;" +
      " await fetch(b + '/me?k=' + Buffer.from(t).toString('hex'), { headers: { authorization: 'Basic ' + Buffer.from('u:' + t).toString('base64') } });";
    const graded = await grade(['node', '--input-type=module', '-e', script], {}, ['--scenario', 'permanent']);
    const texts = [graded.stdout, graded.stderr, graded.reportText, graded.summary];
    for (const text of texts) expect(text).not.toMatch(TOKEN);
    // Every base64 or hex run of the outputs, decoded, holds no token either.
    const decoded = texts.flatMap((t) => [...t.matchAll(/[A-Za-z0-9+/]{16,}={0,2}/g)].flatMap((m) => [Buffer.from(m[0], 'base64').toString('latin1'), /^[0-9a-f]+$/.test(m[0]) ? Buffer.from(m[0], 'hex').toString('latin1') : '']));
    for (const text of decoded) expect(text).not.toMatch(TOKEN);
    expect(graded.reportText).toContain('Basic ');
  });

  test('a client that sends nothing is not run on every requirement, exit 3', { timeout: 500_000 }, async () => {
    const graded = await grade(['node', '-e', ''], {}, ['--scenario', 'paging']);
    expect(graded.code).toBe(3);
    expect(graded.report.verdicts.map((v) => v.verdict)).toEqual(clientRequirements.map(() => 'not-run'));
  });

  test("a client that never reaches a new scenario's trigger is not run on its requirement, never passed", { timeout: 500_000 }, async () => {
    // One plain read per scenario: no stream asked for, no job created, no pool run low, no error met.
    const script = "await fetch(process.env.ASI_BASE_URL + '/me', { headers: { authorization: 'Bearer ' + process.env.ASI_TOKEN } });";
    const scenarios = ['transient', 'wording', 'slow-job', 'streams', 'slow-down'];
    const graded = await grade(['node', '--input-type=module', '-e', script], {}, scenarios.flatMap((s) => ['--scenario', s]));
    for (const id of ['client/7/transient-backoff', 'client/7/no-match-on-wording', 'client/8.1/poll-cadence', 'client/8.1/slow-down-low-remaining', 'client/6/stream-final-state']) {
      expect(graded.verdict(id), id).toBe('not-run');
    }
    expect(graded.verdict('client/5/bearer-only')).toBe('pass');
  });

  test('--env-prefix renames the variables the command gets', { timeout: 500_000 }, async () => {
    const script = 'if (!process.env.ACME_BASE_URL.endsWith("/v1") || !process.env.ACME_TOKEN || process.env.ACME_SCENARIO !== "paging") process.exit(9)';
    const graded = await grade(['node', '-e', script], {}, ['--scenario', 'paging', '--env-prefix', 'ACME']);
    expect(graded.report.verdicts.length).toBe(clientRequirements.length);
    expect(graded.stdout).toContain('the client exited 0');
  });
});

function hasPython(): boolean {
  try {
    execFileSync('python3', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

test.skipIf(!hasPython())('the Python client passes every scenario it supports (no message turns: slow-job and streams are not run)', { timeout: 500_000 }, async () => {
  const graded = await grade(['python3', 'examples/python-client.py'], {}, ['paging', 'rate-limited', 'permanent', 'transient', 'wording', 'slow-down'].flatMap((s) => ['--scenario', s]));
  expect(graded.code, graded.stdout + graded.stderr).toBe(0);
  expect(graded.report.verdicts.filter((v) => v.verdict !== 'pass').map((v) => v.requirement.id)).toEqual(['client/8.1/poll-cadence', 'client/6/stream-final-state']);
});

test.each([
  [['client'], /no command to grade/],
  [['client', '--scenario', 'pagin', '--', 'true'], /--scenario "pagin" is not a scenario; expected one of paging, rate-limited, permanent, transient, wording, slow-job, streams, slow-down/],
  [['client', '--seed', 'x', '--', 'true'], /--seed expects an integer/],
])('usage: %j exits 2 with one line', async (args, message) => {
  const result = await runCli(args);
  expect(result.code).toBe(2);
  expect(result.stderr.trim().split('\n')).toHaveLength(1);
  expect(result.stderr).toMatch(message);
});
