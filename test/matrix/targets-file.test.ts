import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { TargetsError } from '../../lib/errors.ts';
import { planMatrix } from '../../lib/matrix/matrix-plan.ts';
import { loadTargetsFile } from '../../lib/matrix/targets-file.ts';

const dir = mkdtempSync(join(tmpdir(), 'asi-targets-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let n = 0;
function file(text: string): string {
  const path = join(dir, `targets-${++n}.yaml`);
  writeFileSync(path, text);
  return path;
}

function profile(name: string, baseUrl: string, primary: string): void {
  writeFileSync(join(dir, name), `base_url: ${baseUrl}\ntokens:\n  primary: { env: ${primary} }\n`);
}

function problem(path: string, env: NodeJS.ProcessEnv = {}): string {
  try {
    planMatrix(path, loadTargetsFile(path), { env });
  } catch (err) {
    expect(err).toBeInstanceOf(TargetsError);
    expect((err as TargetsError).exitCode).toBe(2);
    return (err as Error).message.slice(path.length + 2);
  }
  throw new Error('no error');
}

profile('acme.yaml', 'https://api.acme.example/v1', 'ACME_TOKEN');
profile('globex.yaml', 'https://api.globex.example/v1', 'GLOBEX_TOKEN');
profile('shared.yaml', 'https://api.initech.example/v1', 'ACME_TOKEN');

describe('a targets file', () => {
  test.each([
    ['targets: []', 'targets: expected at least one target'],
    ['targets:\n  - name: a\n    reference: {}\n    colour: red', 'targets[0].colour: unknown key; expected one of name, profile, base_url, reference, label, version, seed, suite, only, skip, fail_on, timeout, expect'],
    ['targets:\n  - name: a', 'targets[0]: needs exactly one of profile (a profile file), base_url or reference (the embedded reference), got none'],
    ['targets:\n  - name: a\n    reference: {}\n    base_url: https://x.example/v1', 'targets[0]: needs exactly one of profile (a profile file), base_url or reference (the embedded reference), got base_url and reference'],
    ['targets:\n  - reference: {}', 'targets[0].name: is required but missing'],
    ['targets:\n  - name: a b\n    reference: {}', 'targets[0].name: "a b" is not valid: the column\'s name and the target\'s folder: letters, digits, dot, dash and underscore, at most 64'],
    ['targets:\n  - name: a\n    reference: {}\n    fail_on: may', 'targets[0].fail_on: expected one of must, should, got "may"'],
    ['concurrency: 0\ntargets:\n  - name: a\n    reference: {}', 'concurrency: must be >= 1, got 0'],
    ['targets:\n  - name: a\n    base_url: ftp://x.example/v1', 'targets[0].base_url: "ftp://x.example/v1" is not valid: an http(s) base_url ending in /v1; tokens then come from ASI_TOKEN, ASI_TOKEN_2, ...'],
    ['targets:\n  - name: Acme\n    reference: {}\n  - name: acme\n    reference: {}', 'targets[1].name: "acme" is the name of targets[0] already; each target needs its own'],
    ['- name: a', 'expected a mapping with a list of targets, got [{"name":"a"}]'],
  ])('%j is refused naming the key', (text, message) => {
    expect(problem(file(text))).toBe(message);
  });

  test('a file that is not there, or not YAML, is one line', () => {
    expect(() => loadTargetsFile(join(dir, 'none.yaml'))).toThrow(/none\.yaml: no such file$/);
    expect(() => loadTargetsFile(file('targets: [\n'))).toThrow(/is not valid YAML at line 2, column 1/);
  });
});

describe('the plan of a targets file', () => {
  test('each target is a run of its own: its profile beside the file, its label, the choices it shares and its own', () => {
    const path = file(
      [
        'suite: [auth]',
        'fail_on: should',
        'seed: 7',
        'out: out',
        'targets:',
        '  - name: acme',
        '    profile: acme.yaml',
        '    label: Acme Agents',
        '    version: "2.3"',
        '  - name: calibration',
        '    reference: { defects: [auth-missing-as-invalid] }',
        '    suite: [auth, errors]',
        '    only: [auth/5.3/missing-header]',
        '    seed: 8',
        '    timeout: 20',
      ].join('\n'),
    );
    const plan = planMatrix(path, loadTargetsFile(path), { env: { ACME_TOKEN: 'acme_live_0001' } });
    expect(plan.concurrency).toBe(2);
    expect(plan.outParent).toBe(join(dir, 'out'));
    expect(plan.targets.map((t) => [t.name, t.kind, t.args])).toEqual([
      ['acme', 'profile', ['run', '--config', join(dir, 'acme.yaml'), '--label', 'Acme Agents', '--impl-version', '2.3', '--suite', 'auth', '--fail-on', 'should', '--seed', '7', '-q']],
      [
        'calibration',
        'reference',
        ['run', '--defect', 'auth-missing-as-invalid', '--suite', 'auth', '--suite', 'errors', '--only', 'auth/5.3/missing-header', '--fail-on', 'should', '--timeout', '20', '--seed', '8', '-q'],
      ],
    ]);
    expect(plan.targets[0]!.what).toBe(`https://api.acme.example/v1 (${join(dir, 'acme.yaml')})`);
    expect(plan.targets[1]!.what).toBe('the embedded reference with defect auth-missing-as-invalid');
  });

  test('the command line wins over the file: --out, --concurrency, --seed', () => {
    const path = file('concurrency: 3\nseed: 1\ntargets:\n  - name: a\n    reference: {}\n    seed: 2');
    const plan = planMatrix(path, loadTargetsFile(path), { env: {}, out: 'elsewhere', concurrency: 1, seed: 9 });
    expect(plan).toMatchObject({ concurrency: 1, outParent: 'elsewhere' });
    expect(plan.targets[0]!.args).toEqual(['run', '--seed', '9', '-q']);
  });

  test.each([
    ['targets:\n  - name: a\n    profile: none.yaml', {}, /^targets\[0\]\.profile: .*none\.yaml: no such file$/],
    ['targets:\n  - name: a\n    profile: acme.yaml', {}, /^targets\[0\]\.profile: tokens\.primary: environment variable ACME_TOKEN is not set \(export ACME_TOKEN=<token>\)$/],
    ['targets:\n  - name: a\n    base_url: https://x.example/v1', { ASI_TOKEN: '' }, /^targets\[0\]\.base_url: tokens\.primary: environment variable ASI_TOKEN is set but empty/],
    ['targets:\n  - name: a\n    reference: { defects: [nope] }', {}, /^targets\[0\]\.reference: unknown defect switch "nope"/],
    ['suite: [nope]\ntargets:\n  - name: a\n    reference: {}', {}, /^suite: --suite nope: no such suite; expected one of /],
    ['targets:\n  - name: a\n    reference: {}\n    only: [auth/5.3/missing-headr]', {}, /^targets\[0\]\.only: --only "auth\/5\.3\/missing-headr" is not a requirement id; did you mean auth\/5\.3\/missing-header\?$/],
    ['targets:\n  - name: a\n    reference: {}\n    expect: none.yaml', {}, /^targets\[0\]\.expect: .*none\.yaml: no such file$/],
    ['sign_key: none.pem\ntargets:\n  - name: a\n    reference: {}', {}, /^sign_key: .*none\.pem: no such file$/],
    ['targets:\n  - name: a\n    reference: {}\n    label: Acme Agents', {}, /^targets\[0\]\.label: names the implementation under test, but the target is the embedded reference \(reference:\); give it a profile or base_url, or remove label$/],
    ['targets:\n  - name: a\n    reference: { defects: [auth-missing-as-invalid] }\n    version: "2.3"', {}, /^targets\[0\]\.version: names the implementation under test, but the target is the embedded reference/],
  ])('%j is refused before anything runs', (text, env, message) => {
    expect(problem(file(text), env)).toMatch(message);
  });

  test('one token variable read by targets on two servers is refused: the token would go to both', () => {
    const env = { ACME_TOKEN: 'acme_live_0001', GLOBEX_TOKEN: 'globex_live_01', ASI_TOKEN: 'asi_live_00001' };
    expect(problem(file('targets:\n  - name: acme\n    profile: acme.yaml\n  - name: initech\n    profile: shared.yaml'), env)).toBe(
      'targets[1]: reads tokens.primary from ACME_TOKEN, as targets[0] (acme) does, but on another server (https://api.initech.example, not https://api.acme.example): that token would go to both; give each target a profile whose tokens name its own variables (tokens.primary: { env: INITECH_TOKEN })',
    );
    expect(problem(file('targets:\n  - name: staging\n    base_url: https://staging.example/v1\n  - name: prod\n    base_url: https://prod.example/v1'), env)).toMatch(/^targets\[1\]: reads tokens\.primary from ASI_TOKEN, as targets\[0\] \(staging\) does/);
    // Two servers with their own variables, the same server twice, and the reference beside them are fine.
    const path = file('targets:\n  - name: acme\n    profile: acme.yaml\n  - name: acme-auth\n    profile: acme.yaml\n  - name: globex\n    profile: globex.yaml\n  - name: ref\n    reference: {}');
    expect(planMatrix(path, loadTargetsFile(path), { env }).targets).toHaveLength(4);
  });
});
