import { createHash } from 'node:crypto';
import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { generateKeyPair } from '../../lib/certification/signing-key.ts';
import type { Statement } from '../../lib/certification/statement.ts';
import { readTarGz } from '../../lib/certification/tar-reader.ts';
import { writeTarGz } from '../../lib/certification/tar-writer.ts';
import { addFormats } from '../../lib/contract/validate.ts';
import { bundleColumn } from '../../lib/matrix/matrix-columns.ts';
import type { Matrix, MatrixColumn } from '../../lib/matrix/matrix-model.ts';
import type { Report } from '../../lib/report/report-model.ts';
import { runCli, ROOT, type CliResult } from '../support/cli.ts';
import { chromiumMissing, render } from '../support/chromium.ts';
import { referenceTarget, type ReferenceTarget } from '../support/reference-target.ts';

/**
 * `asi-conformance matrix` end to end: three targets certified side by side (the auth suite, a few
 * seconds each): the embedded reference, a vendor's server (a reference with one defect in this
 * process, reached through a profile whose tokens are its own ACME_* variables) and a calibration
 * column (the embedded reference with another defect). Then `matrix merge` over their bundles as
 * CI artifacts would hold them, with a tampered one, a copy and a file that is no bundle.
 */

const work = mkdtempSync(join(tmpdir(), 'asi-matrix-'));
const MISSING = 'auth/5.3/missing-header';
/** The token of a target whose server is gone: it must not show anywhere either. */
const GONE_TOKEN = 'gone_live_5ec7e75ec7e75ec7e75ec7e75ec7e75e';
let acme: ReferenceTarget;
let acmeEnv: Record<string, string>;
let local: CliResult;
let localDir = '';
let merged: CliResult;
let mergedDir = '';

afterAll(async () => {
  await acme?.close();
  rmSync(work, { recursive: true, force: true });
});

function matrixFolder(parent: string): string {
  const dirs = readdirSync(parent).filter((d) => d.startsWith('matrix-'));
  expect(dirs).toHaveLength(1);
  return join(parent, dirs[0]!);
}

function matrixOf(dir: string): Matrix {
  return JSON.parse(readFileSync(join(dir, 'matrix.json'), 'utf8')) as Matrix;
}

function column(m: Matrix, id: string): MatrixColumn {
  const c = m.columns.find((x) => x.id === id);
  if (c === undefined) throw new Error(`no column ${id} in ${m.columns.map((x) => x.id).join(', ')}`);
  return c;
}

beforeAll(async () => {
  // The vendor's tokens live in variables of its own: ACME_TOKEN, ACME_TOKEN_2, ...
  acme = await referenceTarget({ defects: ['auth-missing-as-invalid'], tokenSecret: 'acme' }, (yaml) => yaml.replaceAll('{ env: ASI_TOKEN', '{ env: ACME_TOKEN'));
  acmeEnv = Object.fromEntries(Object.entries(acme.env).map(([k, v]) => [k.replace(/^ASI_TOKEN/, 'ACME_TOKEN'), v]));
  copyFileSync(acme.profile, join(work, 'acme.yaml'));
  generateKeyPair(join(work, 'keys'), {});
  writeFileSync(
    join(work, 'targets.yaml'),
    [
      'suite: [auth]',
      'seed: 20261122',
      'sign_key: keys/asi-signing-key.pem',
      'targets:',
      '  - name: reference',
      '    reference: {}',
      '  - name: acme',
      '    profile: acme.yaml',
      '    label: Acme Agents',
      '    version: "2.3"',
      '  - name: calibration-403',
      '    reference: { defects: [auth-token-missing-403] }',
      '  - name: gone',
      '    base_url: http://127.0.0.1:9/v1',
      '',
    ].join('\n'),
  );
  local = await runCli(['matrix', join(work, 'targets.yaml'), '--out', join(work, 'local')], { env: { ...acmeEnv, ASI_TOKEN: GONE_TOKEN }, timeoutMs: 120_000 });
  localDir = matrixFolder(join(work, 'local'));

  // As the workflow of docs/ci/matrix.md downloads them: a folder per job's artifact (its whole run folder).
  const artifacts = join(work, 'artifacts');
  for (const name of ['reference', 'acme', 'calibration-403']) {
    const run = readdirSync(join(localDir, name)).find((d) => d !== 'run.log')!;
    cpSync(join(localDir, name, run), join(artifacts, `asi-run-${name}`, run), { recursive: true });
  }
  // The same bundle twice (a job uploaded twice), one with a verdict edited, and a file that is no bundle.
  const acmeBundle = join(artifacts, 'asi-run-acme', readdirSync(join(artifacts, 'asi-run-acme'))[0]!, 'bundle.tar.gz');
  mkdirSync(join(artifacts, 'asi-run-acme-again'));
  copyFileSync(acmeBundle, join(artifacts, 'asi-run-acme-again', 'bundle.tar.gz'));
  const files = readTarGz(readFileSync(acmeBundle));
  const report = JSON.parse(files.get('report.json')!.toString('utf8')) as Report;
  report.results.find((r) => r.requirement.id === MISSING)!.verdict = 'pass';
  files.set('report.json', Buffer.from(JSON.stringify(report, null, 2)));
  mkdirSync(join(artifacts, 'asi-run-forged'));
  await writeTarGz(join(artifacts, 'asi-run-forged', 'bundle.tar.gz'), [...files].sort(([a], [b]) => (a < b ? -1 : 1)).map(([name, data]) => ({ name, size: data.length, data })), 0);
  writeFileSync(join(artifacts, 'notes.tar.gz'), 'not an archive');
  merged = await runCli(['matrix', 'merge', artifacts, '--out', join(work, 'merged'), '--public-key', join(work, 'keys', 'asi-signing-key.pub.pem')], { timeoutMs: 60_000 });
  mergedDir = matrixFolder(join(work, 'merged'));
}, 180_000);

