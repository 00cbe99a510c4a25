import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { ROOT } from '../support/cli.ts';

/**
 * bench/mutation/mutate.mjs (`npm run mutate`): its arguments, its sample plan and its report, on a
 * made-up result set. No mutant runs here: a real run is hours of harness runs.
 */

const SCRIPT = join(ROOT, 'bench', 'mutation', 'mutate.mjs');
const TIMEOUT_MS = 60_000;

function mutate(args: string[], cwd = ROOT): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [SCRIPT, ...args], { cwd, timeout: TIMEOUT_MS }, (err, stdout, stderr) => {
      const code = err === null ? 0 : typeof err.code === 'number' ? err.code : -1;
      resolve({ code, stdout, stderr });
    });
  });
}

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('arguments', () => {
  test.each([
    [['--sample', '2'], '--sample 2: expected a share above 0 and at most 1'],
    [['--sample', '0.1', '--lines', '3'], '--sample and --lines: give one of them'],
    [['--lines', '0'], '--lines 0: expected a whole number of at least 1'],
    [['--seed', 'x'], '--seed x: expected a whole number'],
    [['--frobnicate'], "Unknown option '--frobnicate'"],
    [['--file', 'no-such-file', '--plan'], '--file no-such-file: no file under lib/reference matches'],
  ])('%j is a usage error in one line (exit 2)', async (args, words) => {
    const r = await mutate(args);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(words);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  }, TIMEOUT_MS);
});

describe('the sample plan', () => {
  test('a seed names one sample of behaviour lines, never the switches', async () => {
    const [a, b, c] = await Promise.all([mutate(['--lines', '8', '--seed', '3', '--plan']), mutate(['--lines', '8', '--seed', '3', '--plan']), mutate(['--lines', '8', '--seed', '4', '--plan'])]);
    expect(a.code).toBe(0);
    expect(a.stdout).toBe(b.stdout);
    const plan = JSON.parse(a.stdout) as { chosenLines: number; totalLines: number; mutate: string[] };
    expect(plan.chosenLines).toBe(8);
    expect(plan.totalLines).toBeGreaterThan(plan.chosenLines);
    for (const entry of plan.mutate) {
      expect(entry).toMatch(/^lib\/reference\/[a-z-]+\.ts:(\d+)-\1$/);
      expect(entry).not.toMatch(/defects\/|switches\.ts|admin-routes\.ts/);
    }
    expect(JSON.parse(c.stdout).mutate).not.toEqual(plan.mutate);
  }, TIMEOUT_MS);

  test('--file limits the lines to the files it names, --sample to a share of them', async () => {
    const r = await mutate(['--file', 'rate-limiter', '--sample', '0.5', '--plan']);
    expect(r.code).toBe(0);
    const plan = JSON.parse(r.stdout) as { chosenLines: number; totalLines: number; mutate: string[] };
    expect(plan.chosenLines).toBe(Math.round(plan.totalLines * 0.5));
    for (const entry of plan.mutate) expect(entry.startsWith('lib/reference/rate-limiter.ts:')).toBe(true);
  }, TIMEOUT_MS);

  test('--count says how many mutants the files have and how many are left out as switch-only', async () => {
    const r = await mutate(['--file', 'served-openapi', '--count']);
    expect(r.code).toBe(0);
    const m = /^mutants of 1 files: (\d+); left out as switch-only: (\d+); to run: (\d+)$/.exec(r.stdout.trim());
    expect(m).not.toBeNull();
    const [total, ignored, run] = m!.slice(1).map(Number) as [number, number, number];
    // served-openapi.ts has defect-only edits of the document (ledgerParameter and its callers).
    expect(ignored).toBeGreaterThan(0);
    expect(total).toBe(ignored + run);
  }, TIMEOUT_MS);
});

