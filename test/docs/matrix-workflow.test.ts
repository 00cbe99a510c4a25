import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { parse } from 'yaml';
import { MATRIX_HELP, RUN_HELP } from '../../lib/cli/help.ts';
import { planMatrix } from '../../lib/matrix/matrix-plan.ts';
import { loadTargetsFile, TARGETS_SCHEMA_FILE } from '../../lib/matrix/targets-file.ts';
import { ROOT } from '../support/cli.ts';
import { actionlint, schemaCheck, type Step } from '../support/github-actions.ts';

const doc = readFileSync(join(ROOT, 'docs', 'ci', 'matrix.md'), 'utf8');
const example = readFileSync(join(ROOT, 'examples', 'github-actions-matrix.yml'), 'utf8');

interface Job {
  needs?: string | string[];
  if?: string;
  strategy?: { 'fail-fast'?: boolean; matrix: { include: Array<Record<string, string>> } };
  steps: Step[];
}
interface Workflow {
  jobs: Record<string, Job>;
}

const workflow = parse(example) as Workflow;
const certify = workflow.jobs['certify']!;
const page = workflow.jobs['matrix']!;
const run = certify.steps.find((s) => s.run?.includes('asi-conformance run'))!;
const merge = page.steps.find((s) => s.run?.includes('asi-conformance matrix merge'))!;

