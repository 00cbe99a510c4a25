import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { EXCHANGES_RECORD, MANIFEST_NAME } from '../../lib/certification/bundle-layout.ts';
import type { DsseEnvelope } from '../../lib/certification/dsse.ts';
import { openBundle } from '../../lib/certification/open-bundle.ts';
import { rederivedReport } from '../../lib/certification/report-verdicts.ts';
import { generateKeyPair, loadPublicKey } from '../../lib/certification/signing-key.ts';
import { predicateOf, type Statement } from '../../lib/certification/statement.ts';
import { readTarGz } from '../../lib/certification/tar-reader.ts';
import { writeTarGz } from '../../lib/certification/tar-writer.ts';
import { verifyBundle, type Verification } from '../../lib/certification/verify-bundle.ts';
import { harnessIdentity } from '../../lib/certification/harness-identity.ts';
import type { Report } from '../../lib/report/report-model.ts';
import { renderReport, REPORT_FILE_NAMES, type ReportFormat } from '../../lib/report/write-reports.ts';
import { ROOT, runCli } from '../support/cli.ts';
import { referenceTarget, type ReferenceTarget } from '../support/reference-target.ts';

/**
 * The certification bundle end to end: runs of the CLI write bundles, then each is verified as
 * written and with one thing changed, the way someone editing a submission would change it. Runs
 * are partial (the auth suite, a second each) against the embedded reference or a reference with
 * a defect; the full certification is verified in certify-reference.test.ts.
 */

const work = mkdtempSync(join(tmpdir(), 'asi-bundle-'));
const targets: ReferenceTarget[] = [];
const ID = 'auth/5.3/missing-header';

let passing = '';
let failing = '';
let waived = '';
let signed = '';
let limited = '';
let keys = '';
/** The verify command each run printed, by its bundle. */
const printed = new Map<string, string>();

afterAll(async () => {
  for (const t of targets) await t.close();
  rmSync(work, { recursive: true, force: true });
});

function bundleIn(out: string): string {
  const run = readdirSync(out)[0]!;
  return join(out, run, 'bundle.tar.gz');
}

async function run(args: string[], env: Record<string, string> = {}): Promise<string> {
  const out = mkdtempSync(join(work, 'run-'));
  const r = await runCli(['run', ...args, '--out', out, '-q'], { env });
  expect([0, 1], r.stdout + r.stderr).toContain(r.code);
  // Run in the clone: the bare name is not on PATH there, npx runs the clone's own bin.
  const line = /^bundle: .*bundle\.tar\.gz \(sha256 [0-9a-f]{16}…, (unsigned|signed by key [0-9a-f]{16}…)\); check it offline: (npx asi-conformance verify .*)$/m.exec(r.stdout);
  expect(line, r.stdout).not.toBeNull();
  const bundle = bundleIn(out);
  printed.set(bundle, line![2]!);
  return bundle;
}

