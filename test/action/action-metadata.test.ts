import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { stringify } from 'yaml';
import { RUN_HELP } from '../../lib/cli/help.ts';
import { ROOT } from '../support/cli.ts';
import { ACTION_FILE, actionAsWorkflow, actionlint, actionStep, expressions, readAction, schemaCheck } from '../support/github-actions.ts';

const text = readFileSync(ACTION_FILE, 'utf8');
const action = readAction();
const steps = action.runs.steps;
const script = readFileSync(join(ROOT, 'action', 'certify.sh'), 'utf8');
const guide = readFileSync(join(ROOT, 'docs', 'guide', 'ci.md'), 'utf8');

/** The harness's conventional token variables, each with the input that sets it. */
const TOKEN_INPUTS: Record<string, string> = {
  ASI_TOKEN: 'token',
  ASI_TOKEN_2: 'token-2',
  ASI_TOKEN_WS2: 'token-ws2',
  ASI_TOKEN_REVOKED: 'token-revoked',
  ASI_TOKEN_EXPIRED: 'token-expired',
};

describe('action.yml', () => {
  test('is a composite action that action-validator accepts', () => {
    expect(action.runs.using).toBe('composite');
    expect(schemaCheck('action', text)).toEqual([]);
  });

  test('its steps pass actionlint, run as the job of a workflow taking the same inputs', async () => {
    expect(await actionlint(actionAsWorkflow(action), 'action.yml')).toEqual([]);
  });

  test('runs the steps in order: Node.js, install, certify, upload, test results, gate', () => {
    const order = steps.map((s) => s.uses?.replace(/@.*/, '') ?? s.id ?? s.name);
    expect(order).toEqual(['actions/setup-node', 'Install asi-conformance', 'certify', 'actions/upload-artifact', 'mikepenz/action-junit-report', 'Gate on the verdict']);
  });

  test('pins every action it uses by major version', () => {
    for (const s of steps.filter((x) => x.uses !== undefined)) expect(s.uses).toMatch(/^[\w-]+\/[\w-]+@v\d+$/);
  });

  test('sets up Node.js 20 unless node-version is empty, without a dependency cache of the caller\'s project', () => {
    const setup = steps[0]!;
    expect(action.inputs['node-version']?.default).toBe('20');
    expect(setup.if).toBe("inputs.node-version != ''");
    expect(setup.with).toEqual({ 'node-version': '${{ inputs.node-version }}', 'package-manager-cache': false });
  });

  test('installs the harness from its own checkout, by its lockfile, and builds it there', () => {
    const install = steps[1]!;
    expect(install['working-directory']).toBe('${{ github.action_path }}');
    expect(install.run?.trim().split('\n')).toEqual(['npm ci --ignore-scripts --no-audit --no-fund', 'npm run --silent build']);
  });

  test('passes every input to a step through env or with, never into a script', () => {
    for (const s of steps) expect(expressions(s.run ?? ''), s.name ?? s.id).toEqual([]);
    const used = new Set(stringify(steps).match(/inputs\.[\w-]+/g));
    expect([...used].sort()).toEqual(Object.keys(action.inputs).map((name) => `inputs.${name}`).sort());
  });

  test('the certify step and its script agree on every variable; each token input becomes its conventional variable', () => {
    const certify = actionStep(action, 'certify');
    expect(certify.run).toBe('exec bash "$GITHUB_ACTION_PATH/action/certify.sh"');
    const given = Object.keys(certify.env ?? {}).sort();
    const read = [...new Set(script.match(/ASI_ACTION_\w+/g))].sort();
    expect(read).toEqual(given);
    for (const [variable, input] of Object.entries(TOKEN_INPUTS)) {
      expect(certify.env?.[`ASI_ACTION_${variable.slice('ASI_'.length)}`]).toBe(`\${{ inputs.${input} }}`);
      expect(script).toContain(`pass_token ${variable} ASI_ACTION_${variable.slice('ASI_'.length)}\n`);
    }
  });

  test('an input named after a flag of `run` becomes that flag', () => {
    const certify = actionStep(action, 'certify');
    const flagInputs = Object.keys(action.inputs).filter((name) => new RegExp(`\\s--${name}\\b`).test(RUN_HELP));
    expect(flagInputs.sort()).toEqual(['base-url', 'baseline', 'config', 'expect', 'fail-on', 'only', 'out', 'skip', 'suite']);
    for (const input of flagInputs) {
      const variable = `ASI_ACTION_${input.toUpperCase().replace(/-/g, '_')}`;
      expect(certify.env?.[variable], input).toBe(`\${{ inputs.${input} }}`);
      if (input === 'out') expect(script).toContain(`out="\${${variable}:-reports}"`);
      if (input === 'out') expect(script).toContain('args=(run "--out=$out")');
      else expect(script, input).toMatch(new RegExp(`^add(_each)? --${input} "\\$\\{${variable}:-\\}"$`, 'm'));
    }
  });

  test('uploads the run\'s report folder whatever the verdict, and publishes junit.xml only when asked', () => {
    const upload = steps[3]!;
    expect(upload.if).toBe("always() && steps.certify.outputs.report-dir != ''");
    expect(upload.with?.['path']).toBe('${{ steps.certify.outputs.report-dir }}');
    expect(upload.with?.['name']).toBe('${{ inputs.artifact-name }}');
    const junit = steps[4]!;
    expect(action.inputs['publish-test-results']?.default).toBe('false');
    expect(junit.if).toBe("always() && inputs.publish-test-results == 'true' && steps.certify.outputs.junit != ''");
    expect(junit.with).toMatchObject({ report_paths: '${{ steps.certify.outputs.junit }}', job_summary: false, fail_on_failure: false });
  });

  test('ends with the harness\'s exit code, and gives outcome, exit-code and report-dir as outputs', () => {
    const gate = steps.at(-1)!;
    expect(gate.if).toBeUndefined();
    expect(gate.env?.['ASI_EXIT_CODE']).toBe('${{ steps.certify.outputs.exit-code }}');
    expect(gate.run).toContain('exit "${ASI_EXIT_CODE:-3}"');
    expect(Object.fromEntries(Object.entries(action.outputs).map(([k, o]) => [k, o.value]))).toEqual({
      outcome: '${{ steps.certify.outputs.outcome }}',
      'exit-code': '${{ steps.certify.outputs.exit-code }}',
      'report-dir': '${{ steps.certify.outputs.report-dir }}',
    });
  });
});

describe('the user guide section "GitHub Action" (docs/guide/ci.md)', () => {
  const section = /\n## GitHub Action\n([\s\S]*?)(?:\n## |$)/.exec(guide)?.[1] ?? '';
  /** Rows of the table whose header starts with `| header |`: first cell (unquoted) to the second. */
  function table(header: string): Record<string, string> {
    const rows = section.split(`\n| ${header} |`)[1]?.split('\n\n')[0]?.split('\n').slice(2) ?? [];
    return Object.fromEntries(rows.map((r) => r.split(' | ').map((c) => c.replace(/^\| /, '').replace(/`/g, '').trim())).map((c) => [c[0]!, c[1]!]));
  }

  test('shows the uses: line', () => {
    expect(section).toMatch(/^\s+- uses: <owner>\/asi-conformance@v0$/m);
  });

  test('lists every input with its default, and every output', () => {
    const inputs = table('input');
    expect(Object.keys(inputs).sort()).toEqual(Object.keys(action.inputs).sort());
    for (const [name, i] of Object.entries(action.inputs)) expect(inputs[name], name).toBe(i.default === '' ? 'none' : i.default);
    expect(Object.keys(table('output')).sort()).toEqual(Object.keys(action.outputs).sort());
  });
});