/** Every file below a folder. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name));
}

/** Each cell's link leads to a report.html that has the row it names. */
function expectLinksResolve(dir: string, m: Matrix): void {
  let links = 0;
  for (const row of m.requirements) {
    for (const cell of Object.values(row.cells)) {
      const [file, anchor] = cell.href!.split('#') as [string, string];
      expect(readFileSync(join(dir, file), 'utf8')).toContain(`<tr id="${anchor}">`);
      links += 1;
    }
  }
  expect(links).toBeGreaterThan(100);
}

describe('matrix FILE', () => {
  test('certifies each target in a run of its own, a line when each starts and when it ends, and exits 1 when one is not conformant', () => {
    expect(local.code, local.stdout + local.stderr).toBe(1);
    const lines = local.stderr.trim().split('\n');
    expect(lines[0]).toMatch(/^matrix: 4 targets, 2 at a time, into .*matrix-[0-9TZ-]+-[0-9a-f]{4}\/$/);
    expect(lines.slice(1)).toHaveLength(8);
    expect(lines).toContain('  reference        started: the embedded reference (--suite auth --seed 20261122)');
    expect(lines).toContain(`  acme             started: ${acme.reference.baseUrl} (${join(work, 'acme.yaml')}) (--suite auth --seed 20261122)`);
    expect(lines).toContainEqual(expect.stringMatching(/^ {2}reference {8}partial run, exit 0: \d+ pass, 0 fail, 0 warn, 0 inconclusive, \d+ not run, 0 uncovered in [\d.]+ m?s$/));
    expect(lines).toContainEqual(expect.stringMatching(/^ {2}acme {13}not conformant, exit 1: \d+ pass, [1-9] fail,/));
    // A run the preflight ended: the line it ended on.
    expect(lines).toContainEqual(expect.stringMatching(/^ {2}gone {13}unreachable, exit 3: target http:\/\/127\.0\.0\.1:9\/v1 is unreachable: .* in [\d.]+ m?s$/));
    // Two at a time: the third starts only when one has ended.
    expect(lines.findIndex((l) => l.includes('calibration-403  started'))).toBeGreaterThan(lines.findIndex((l) => / (partial run|not conformant), exit/.test(l)));
    expect(local.stdout).toMatch(/^disagree: \d+ requirements: auth\/5\.3\/missing-header, /m);
    expect(local.stdout).toMatch(/^matrix: .*\/matrix\.html \(and matrix\.json\), 4 columns; exit 1: a column is not conformant, or its bundle does not verify$/m);
  });

  test('writes matrix.json as its schema says, each column verified from its bundle', () => {
    const m = matrixOf(localDir);
    const ajv = new Ajv2020({ allErrors: true, strict: true });
    addFormats(ajv);
    const validate = ajv.compile(JSON.parse(readFileSync(join(ROOT, 'lib', 'matrix', 'matrix.schema.json'), 'utf8')) as object);
    expect(validate(m), JSON.stringify(validate.errors)).toBe(true);
    expect(m.source).toBe('runs');
    expect(m.exitCode).toBe(1);
    expect(m.columns.map((c) => [c.id, c.state, c.outcome, c.label, c.version])).toEqual([
      ['reference', 'verified', 'partial', undefined, undefined],
      ['acme', 'verified', 'not-conformant', 'Acme Agents', '2.3'],
      ['calibration-403', 'verified', 'not-conformant', 'asi-conformance reference with defect auth-token-missing-403', undefined],
      ['gone', 'verified', 'unreachable', undefined, undefined],
    ]);
    // Its run wrote a report and a bundle all the same, every requirement not run: no side of any disagreement.
    expect(column(m, 'gone').reason).toMatch(/^target http:\/\/127\.0\.0\.1:9\/v1 is unreachable: /);
    expect(m.requirements.every((r) => r.cells['gone']?.verdict === 'not-run')).toBe(true);
    for (const c of m.columns.filter((x) => x.id !== 'gone')) {
      const bundle = join(localDir, c.bundle!.href!);
      expect(c.bundle!.sha256).toBe(createHash('sha256').update(readFileSync(bundle)).digest('hex'));
      expect(c.harness).toEqual({ name: 'asi-conformance', version: expect.any(String), sameBuild: true });
      expect(c.run).toMatchObject({ seed: 20261122, suites: ['auth'], partial: true });
      // Each run signed its bundle with sign_key; the matrix checked it with the public half.
      expect(c.bundle).toMatchObject({ signature: 'verified', keyid: expect.stringMatching(/^[0-9a-f]{64}$/) });
      expect(existsSync(join(localDir, c.id, 'run.log'))).toBe(true);
    }
    expect(column(m, 'acme').run!.baseUrl).toBe(acme.reference.baseUrl);
  });

  test('lists first the requirements where the columns disagree, and every cell links to its row in the run\'s report', () => {
    const m = matrixOf(localDir);
    expect(m.disagreements).toContain(MISSING);
    const row = m.requirements.find((r) => r.id === MISSING)!;
    expect(row.cells['reference']!.verdict).toBe('pass');
    expect(row.cells['acme']!.verdict).toBe('fail');
    expect(row.cells['calibration-403']!.verdict).toBe('fail');
    // Not chosen by the partial runs: no verdict to compare, so no disagreement.
    const unchosen = m.requirements.filter((r) => Object.entries(r.cells).every(([id, c]) => id === 'gone' || c.unchosen === true));
    expect(unchosen.length).toBeGreaterThan(50);
    expect(unchosen.filter((r) => r.disagree)).toEqual([]);
    expectLinksResolve(localDir, m);
    const html = readFileSync(join(localDir, 'matrix.html'), 'utf8');
    expect(html.indexOf('id="disagreements"')).toBeLessThan(html.indexOf('id="requirements"'));
    expect(html).toContain(`<a href="acme/${column(m, 'acme').run!.id}/report.html#r-${MISSING}">fail</a>`);
  });

  test('never prints or writes a token', () => {
    const secrets = [...Object.values(acmeEnv), GONE_TOKEN];
    const texts = [local.stdout, local.stderr, ...filesUnder(localDir).filter((f) => !f.endsWith('.tar.gz')).map((f) => readFileSync(f, 'utf8'))];
    for (const text of texts) for (const s of secrets) expect(text.includes(s)).toBe(false);
  });

  test.concurrent.for([
    [[], /^asi-conformance: matrix: expected one targets file \(or 'matrix merge DIR\.\.\.'\), got 0; see 'asi-conformance matrix --help'$/],
    [['no-such.yaml'], /^asi-conformance: no-such\.yaml: no such file$/],
    [['examples/targets.yaml', '--concurrency', '0'], /^asi-conformance: matrix: --concurrency expects a whole number from 1 to 16, got "0"$/],
    [['merge', join(tmpdir(), 'asi-no-such-folder')], /^asi-conformance: matrix merge: .*asi-no-such-folder: no such file or folder$/],
    [['merge', ROOT + '/config'], /^asi-conformance: matrix merge: no bundle under .*config \(a \*\.tar\.gz file, or a folder with a manifest\.json, as run writes them\)$/],
  ] as Array<[string[], RegExp]>)('matrix %j is refused in one line (exit 2)', async ([args, line], { expect }) => {
    const r = await runCli(['matrix', ...args]);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr.trim()).toMatch(line);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });
});

