import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { parse } from 'yaml';
import { RUN_HELP } from '../../lib/cli/help.ts';
import { ROOT } from '../support/cli.ts';
import { actionlint, expressions, readAction, schemaCheck, type Step } from '../support/github-actions.ts';

const doc = readFileSync(join(ROOT, 'docs', 'ci', 'github-actions.md'), 'utf8');
const example = readFileSync(join(ROOT, 'examples', 'github-actions.yml'), 'utf8');
const guide = readFileSync(join(ROOT, 'docs', 'guide', 'ci.md'), 'utf8');
const action = readAction();

const THE_ACTION = '<owner>/asi-conformance@v0';
const TOKEN_VARIABLES = ['ASI_TOKEN', 'ASI_TOKEN_2', 'ASI_TOKEN_WS2', 'ASI_TOKEN_REVOKED', 'ASI_TOKEN_EXPIRED'];

interface Workflow {
  on: Record<string, unknown>;
  jobs: Record<string, { steps: Step[] }>;
}

/** Every yaml block of a Markdown text, indented as it is. */
function yamlBlocks(markdown: string): string[] {
  return [...markdown.matchAll(/^( *)```yaml\n([\s\S]*?)^\1```$/gm)].map((m) => m[2]!.replace(new RegExp(`^${m[1]}`, 'gm'), ''));
}

const blocks = yamlBlocks(doc).map((text) => ({ text, value: parse(text) as unknown }));
const workflows = blocks.filter((b) => typeof b.value === 'object' && b.value !== null && 'jobs' in b.value);
/** The steps of every block: a whole workflow's, or a block that is a list of steps. */
const docSteps = blocks.flatMap((b) => (Array.isArray(b.value) ? (b.value as Step[]) : workflows.includes(b) ? Object.values((b.value as Workflow).jobs).flatMap((j) => j.steps) : []));

const workflow = parse(example) as Workflow;
const steps = Object.values(workflow.jobs).flatMap((j) => j.steps);
const certify = steps.find((s) => s.uses === THE_ACTION);

describe('the GitHub Actions workflow', () => {
  test('in the doc is the example file, word for word', () => {
    const block = /## The workflow\n\n```yaml\n([\s\S]*?)```\n/.exec(doc)?.[1];
    expect(block).toBe(example);
  });

  /** A workflow's name and its triggers, to tell the doc's workflows apart. */
  const title = (w: { value: unknown }): string => {
    const { name, on } = w.value as { name: string; on: unknown };
    return `${name} (on ${typeof on === 'string' ? on : Object.keys(on as object).join(', ')})`;
  };

  test.each(workflows.map((w) => [title(w), w.text]))('%s passes actionlint and action-validator', async (_title, text) => {
    expect(await actionlint(text, 'workflow.yml')).toEqual([]);
    expect(schemaCheck('workflow', text)).toEqual([]);
  });

  test('gates pull requests by certifying the preview a step before deployed, at the URL that step gave', () => {
    expect(Object.keys(workflow.on)).toEqual(['pull_request']);
    const url = /^\$\{\{ steps\.([\w-]+)\.outputs\.url \}\}$/.exec(String(certify?.with?.['base-url']))?.[1];
    const deploy = steps.find((s) => s.id === url);
    expect(deploy?.run).toMatch(/deploy-preview/);
    expect(steps.indexOf(deploy!)).toBeLessThan(steps.indexOf(certify!));
    expect(certify?.with?.['config']).toBe('asi/target.yaml');
  });

  test('passes each token from the secret of its conventional name, and publishes the test results it may write', () => {
    for (const variable of TOKEN_VARIABLES) {
      const input = variable === 'ASI_TOKEN' ? 'token' : `token-${variable.slice('ASI_TOKEN_'.length).toLowerCase()}`;
      expect(certify?.with?.[input], input).toBe(`\${{ secrets.${variable} }}`);
    }
    expect(certify?.with?.['publish-test-results']).toBe(true);
    expect((workflow as unknown as { permissions: Record<string, string> }).permissions).toEqual({ contents: 'read', checks: 'write' });
  });

  test('without secrets (a fork\'s or Dependabot\'s pull request), stops first, says so and fails', () => {
    const first = steps[0]!;
    expect(first.env).toEqual({ ASI_TOKEN: '${{ secrets.ASI_TOKEN }}' });
    expect(first.run).toMatch(/if \[ -z "\$ASI_TOKEN" \]; then[\s\S]*>> "\$GITHUB_STEP_SUMMARY"[\s\S]*exit 1\n\s*fi/);
    expect(doc).toMatch(/## Pull requests from forks\n[\s\S]*`pull_request_target`/);
  });

  test('every use of the action in the doc gives only inputs it has; no step splices an expression into a script', () => {
    const uses = docSteps.filter((s) => s.uses === THE_ACTION);
    expect(uses.length).toBeGreaterThan(3);
    for (const s of uses) for (const key of Object.keys(s.with ?? {})) expect(action.inputs, key).toHaveProperty([key]);
    for (const s of [...steps, ...docSteps]) expect(expressions(s.run ?? ''), s.name).toEqual([]);
  });

  test('every flag the doc passes to `asi-conformance run`, on its command line or in args:, is one the CLI knows', () => {
    const commandLines = doc.split('\n').filter((l) => l.includes('asi-conformance run'));
    const argLines = docSteps.flatMap((s) => String(s.with?.['args'] ?? '').split('\n'));
    const flags = new Set([...commandLines, ...argLines].flatMap((l) => l.match(/(?<=\s|^)--[a-z][a-z-]*/g) ?? []));
    expect(flags.size).toBeGreaterThan(5);
    for (const flag of flags) expect(RUN_HELP, flag).toMatch(new RegExp(`\\s${flag}\\b`));
  });

  test('by hand, without the action: the harness gets the signals, the summary and the reports are kept whatever the verdict', () => {
    const byHand = docSteps.find((s) => s.run?.includes('node_modules/.bin/asi-conformance run'));
    expect(byHand?.run).toMatch(/^exec /);
    const after = docSteps.slice(docSteps.indexOf(byHand!) + 1);
    const summary = after.find((s) => s.run?.includes('GITHUB_STEP_SUMMARY'));
    expect(summary?.if).toBe('always()');
    expect(summary?.run).toContain('cat reports/*/summary.md >> "$GITHUB_STEP_SUMMARY"');
    const upload = after.find((s) => s.uses?.startsWith('actions/upload-artifact@'));
    expect(upload?.if).toBe('always()');
    expect(upload?.with?.['path']).toBe('reports/');
  });
});

describe('the Docker snippets', () => {
  test('in the doc: passes into the container every token the step sets, all five', () => {
    const docker = docSteps.find((s) => s.run?.includes('docker run'));
    const passed = [...(docker?.run ?? '').matchAll(/-e (\w+)/g)].map((m) => m[1]).sort();
    const tokensSet = Object.keys(docker?.env ?? {}).filter((k) => k.startsWith('ASI_TOKEN')).sort();
    expect(passed).toEqual(tokensSet);
    expect(tokensSet).toEqual([...TOKEN_VARIABLES].sort());
    expect(docker?.run).toMatch(/^exec docker run /);
  });

  test('in the user guide (docs/guide/ci.md): passes all five', () => {
    const block = /## Docker\n[\s\S]*?```sh\n([\s\S]*?)```/.exec(guide)?.[1] ?? '';
    expect([...block.matchAll(/-e (\w+)/g)].map((m) => m[1]).sort()).toEqual([...TOKEN_VARIABLES].sort());
  });
});
