import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import type { Report } from '../../lib/report/report-model.ts';
import { runCli } from '../support/cli.ts';

const work = mkdtempSync(join(tmpdir(), 'asi-switches-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** `run --defect` and `--variant`: the embedded reference with a switch on, as a matrix's calibration column runs it. */
describe('run --defect and --variant', () => {
  test('a defect of the embedded reference fails the requirement it breaks, and the label names it', async () => {
    const r = await runCli(['run', '--defect', 'auth-missing-as-invalid', '--only', 'auth/5.3/missing-header', '--out', work, '-q', '--no-bundle']);
    expect(r.code, r.stdout + r.stderr).toBe(1);
    expect(r.stdout).toMatch(/^\s+× fail\s+auth\/5\.3\/missing-header\s+MUST/m);
    const report = JSON.parse(readFileSync(join(work, readdirSync(work)[0]!, 'report.json'), 'utf8')) as Report;
    expect(report.meta.implementation).toEqual({ label: 'asi-conformance reference with defect auth-missing-as-invalid' });
    expect(report.meta.argv).toContain('--defect');
  });

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
