import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Vitest's global setup: every temporary file of a self-test run, the tests' own and those of the
 * CLIs, servers and packers they start, goes under one folder, removed when the run ends. Tests
 * that stop a process mid-run (interrupts, hung targets, time limits) cannot tidy up after it, and
 * a few hundred folders a run piled up in the system's temporary folder.
 */
export default function setup(): () => void {
  const root = mkdtempSync(join(tmpdir(), 'asi-selftest-'));
  // Like /tmp: a test runs the CLI as another user (test/e2e/cli-usage.test.ts), which writes here too.
  chmodSync(root, 0o1777);
  // Workers and every process they start inherit it: os.tmpdir() reads TMPDIR.
  process.env['TMPDIR'] = root;
  return () => rmSync(root, { recursive: true, force: true, maxRetries: 3 });
}
