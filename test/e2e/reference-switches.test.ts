import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, test } from 'vitest';
import { runCli } from '../support/cli.ts';

const work = mkdtempSync(join(tmpdir(), 'asi-switches-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/**
 * `run --defect` and `--variant`: the embedded reference with a switch on, as a matrix's calibration
 * column runs it (test/e2e/matrix.test.ts runs one and reads its label and verdicts).
 */
describe('run --defect and --variant', () => {
  test.concurrent.for([
    [['--defect', 'no-such-defect'], /^asi-conformance: run: unknown defect switch "no-such-defect" \(see asi-conformance serve --list-switches\)$/],
    [['--variant', 'no-such-variant'], /^asi-conformance: run: unknown variant switch "no-such-variant"/],
    [['--defect', 'auth-missing-as-invalid', '--base-url', 'http://127.0.0.1:9/v1'], /^asi-conformance: run: --defect switches the embedded reference; it cannot apply to --base-url/],
    [['--variant', 'ledger-short-pages', '--config', 'config/reference.yaml'], /^asi-conformance: run: --variant switches the embedded reference; it cannot apply to --config/],
  ] as Array<[string[], RegExp]>)('run %j is refused in one line (exit 2)', async ([args, line], { expect }) => {
    const r = await runCli(['run', ...args, '--out', work], { env: { ASI_TOKEN: 'x' } });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr.trim()).toMatch(line);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });
});