/** A command line run as the user would paste it: through a shell, in the folder the run was in. */
function shell(command: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn('/bin/sh', ['-c', command], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

beforeAll(async () => {
  passing = await run(['--suite', 'auth']);
  const defect = await referenceTarget({ defects: ['auth-missing-as-invalid'] });
  targets.push(defect);
  failing = await run(['--config', defect.profile, '--suite', 'auth'], defect.env);
  const expect_ = join(work, 'waivers.yaml');
  writeFileSync(expect_, `expectations:\n  ${ID}:\n    status: fail\n    reason: the gateway answers token_invalid\n`);
  waived = await run(['--config', defect.profile, '--only', ID, '--expect', expect_], defect.env);
  const limits = join(work, 'limited.yaml');
  writeFileSync(limits, `${readFileSync(defect.profile, 'utf8')}\nlimits:\n  read: 30\n  write: 10\n  window_s: 4\n`);
  limited = await run(['--config', limits, '--only', ID, '--expect', expect_, '--label', 'Acme Agents', '--impl-version', '2.3.1'], defect.env);
  keys = join(work, 'keys');
  const keygen = await runCli(['keygen', '--out', keys], { env: { ASI_SIGN_KEY_PASSPHRASE: 'correct horse battery' } });
  expect(keygen.code, keygen.stderr).toBe(0);
  signed = await run(['--suite', 'auth', '--sign-key', join(keys, 'asi-signing-key.pem')], { ASI_SIGN_KEY_PASSPHRASE: 'correct horse battery' });
}, 120_000);

/** The files of an archive, to change one and pack them again. */
function filesOf(bundle: string): Map<string, Buffer> {
  return new Map(readTarGz(readFileSync(bundle)));
}

function sha256(data: Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}

/** The manifest of an unsigned bundle with every subject's digest computed again: a forger's last step. */
function redigested(files: Map<string, Buffer>, edit: (s: Statement) => void = () => {}): Map<string, Buffer> {
  const statement = JSON.parse(files.get(MANIFEST_NAME)!.toString('utf8')) as Statement;
  statement.subject = [...files.keys()].filter((n) => n !== MANIFEST_NAME).sort().map((name) => ({ name, digest: { sha256: sha256(files.get(name)!) } }));
  edit(statement);
  files.set(MANIFEST_NAME, Buffer.from(JSON.stringify(statement, null, 2)));
  return files;
}

async function packed(files: Map<string, Buffer>): Promise<string> {
  const out = join(mkdtempSync(join(work, 'tampered-')), 'bundle.tar.gz');
  const entries = [...files].sort(([a], [b]) => (a < b ? -1 : 1)).map(([name, data]) => ({ name, size: data.length, data }));
  await writeTarGz(out, entries, 0);
  return out;
}

async function verified(bundle: string, publicKey?: string): Promise<Verification> {
  return verifyBundle(openBundle(bundle), publicKey === undefined ? {} : { publicKey: { ...loadPublicKey(publicKey), file: publicKey } });
}

function problemLines(v: Verification): string[] {
  return v.problems.map((p) => `${p.file}${p.requirement === undefined ? '' : ` ${p.requirement}`}: ${p.message}`);
}

function reportOf(files: Map<string, Buffer>): Report {
  return JSON.parse(files.get('report.json')!.toString('utf8')) as Report;
}

async function rendered(format: ReportFormat, report: Report, files: Map<string, Buffer>): Promise<Buffer> {
  const record = join(mkdtempSync(join(work, 'record-')), 'exchanges.jsonl');
  writeFileSync(record, files.get(EXCHANGES_RECORD)!);
  const panel = { copy: 'inside' as const, bundle: { path: 'bundle.tar.gz', form: 'tar.gz' as const }, recordSha256: '', verifyCommand: '' };
  let text = '';
  for await (const piece of renderReport(format, report, record, format === 'html' ? panel : undefined)) text += piece;
  return Buffer.from(text);
}

/** Every report rendered again from `report`, and the manifest's predicate and digests made to match: a thorough forgery. */
async function forged(files: Map<string, Buffer>, report: Report): Promise<Map<string, Buffer>> {
  for (const format of ['json', 'junit', 'md', 'html'] as const) files.set(REPORT_FILE_NAMES[format], await rendered(format, report, files));
  return redigested(files, (s) => {
    s.predicate = { ...predicateOf(report, harnessIdentity()), platform: s.predicate.platform };
  });
}

describe('the printed verify command', () => {
  test('runs as printed, through a shell, where the run was: exit 0, intact', async () => {
    const r = await shell(printed.get(passing)!);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toContain('INTACT: ');
  });

  test('a signed run names the public key keygen wrote beside the signing key, and the signature verifies with it', async () => {
    const command = printed.get(signed)!;
    expect(command).toBe(`npx asi-conformance verify ${signed} --public-key ${join(keys, 'asi-signing-key.pub.pem')}`);
    const r = await shell(command);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^ {2}signature {3}Ed25519, key [0-9a-f]{64}: verified with .*asi-signing-key\.pub\.pem$/m);
  });
});

describe('verify', () => {
  test('an untouched bundle verifies: intact, and a partial run says it is no certification', async () => {
    const r = await runCli(['verify', passing]);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^ {2}manifest {4}in-toto Statement v1 listing 8 files, every SHA-256 matches$/m);
    expect(r.stdout).toMatch(/^ {2}verdicts {4}\d+ verdicts re-derived from \d+ findings; counts, outcome partial and exit code 0 follow from them$/m);
    expect(r.stdout).toMatch(/^ {2}citations {3}\d+ exchanges cited by findings, each as the record holds it \(\d+ exchanges recorded\)$/m);
    expect(r.stdout).toContain('INTACT: every file is as the run wrote it, every judgement re-runs to the same findings on the recorded exchanges, every verdict follows from those findings, and every exchange they cite is in the record as cited.');
    expect(r.stdout).toMatch(/^ {2}judgements  (\d+) of \1 judgements re-run by their checkers on the recorded exchanges, with the same findings; \d+ findings of the report traced to them$/m);
    expect(r.stdout.trim().split('\n').at(-1)).toBe(
      'REFERENCE DEMO, NOT A CERTIFICATION: a demo of the embedded reference implementation, not of an implementation under test; a subset of suites; only chosen suites or requirements ran (--suite, --only or --skip): a certification runs them all',
    );
    const strict = await runCli(['verify', passing, '--require-certification']);
    expect(strict.code).toBe(1);
  });

  test('a failing run verifies too: the bundle is intact, the outcome is what it is', async () => {
    const v = await verified(failing);
    expect(problemLines(v)).toEqual([]);
    expect(v.outcome?.outcome).toBe('not-conformant');
    expect(v.certification.because).toContain('the outcome is not-conformant');
  });

  test('a byte changed in the record is named, with the exchange a finding cites from it', async () => {
    const files = filesOf(failing);
    const report = reportOf(files);
    const cited = report.results.find((r) => r.requirement.id === ID)!.findings[0]!.exchanges[0]!;
    const record = files.get(EXCHANGES_RECORD)!.toString('utf8');
    const line = record.split('\n').find((l) => l.startsWith(`{"seq":${cited.seq},`))!;
    files.set(EXCHANGES_RECORD, Buffer.from(record.replace(line, line.replace('auth.token_invalid', 'auth.token_missin'))));
    const lineNo = record.split('\n').indexOf(line) + 1;
    const v = await verified(await packed(files));
    const lines = problemLines(v);
    expect(lines[0]).toMatch(new RegExp(`^record/exchanges\\.jsonl: has SHA-256 [0-9a-f]{64}; the manifest says [0-9a-f]{64}: changed after the run: line ${lineNo} \\(exchange #${cited.seq}, \\w+ http://127\\.0\\.0\\.1:\\d+/v1/[^)]*\\) differs from the exchanges transcript\\.har holds as the run recorded them$`));
    expect(lines).toContainEqual(expect.stringMatching(new RegExp(`^report\\.json ${ID}: finding 1 cites exchange #${cited.seq} \\(\\w+ http://127\\.0\\.0\\.1:\\d+/v1/[^)]*\\); it differs from the record at response\\.body from character \\d+: the finding shows ".*token_invalid.*", the record ".*token_missin\\\\".*"$`)));
    // Only the record was changed: every other problem follows from it.
    expect(v.problems.slice(1).every((p) => p.consequenceOf?.join() === EXCHANGES_RECORD), lines.join('\n')).toBe(true);
  });

  test('report.json edited after the run: named first as changed; the reports written from it follow as consequences', async () => {
    const files = filesOf(failing);
    files.set('report.json', Buffer.from(files.get('report.json')!.toString('utf8').replace('"verdict": "fail"', '"verdict": "pass"')));
    const r = await runCli(['verify', await packed(files)]);
    expect(r.code).toBe(1);
    const problems = r.stdout.split('\n').filter((l) => /^ {2}[×↳] /.test(l));
    expect(problems[0]).toMatch(/^ {2}× report\.json: has SHA-256 [0-9a-f]{64}; the manifest says [0-9a-f]{64}: changed after the run$/);
    const consequences = problems.filter((l) => l.startsWith('  ↳ '));
    // transcript.har takes only the run's facts from report.json: a verdict changed leaves it as it was.
    expect(consequences).toEqual(
      ['junit.xml', 'summary.md', 'report.html'].map((name) => expect.stringMatching(new RegExp(`^ {2}↳ follows from the change to report\\.json: ${name.replace('.', '\\.')} \\(as the run wrote it\\): is not what this harness writes from report\\.json \\(they differ from line \\d+\\)$`))),
    );
    // The changed file and what its own content shows come before every consequence.
    expect(problems.findIndex((l) => l.startsWith('  ↳ '))).toBeGreaterThan(problems.findLastIndex((l) => l.startsWith('  × ')));
  });

  test('a verdict changed in report.json is named with the verdict its findings give', async () => {
    const files = filesOf(failing);
    const text = files.get('report.json')!.toString('utf8');
    const at = text.indexOf(`"id": "${ID}"`);
    const verdict = text.indexOf('"verdict": "fail"', at);
    files.set('report.json', Buffer.from(text.slice(0, verdict) + '"verdict": "pass"' + text.slice(verdict + '"verdict": "fail"'.length)));
    const v = await verified(await packed(redigested(files)));
    expect(problemLines(v)).toContain(`report.json ${ID}: says verdict "pass"; its findings give "fail"`);
    expect(v.intact).toBe(false);
    const cli = await runCli(['verify', await packed(files)]);
    expect(cli.code).toBe(1);
    expect(cli.stdout).toContain(`  × report.json ${ID}: says verdict "pass"; its findings give "fail"`);
  });

  test('a failure turned into a pass throughout (findings, exchanges shown, counts, every report, the manifest) is caught by the record', async () => {
    const files = filesOf(failing);
    const report = reportOf(files);
    const forgedIds = report.results.filter((r) => r.verdict === 'fail').map((r) => r.requirement.id);
    expect(forgedIds).toContain(ID);
    for (const f of report.results.flatMap((r) => r.findings).filter((x) => x.verdict === 'fail')) {
      f.verdict = 'pass';
      delete f.expected;
      delete f.actual;
      for (const ex of f.exchanges) if (ex.response !== undefined) ex.response.body = ex.response.body.replace('auth.token_invalid', 'auth.token_missing');
    }
    const again = rederivedReport(report);
    const forgery = { ...report, results: again.results, counts: again.counts, outcome: again.outcome, exitCode: again.exitCode, incomplete: again.incomplete, meta: again.meta };
    expect(forgery.outcome).toBe('partial');
    const v = await verified(await packed(await forged(files, forgery)));
    const lines = problemLines(v);
    const cited = lines.filter((l) => / cites exchange #/.test(l));
    const judged = lines.filter((l) => / judgement j\d+ #\d+ says /.test(l));
    expect(cited.length + judged.length).toBe(lines.length);
    for (const l of cited) expect(l).toMatch(new RegExp(`^report\\.json (${forgedIds.join('|')}): finding \\d+ cites exchange #\\d+ \\(\\w+ http://127\\.0\\.0\\.1:\\d+/v1/[^)]*\\); it differs from the record at response\\.body from character \\d+: the finding shows ".*auth\\.token_missing.*", the record ".*auth\\.token_invalid.*"$`));
    for (const l of judged) expect(l).toMatch(new RegExp(`^report\\.json (${forgedIds.join('|')}): the report says verdict "pass", judgement j\\d+ #\\d+ says "fail"$`));
    expect(cited.length).toBeGreaterThan(0);
    expect(judged.length).toBeGreaterThan(0);
  });

  test('a failure turned into a pass in its findings only, the exchanges left as recorded, is caught by the judgements', async () => {
    const files = filesOf(failing);
    const report = reportOf(files);
    for (const f of report.results.flatMap((r) => r.findings).filter((x) => x.verdict === 'fail')) {
      f.verdict = 'pass';
      delete f.expected;
      delete f.actual;
    }
    const again = rederivedReport(report);
    const forgery = { ...report, results: again.results, counts: again.counts, outcome: again.outcome, exitCode: again.exitCode, incomplete: again.incomplete, meta: again.meta };
    const v = await verified(await packed(await forged(files, forgery)));
    expect(problemLines(v)).toContainEqual(expect.stringMatching(new RegExp(`^report\\.json ${ID}: the report says verdict "pass", judgement j\\d+ #\\d+ says "fail"$`)));
    expect(v.intact).toBe(false);
  });

  test('a finding citing an exchange the record lacks is named', async () => {
    const files = filesOf(failing);
    const cited = reportOf(files).results.find((r) => r.requirement.id === ID)!.findings[0]!.exchanges[0]!;
    const kept = files.get(EXCHANGES_RECORD)!.toString('utf8').split('\n').filter((l) => !l.startsWith(`{"seq":${cited.seq},`));
    files.set(EXCHANGES_RECORD, Buffer.from(kept.join('\n')));
    expect(problemLines(await verified(await packed(redigested(files))))).toContainEqual(expect.stringMatching(new RegExp(`^record/exchanges\\.jsonl ${ID}: finding 1 cites exchange #${cited.seq} \\(GET [^)]+\\), which the record lacks$`)));
  });

  test('a file removed, a file added, a report edited after the run: each named', async () => {
    const removed = filesOf(passing);
    removed.delete('summary.md');
    expect(problemLines(await verified(await packed(removed)))).toEqual(['summary.md: is listed in the manifest but missing from the bundle: removed after the run']);
    const added = filesOf(passing);
    added.set('record/notes.jsonl', Buffer.from('{"note":"trust me"}\n'));
    expect(problemLines(await verified(await packed(added)))).toEqual(['record/notes.jsonl: is in the bundle but not in the manifest: added after the run']);
    const edited = filesOf(passing);
    edited.set('summary.md', Buffer.from(edited.get('summary.md')!.toString('utf8').replace('partial run', 'conformant')));
    expect(problemLines(await verified(await packed(redigested(edited))))).toEqual([expect.stringMatching(/^summary\.md: is not what this harness writes from report\.json \(they differ from line \d+\)$/)]);
  });

  test('a run with a waiver and --only verifies as intact, and says why it is no certification', async () => {
    const v = await verified(waived);
    expect(problemLines(v)).toEqual([]);
    expect(v.certification.certifying).toBe(false);
    expect(v.certification.because).toEqual([
      'only chosen suites or requirements ran (--suite, --only or --skip): a certification runs them all',
      expect.stringMatching(/^1 result is waived by .*waivers\.yaml$/),
    ]);
  });

  test('another requirement catalogue, or another build of this version, is said plainly', async () => {
    const other = await verified(await packed(redigested(filesOf(passing), (s) => void (s.predicate.catalogueDigest.sha256 = 'a'.repeat(64)))));
    expect(problemLines(other)).toEqual([
      'manifest.json: made by asi-conformance 0.2.0 with another requirement catalogue (sha256 aaaaaaaaaaaaaaaa…): this verifier (0.2.0) cannot re-derive its verdicts; verify with that version: npx asi-conformance@0.2.0 verify',
    ]);
    const modified = await verified(await packed(redigested(filesOf(passing), (s) => void (s.predicate.harness.packageDigest.sha256 = 'b'.repeat(64)))));
    expect(problemLines(modified)).toEqual([]);
    expect(modified.certification.because).toContainEqual(
      expect.stringMatching(/^asi-conformance 0\.2\.0 made it, but its package digest \(bbbbbbbbbbbbbbbb…\) is not this verifier's \([0-9a-f]{16}…\): a locally modified harness \(or a different build\) made this run, or this verifier is one$/),
    );
  });

  test('not a bundle, or a hostile archive: one line, exit 2', async () => {
    const text = join(work, 'notes.txt');
    writeFileSync(text, 'hello');
    const r = await runCli(['verify', text]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toBe(`asi-conformance: ${text}: is not a certification bundle (the bundle.tar.gz or --bundle-dir folder a run writes, with its manifest.json): not a gzip file`);
    const folder = mkdtempSync(join(work, 'not-a-bundle-'));
    writeFileSync(join(folder, '.java'), '');
    writeFileSync(join(folder, 'hosts'), '127.0.0.1 localhost\n');
    const notBundle = await runCli(['verify', folder]);
    expect(notBundle.code).toBe(2);
    expect(notBundle.stderr.trim()).toBe(`asi-conformance: ${folder}: is not a certification bundle (the bundle.tar.gz or --bundle-dir folder a run writes, with its manifest.json): a folder without manifest.json (it holds .java, hosts)`);
    const missing = await runCli(['verify', join(work, 'none.tar.gz')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('none.tar.gz: no such file or folder');
  });
});

describe('signed bundles', () => {
  test('verify with the signer\'s public key: verified; without it: intact, signature not checked', async () => {
    const r = await runCli(['verify', signed, '--public-key', join(keys, 'asi-signing-key.pub.pem')]);
    expect(r.code, r.stdout).toBe(0);
    expect(r.stdout).toMatch(/^ {2}signature {3}Ed25519, key [0-9a-f]{64}: verified with .*asi-signing-key\.pub\.pem$/m);
    const v = await verified(signed);
    expect(v.intact).toBe(true);
    expect(v.signature.state).toBe('not-checked');
  });

  test('the wrong public key is named, and so is a key given for an unsigned bundle', async () => {
    const other = generateKeyPair(join(work, 'other-keys'), {});
    const v = await verified(signed, other.publicFile);
    expect(problemLines(v)).toEqual([expect.stringMatching(new RegExp(`^manifest\\.json: is signed by key [0-9a-f]{64}, not by the key of --public-key .*other-keys/asi-signing-key\\.pub\\.pem \\(${other.keyid}\\)$`))]);
    expect(problemLines(await verified(passing, other.publicFile))).toEqual([expect.stringMatching(/^manifest\.json: is not signed, but --public-key .* was given: a signed bundle was expected$/)]);
  });

  test('a payload changed under the signature is named', async () => {
    const files = filesOf(signed);
    const envelope = JSON.parse(files.get(MANIFEST_NAME)!.toString('utf8')) as DsseEnvelope;
    const statement = JSON.parse(Buffer.from(envelope.payload, 'base64').toString('utf8')) as Statement;
    statement.predicate.run.seed += 1;
    envelope.payload = Buffer.from(JSON.stringify(statement, null, 2)).toString('base64');
    files.set(MANIFEST_NAME, Buffer.from(JSON.stringify(envelope)));
    const lines = problemLines(await verified(await packed(files), join(keys, 'asi-signing-key.pub.pem')));
    expect(lines).toEqual([
      expect.stringMatching(/^manifest\.json: its signature by key [0-9a-f]{64} does not verify: the manifest was changed after it was signed$/),
      expect.stringMatching(/^manifest\.json: disagrees with report\.json at predicate\.run\.seed: the manifest says \d+, report\.json \d+$/),
    ]);
  });
});

describe('the certificate panel', () => {
  test('report.html beside the bundle shows its digest and the verify command; the copy inside shows the record\'s digest', () => {
    const beside = readFileSync(join(dirname(signed), 'report.html'), 'utf8');
    const digest = createHash('sha256').update(readFileSync(signed)).digest('hex');
    expect(beside).toContain(`<dt>Bundle digest</dt><dd><code>${digest}</code> (SHA-256 of the archive)</dd>`);
    expect(beside).toMatch(/<dt>Verify offline<\/dt><dd><code>npx asi-conformance verify [^<]*bundle\.tar\.gz(&#39;)? --public-key [^<]*\/keys\/asi-signing-key\.pub\.pem(&#39;)?<\/code><\/dd>/);
    const files = filesOf(signed);
    const inside = files.get('report.html')!.toString('utf8');
    expect(inside).toContain(`<dt>Record digest</dt><dd><code>${sha256(files.get(EXCHANGES_RECORD)!)}</code>`);
    expect(inside).toContain('this copy of the report is inside the bundle, which cannot hold its own digest');
    expect(inside).not.toContain('<script src');
  });
});

describe('badge', () => {
  test('written from a bundle that verifies; refused (exit 1, no file) for one that does not', async () => {
    const r = await runCli(['badge', passing]);
    expect(r.code, r.stderr).toBe(0);
    const svg = readFileSync(join(dirname(passing), 'badge.svg'), 'utf8');
    // The embedded reference's run: a demo, never "certified", never another name.
    expect(r.stdout).toMatch(/^badge: .*badge\.svg \(reference demo: a demo of the embedded reference implementation, not of an implementation under test\)$/m);
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" width="\d+" height="20" role="img" aria-label="ASI v1: reference demo, partial \(a subset of suites\) · \d+ pass · \d{4}-\d{2}-\d{2}">/);
    expect(svg).toMatch(/<title>ASI v1 conformance of the embedded reference implementation \(a demo of the embedded reference implementation, not of an implementation under test\): reference demo, partial \(a subset of suites\) · \d+ pass · [^<]*made by asi-conformance 0\.2\.0; bundle sha256 [0-9a-f]{64}, verified with asi-conformance 0\.2\.0; not a certification: /);
    expect(svg).not.toContain('certified');
    const files = filesOf(passing);
    files.delete('junit.xml');
    const tampered = await packed(files);
    const refused = await runCli(['badge', tampered]);
    expect(refused.code).toBe(1);
    expect(refused.stderr.trim()).toBe(`asi-conformance: badge: ${tampered} does not verify, no badge written: junit.xml: is listed in the manifest but missing from the bundle: removed after the run`);
    expect(existsSync(join(dirname(tampered), 'badge.svg'))).toBe(false);
  });
});

describe('what a run left out shows on its badge and verify\'s verdict line', () => {
  test('a subset, a waiver and limits other than the spec\'s, each said', async () => {
    const v = await runCli(['verify', limited]);
    expect(v.code, v.stdout + v.stderr).toBe(0);
    expect(v.stdout.trim().split('\n').at(-1)).toMatch(/^NOT A CERTIFICATION: a subset of requirements; with 1 waiver; at limits other than the spec's; /);
    const svg = join(work, 'limited.svg');
    const b = await runCli(['badge', limited, '--out', svg]);
    expect(b.code, b.stderr).toBe(0);
    expect(readFileSync(svg, 'utf8')).toContain('aria-label="ASI v1: partial (a subset of requirements, with 1 waiver, at limits other than the spec&#39;s) · ');
    expect(readFileSync(svg, 'utf8')).toContain("<title>ASI v1 conformance of Acme Agents 2.3.1: partial (a subset of requirements, with 1 waiver, at limits other than the spec's) · ");
  });
});

describe('--bundle-dir and --no-bundle', () => {
  test('a bundle folder verifies like the archive; a folder that holds files is refused before the run', async () => {
    const folder = join(work, 'bundle-folder');
    const out = mkdtempSync(join(work, 'run-'));
    const r = await runCli(['run', '--only', ID, '--bundle-dir', folder, '--out', out, '-q']);
    expect(r.code, r.stderr).toBe(0);
    expect(readdirSync(folder).sort()).toEqual(['junit.xml', 'manifest.json', 'profile.yaml', 'record', 'report.html', 'report.json', 'summary.md', 'transcript.har']);
    expect(readdirSync(join(out, readdirSync(out)[0]!))).not.toContain('bundle.tar.gz');
    const v = await runCli(['verify', folder]);
    expect(v.code, v.stdout).toBe(0);
    expect(v.stdout).toContain('(folder, 9 files, manifest sha256 ');
    const again = await runCli(['run', '--only', ID, '--bundle-dir', folder]);
    expect(again.code).toBe(2);
    expect(again.stderr.trim()).toBe(`asi-conformance: run: --bundle-dir ${folder} is not empty: a bundle folder holds exactly the bundle's files (give a new or empty folder)`);
    const none = mkdtempSync(join(work, 'run-'));
    expect((await runCli(['run', '--only', ID, '--no-bundle', '--out', none, '-q'])).code).toBe(0);
    expect(readdirSync(join(none, readdirSync(none)[0]!))).not.toContain('bundle.tar.gz');
  });

  test('--sign-key with a wrong passphrase, or without one, is refused before the run (exit 2)', async () => {
    const key = join(keys, 'asi-signing-key.pem');
    const wrong = await runCli(['run', '--only', ID, '--sign-key', key], { env: { ASI_SIGN_KEY_PASSPHRASE: 'wrong' } });
    expect(wrong.code).toBe(2);
    expect(wrong.stderr.trim()).toBe(`asi-conformance: ${key}: the passphrase in ASI_SIGN_KEY_PASSPHRASE does not decrypt the key`);
    const unset = await runCli(['run', '--only', ID, '--sign-key', key], { env: { ASI_SIGN_KEY_PASSPHRASE: '' } });
    expect(unset.stderr.trim()).toBe(`asi-conformance: ${key}: the key is encrypted: set its passphrase in ASI_SIGN_KEY_PASSPHRASE`);
  });
});
