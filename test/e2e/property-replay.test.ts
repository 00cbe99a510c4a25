import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import type { Report } from '../../lib/report/report-model.ts';
import { runCli } from '../support/cli.ts';
import { referenceTarget, type ReferenceTarget } from '../support/reference-target.ts';

let target: ReferenceTarget | undefined;
afterAll(async () => {
  await target?.close();
});

function readReport(out: string): Report {
  return JSON.parse(readFileSync(join(out, readdirSync(out)[0]!, 'report.json'), 'utf8')) as Report;
}

/** The console's failure block of `id`: from its `× id` line to the next blank line. */
function failureBlock(stdout: string, id: string): string {
  const start = stdout.indexOf(`× ${id} `);
  expect(start, stdout).toBeGreaterThanOrEqual(0);
  const end = stdout.indexOf('\n\n', start);
  return stdout.slice(start, end === -1 ? undefined : end);
}

// The window test checks from-inclusive and to-exclusive with one property, seeded by the first
// id; a defect breaks the second. The printed line must replay the failure of the second.
test('the replay line a property failure prints, run as printed, fails the same requirement with the same counterexample', async () => {
  const id = 'ledger/4.1/to-exclusive';
  target = await referenceTarget({ defects: ['ledger-to-inclusive'] });
  const first = mkdtempSync(join(tmpdir(), 'asi-replay-a-'));
  const provoked = await runCli(['run', '--config', target.profile, '--suite', 'ledger-window', '--out', first, '-q'], { env: target.env });
  expect(provoked.code, provoked.stdout + provoked.stderr).toBe(1);
  const block = failureBlock(provoked.stdout, id);
  // Run in the clone: the replay line starts with the command that runs the harness there.
  const replay = /^ {2}Replay: {3}npx asi-conformance run \.\.\. (.+)$/m.exec(block)?.[1];
  expect(replay, block).toBeDefined();
  expect(replay).toContain(`--only ${id}`);
  const finding = readReport(first).results.find((r) => r.requirement.id === id)!.findings.find((f) => f.verdict === 'fail')!;
  expect(finding.property?.replay).toBe(replay);

  const second = mkdtempSync(join(tmpdir(), 'asi-replay-b-'));
  const replayed = await runCli(['run', '--config', target.profile, ...replay!.split(' '), '--out', second, '-q'], { env: target.env });
  expect(replayed.code, replayed.stdout + replayed.stderr).toBe(1);
  const again = readReport(second).results.find((r) => r.requirement.id === id)!;
  expect(again.verdict).toBe('fail');
  expect(again.findings.find((f) => f.verdict === 'fail')?.property?.counterexample).toBe(finding.property?.counterexample);
  // Two runs: a safety net far above a loaded machine's pace.
}, 120_000);