describe('matrix merge DIR', () => {
  test('verifies every bundle found and builds the same page; one that does not verify is a column saying why (exit 1)', () => {
    expect(merged.code, merged.stdout + merged.stderr).toBe(1);
    expect(merged.stderr).toMatch(/^matrix merge: 6 bundles found, verifying each, into .*\/$/m);
    // Not "each verified" when two do not: how many, and which.
    expect(merged.stderr).toMatch(/^matrix merge: 4 of 6 bundles verify; these 2 do not: Acme Agents 2\.3 \(.*\/bundle\.tar\.gz\), notes\.tar\.gz \(.*notes\.tar\.gz\)$/m);
    const m = matrixOf(mergedDir);
    expect(m.source).toBe('bundles');
    expect(m.columns.map((c) => [c.id, c.state])).toEqual([
      ['Acme-Agents-2.3', 'verified'],
      ['Acme-Agents-2.3-2', 'verified'],
      ['asi-conformance-reference-with-defect-auth-token-missing-403', 'verified'],
      ['Acme-Agents-2.3-3', 'does-not-verify'],
      ['embedded-reference', 'verified'],
      ['notes.tar.gz', 'does-not-verify'],
    ]);
    const forged = column(m, 'Acme-Agents-2.3-3');
    expect(forged.reason).toMatch(/^report\.json: has SHA-256 [0-9a-f]{64}; the manifest says [0-9a-f]{64}: changed after the run$/);
    expect(forged.outcome).toBeUndefined();
    expect(m.requirements.every((r) => !('Acme-Agents-2.3-3' in r.cells))).toBe(true);
    expect(column(m, 'notes.tar.gz').reason).toMatch(/notes\.tar\.gz: is not a certification bundle \(/);
    // Checked with the signer's public key (--public-key): the edit came after signing, the manifest did not change.
    expect(m.columns.filter((c) => c.bundle !== undefined).map((c) => c.bundle!.signature)).toEqual(['verified', 'verified', 'verified', 'verified', 'verified']);
    expect(merged.stdout).toMatch(/^ {2}Acme Agents 2\.3 +does not verify +report\.json: has SHA-256 /m);
  });

  test('marks the columns that show one implementation twice', () => {
    const m = matrixOf(mergedDir);
    expect(column(m, 'Acme-Agents-2.3').duplicateOf).toEqual(['Acme-Agents-2.3-2', 'Acme-Agents-2.3-3']);
    expect(column(m, 'Acme-Agents-2.3-2').duplicateOf).toEqual(['Acme-Agents-2.3', 'Acme-Agents-2.3-3']);
    expect(column(m, 'embedded-reference').duplicateOf).toBeUndefined();
  });

  test('gives the verdicts the local matrix gave, each cell linking into the report taken out of its bundle', () => {
    const m = matrixOf(mergedDir);
    const mine = matrixOf(localDir);
    expect(m.disagreements).toEqual(mine.disagreements);
    for (const row of m.requirements) {
      const want = mine.requirements.find((r) => r.id === row.id)!;
      expect(row.cells['embedded-reference']?.verdict).toBe(want.cells['reference']?.verdict);
      expect(row.cells['Acme-Agents-2.3']?.verdict).toBe(want.cells['acme']?.verdict);
    }
    expectLinksResolve(mergedDir, m);
    // The folder is all a reader needs: each bundle was copied beside its report.
    for (const c of m.columns.filter((x) => x.bundle !== undefined)) expect(existsSync(join(mergedDir, c.bundle!.href!))).toBe(true);
    expect(column(m, 'Acme-Agents-2.3-3').report).toBeUndefined();
    expect(dirname(column(m, 'Acme-Agents-2.3').report!)).toBe('evidence/Acme-Agents-2.3');
  });

  test('links to a report.html written here when another build made the bundle: verify does not compare that build\'s pages', async () => {
    // An unsigned bundle whose manifest names another build, its report.html carrying a script:
    // intact (the digests match), but nothing vouches for that page.
    const files = readTarGz(readFileSync(join(localDir, column(matrixOf(localDir), 'reference').bundle!.href!)));
    const envelope = JSON.parse(files.get('manifest.json')!.toString('utf8')) as { payload: string };
    const statement = JSON.parse(Buffer.from(envelope.payload, 'base64').toString('utf8')) as Statement;
    const html = Buffer.from(files.get('report.html')!.toString('utf8').replace('</body>', '<script>document.title = "forged"</script></body>'));
    files.set('report.html', html);
    statement.subject.find((x) => x.name === 'report.html')!.digest.sha256 = createHash('sha256').update(html).digest('hex');
    statement.predicate.harness.packageDigest.sha256 = '0'.repeat(64);
    files.set('manifest.json', Buffer.from(JSON.stringify(statement, null, 2)));
    const other = join(work, 'other-build', 'bundle.tar.gz');
    mkdirSync(dirname(other));
    await writeTarGz(other, [...files].sort(([a], [b]) => (a < b ? -1 : 1)).map(([name, data]) => ({ name, size: data.length, data })), 0);
    const dir = mkdtempSync(join(work, 'page-'));
    const { column: c } = await bundleColumn(other, { matrixDir: dir, evidence: 'copy' });
    expect(c).toMatchObject({ state: 'verified', harness: { sameBuild: false }, report: 'evidence/embedded-reference/report.html' });
    const written = readFileSync(join(dir, c.report!), 'utf8');
    expect(written).not.toContain('forged');
    expect(written).toContain(`<tr id="r-${MISSING}">`);
  });
});

describe.skipIf(chromiumMissing() !== undefined)(`in headless Chromium${chromiumMissing() === undefined ? '' : ` (skipped: ${chromiumMissing()})`}`, () => {
  test.concurrent('a page that asks the network for something is caught asking (the check itself can fail)', async ({ expect }) => {
    const probe = join(work, 'probe.html');
    writeFileSync(probe, '<!doctype html><link rel="stylesheet" href="https://cdn.example.com/x.css"><p>probe</p><img src="http://img.example.org/a.png">');
    const r = await render(probe);
    expect(r.pageRequests.sort()).toEqual(['http://img.example.org/a.png', 'https://cdn.example.com/x.css']);
  });

  test.concurrent('matrix.html renders without the network, its verdicts and disagreements in the DOM', async ({ expect }) => {
    const r = await render(join(localDir, 'matrix.html'));
    expect(r.pageRequests).toEqual([]);
    expect(r.dom).toContain('Where implementations disagree');
    expect(r.dom).toMatch(/<th class="col" scope="col"><a href="#c-acme">acme<\/a><small>Acme Agents, version 2\.3<\/small><span class="outcome o-not-conformant">Not conformant<\/span><\/th>/);
    expect(r.dom).toContain(`<tr id="d-${MISSING}" class="disagree">`);
  });

  test.concurrent('report.html with its certificate panel, and the badge, render without the network', async ({ expect }) => {
    const m = matrixOf(localDir);
    const report = await render(join(localDir, column(m, 'acme').report!));
    expect(report.pageRequests).toEqual([]);
    expect(report.dom).toContain('<h1>Not conformant</h1>');
    expect(report.dom).toContain('<section id="certificate" class="certificate"><h2>Certification bundle</h2>');
    expect(report.dom).toContain(`<tr id="r-${MISSING}">`);
    const bundle = join(localDir, column(m, 'acme').bundle!.href!);
    const svg = join(work, 'badge.svg');
    const badge = await runCli(['badge', bundle, '--out', svg]);
    expect(badge.code, badge.stderr).toBe(0);
    const rendered = await render(svg);
    expect(rendered.pageRequests).toEqual([]);
    expect(rendered.dom).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"[^>]* aria-label="ASI v1: not conformant \(a subset of suites\) · \d+\/\d+ pass, \d+ fail · \d{4}-\d\d-\d\d">/);
  });
});
