import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { parse } from 'yaml';
import { RUN_HELP } from '../../lib/cli/help.ts';
import { ROOT } from '../support/cli.ts';

const doc = readFileSync(join(ROOT, 'docs', 'ci', 'github-actions.md'), 'utf8');
const example = readFileSync(join(ROOT, 'examples', 'github-actions.yml'), 'utf8');

interface Step {
  name?: string;
  uses?: string;
  run?: string;
  if?: string;
  env?: Record<string, string>;
  with?: Record<string, unknown>;
}
interface Workflow {
  on: Record<string, unknown>;
  jobs: Record<string, { steps: Step[] }>;
}

describe('the GitHub Actions workflow', () => {
  test('in the doc is the example file, word for word', () => {
    const block = /## The workflow\n\n```yaml\n([\s\S]*?)```\n/.exec(doc)?.[1];
    expect(block).toBe(example);
  });

  const workflow = parse(example) as Workflow;
  const steps = Object.values(workflow.jobs).flatMap((j) => j.steps);
  const certify = steps.find((s) => s.run?.includes('asi-conformance run'));

  test('parses, and runs the harness with tokens from secrets and reports in reports/', () => {
    expect(Object.keys(workflow.on)).toEqual(expect.arrayContaining(['push', 'pull_request']));
    expect(certify?.run).toMatch(/--out reports\b/);
    expect(certify?.if).toBeUndefined();
    expect(certify?.env?.['ASI_TOKEN']).toBe('${{ secrets.ASI_TOKEN }}');
    for (const [name, value] of Object.entries(certify?.env ?? {})) expect(value).toBe(`\${{ secrets.${name} }}`);
  });

  test('writes the step summary and uploads the reports whatever the verdict', () => {
    const after = steps.slice(steps.indexOf(certify!) + 1);
    const summary = after.find((s) => s.run?.includes('GITHUB_STEP_SUMMARY'));
    expect(summary?.if).toBe('always()');
    expect(summary?.run).toContain('cat reports/*/summary.md >> "$GITHUB_STEP_SUMMARY"');
    const upload = after.find((s) => s.uses?.startsWith('actions/upload-artifact@'));
    expect(upload?.if).toBe('always()');
    expect(upload?.with?.['path']).toBe('reports/');
  });

  test('every flag the doc passes to `asi-conformance run` is one the CLI knows', () => {
    const lines = doc.split('\n').filter((l) => l.includes('asi-conformance run') || /^\s*#\s+--/.test(l));
    const flags = new Set(lines.flatMap((l) => l.match(/(?<=\s)--[a-z][a-z-]*/g) ?? []));
    expect(flags.size).toBeGreaterThan(2);
    for (const flag of flags) expect(RUN_HELP, flag).toMatch(new RegExp(`\\s${flag}\\b`));
  });
});