describe('the report', () => {
  const source = ['export function within(n: number, max: number): boolean {', '  return n < max;', '}', ''].join('\n');
  const fake = {
    schemaVersion: '2',
    thresholds: { high: 80, low: 60 },
    files: {
      'lib/reference/ledger-query.ts': {
        language: 'typescript',
        source,
        mutants: [
          { id: '1', mutatorName: 'EqualityOperator', replacement: 'n <= max', status: 'Survived', location: { start: { line: 2, column: 10 }, end: { line: 2, column: 17 } } },
          { id: '2', mutatorName: 'BooleanLiteral', replacement: 'true', status: 'Killed', location: { start: { line: 2, column: 10 }, end: { line: 2, column: 17 } } },
        ],
      },
      'lib/reference/rate-limiter.ts': {
        language: 'typescript',
        source,
        mutants: [
          { id: '3', mutatorName: 'BlockStatement', replacement: '{}', status: 'Timeout', location: { start: { line: 1, column: 59 }, end: { line: 3, column: 2 } } },
          { id: '4', mutatorName: 'ConditionalExpression', replacement: 'false', status: 'NoCoverage', location: { start: { line: 2, column: 10 }, end: { line: 2, column: 17 } } },
          // Past the time budget: Stryker saw exit 0 (survived), the record says it did not run.
          { id: '5', mutatorName: 'ConditionalExpression', replacement: 'true', status: 'Survived', location: { start: { line: 2, column: 10 }, end: { line: 2, column: 17 } } },
        ],
      },
    },
  };
  const records = [
    { mutant: '', exitCode: 0, failed: [], ms: 10_000 },
    { mutant: '1', exitCode: 0, failed: [], ms: 12_000 },
    { mutant: '2', exitCode: 1, failed: ['ledger/4.1/walk-complete'], ms: 14_000 },
    { mutant: '5', notRun: true },
  ];

  test('counts per file and per section, names the killing requirements, shows each survivor', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'asi-mutate-report-'));
    dirs.push(dir);
    writeFileSync(join(dir, 'mutation.json'), JSON.stringify(fake));
    // The last line is what a mutant killed on timeout leaves: cut short, skipped.
    writeFileSync(join(dir, 'records.jsonl'), `${records.map((r) => JSON.stringify(r)).join('\n')}\n{"mutant":"3","exi`);
    writeFileSync(join(dir, 'meta.json'), JSON.stringify({ seed: 9, totalLines: 100, chosenLines: 5, wallMs: 120_000 }));
    const r = await mutate(['--report', dir]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('mutants 5: killed 1, survived 1, timed out 1, not covered 1, errors 0, not run 1; score 50.0%');
    const summary = JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8'));
    expect(summary.perSection['§4.1 ledger']).toMatchObject({ total: 2, killed: 1, survived: 1, score: '50.0%' });
    expect(summary.perSection['§8.1 rate limits']).toMatchObject({ total: 3, timedOut: 1, noCoverage: 1, notRun: 1, score: '50.0%' });
    expect(summary.perFile['lib/reference/rate-limiter.ts']).toMatchObject({ total: 3, timedOut: 1, notRun: 1 });
    expect(summary.killedBy).toEqual({ 'ledger/4.1/walk-complete': 1 });
    expect(summary.sample).toMatchObject({ chosenLines: 5, totalLines: 100, seed: 9 });
    expect(summary.meanMsPerMutant).toBe(13_000);
    expect(summary.survivors).toEqual([
      { id: '1', file: 'lib/reference/ledger-query.ts', line: 2, section: '§4.1 ledger', mutator: 'EqualityOperator', diff: '@@ -2,1 +2,1 @@\n-  return n < max;\n+  return n <= max;' },
    ]);
    const md = readFileSync(join(dir, 'report.md'), 'utf8');
    expect(md).toContain('### #1 lib/reference/ledger-query.ts:2 (§4.1 ledger, EqualityOperator)');
    expect(md).toContain('+  return n <= max;');
    expect(md).toContain('Sample: 5 of 100 mutable lines (5.0%), seed 9');
  }, TIMEOUT_MS);

  test('--budget-min takes whole minutes', async () => {
    const r = await mutate(['--budget-min', '0']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--budget-min 0: expected a whole number of at least 1');
  }, TIMEOUT_MS);

  test('a folder without mutation.json is a usage error', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'asi-mutate-report-'));
    dirs.push(dir);
    const r = await mutate(['--report', dir]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('no mutation.json there');
  }, TIMEOUT_MS);
});