describe('the matrix workflow of docs/ci/matrix.md', () => {
  test('in the doc is the example file, word for word', () => {
    const block = /## The workflow\n\n```yaml\n([\s\S]*?)```\n/.exec(doc)?.[1];
    expect(block).toBe(example);
  });

  test('certifies each target in a job of its own, with that target\'s tokens only, and uploads its run whatever the verdict', () => {
    expect(certify.strategy?.['fail-fast']).toBe(false);
    const targets = certify.strategy!.matrix.include;
    expect(targets.map((t) => t['target'])).toEqual(['acme', 'globex', 'reference']);
    for (const t of targets) expect(Object.keys(t).sort()).toEqual(['profile', 'secrets', 'target']);
    expect(run.run).toBe('exec ./node_modules/.bin/asi-conformance run ${PROFILE:+--config "$PROFILE"} --out reports');
    expect(run.env?.['PROFILE']).toBe('${{ matrix.profile }}');
    for (const [variable, suffix] of [['ASI_TOKEN', ''], ['ASI_TOKEN_2', '_2'], ['ASI_TOKEN_WS2', '_WS2'], ['ASI_TOKEN_REVOKED', '_REVOKED'], ['ASI_TOKEN_EXPIRED', '_EXPIRED']]) {
      expect(run.env?.[variable!]).toBe(`\${{ secrets[format('{0}_TOKEN${suffix}', matrix.secrets)] }}`);
    }
    const upload = certify.steps[certify.steps.indexOf(run) + 1]!;
    expect(upload).toMatchObject({ if: 'always()', uses: 'actions/upload-artifact@v6', with: { name: 'asi-run-${{ matrix.target }}', path: 'reports/' } });
  });

  test.each([
    ['a profile', 'asi/acme.yaml', ['--config', 'asi/acme.yaml', '--out', 'reports']],
    ['a profile whose path has a space', 'asi/acme corp.yaml', ['--config', 'asi/acme corp.yaml', '--out', 'reports']],
    ['no profile (the embedded reference)', '', ['--out', 'reports']],
  ])('the run line with %s gives run the arguments meant', (_what, profile, args) => {
    const script = run.run!.replace('./node_modules/.bin/asi-conformance run', "printf '%s\\n'");
    const r = spawnSync('bash', ['-c', script], { env: { PATH: process.env['PATH'], PROFILE: profile }, encoding: 'utf8' });
    expect(r.stdout.trim().split('\n')).toEqual(args);
  });

  test('puts every bundle on one page after the certify jobs, failed ones included, and uploads the page whatever its verdict', () => {
    expect(page.needs).toBe('certify');
    expect(page.if).toBe('${{ !cancelled() }}');
    const download = page.steps.find((s) => s.uses?.startsWith('actions/download-artifact@'))!;
    expect(download.with).toEqual({ pattern: 'asi-run-*', path: 'artifacts' });
    expect(page.steps.indexOf(download)).toBeLessThan(page.steps.indexOf(merge));
    expect(page.steps.find((s) => s.run === 'npm ci')).toBeDefined();
    expect(merge.run).toBe('set -o pipefail\n./node_modules/.bin/asi-conformance matrix merge artifacts --out matrix | tee matrix.txt\n');
    const upload = page.steps.find((s) => s.uses?.startsWith('actions/upload-artifact@'))!;
    expect(upload).toMatchObject({ if: 'always()', with: { name: 'asi-matrix', path: 'matrix/' } });
    const summary = page.steps.find((s) => s.run?.includes('GITHUB_STEP_SUMMARY'))!;
    expect(summary.if).toBe('always()');
  });

  test('every flag the doc gives run and matrix is one the CLI knows', () => {
    // A command continued on the next line (`\` at the end, in a comment too) is one line here.
    const lines = doc.replace(/\\\n\s*#?/g, ' ').split('\n');
    const flagsAfter = (command: string): Set<string> =>
      new Set(lines.flatMap((l) => (l.includes(command) ? (l.slice(l.indexOf(command)).match(/(?<=[\s+])--[a-z][a-z-]*/g) ?? []) : [])));
    const run = flagsAfter('asi-conformance run');
    const matrix = flagsAfter('asi-conformance matrix');
    expect([...run]).toEqual(expect.arrayContaining(['--config', '--out', '--sign-key']));
    expect([...matrix]).toEqual(expect.arrayContaining(['--out', '--public-key']));
    for (const flag of run) expect(RUN_HELP, flag).toMatch(new RegExp(`\\s${flag}\\b`));
    for (const flag of matrix) expect(MATRIX_HELP, flag).toMatch(new RegExp(`\\s${flag}\\b`));
  });

  test('passes actionlint and action-validator', async () => {
    expect(await actionlint(example, 'asi-matrix.yml')).toEqual([]);
    expect(schemaCheck('workflow', example)).toEqual([]);
  });
});

describe('the user guide: Comparing implementations (docs/guide/matrix.md)', () => {
  const section = readFileSync(join(ROOT, 'docs', 'guide', 'matrix.md'), 'utf8');

  test('its targets file is one the harness takes, and the example file says the same', () => {
    const block = /```yaml\n([\s\S]*?)```/.exec(section)![1]!;
    const dir = mkdtempSync(join(tmpdir(), 'asi-guide-'));
    try {
      writeFileSync(join(dir, 'targets.yaml'), block);
      const fromGuide = planMatrix(join(dir, 'targets.yaml'), loadTargetsFile(join(dir, 'targets.yaml')), { env: {} });
      const example = join(ROOT, 'examples', 'targets.yaml');
      const fromExample = planMatrix(example, loadTargetsFile(example), { env: {} });
      expect(fromGuide.targets.map((t) => t.args)).toEqual(fromExample.targets.map((t) => t.args));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('its table names every key of the targets file', () => {
    const schema = JSON.parse(readFileSync(TARGETS_SCHEMA_FILE, 'utf8')) as { properties: Record<string, unknown>; $defs: { target: { properties: Record<string, unknown> } } };
    const table = section.split('\n').filter((l) => l.startsWith('| `')).map((l) => l.split(' | ')[0]!);
    const named = new Set(table.flatMap((cell) => [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1]!)));
    for (const key of Object.keys(schema.properties)) expect(named.has(key) || named.has(`${key}[]`), key).toBe(true);
    // A run choice (suite, seed, ...) is one row for the top and the target alike.
    for (const key of Object.keys(schema.$defs.target.properties)) expect(named.has(`targets[].${key}`) || named.has(`.${key}`) || key in schema.properties, key).toBe(true);
  });
});
