import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { clientRequirements } from '../../lib/catalogue/client.ts';
import { readTarGz } from '../../lib/certification/tar-reader.ts';
import { parseXml, type XmlElement } from '../report/xml-tree.ts';
import { runCli, type CliResult } from '../support/cli.ts';

/**
 * A client grading's outputs, as a server run's: the five reports, a signed bundle that verify
 * re-derives from the recorded trace, waivers, and the usage error of an --out it cannot write.
 * One scenario (permanent) keeps each grading short.
 */

const CLIENT = ['node', 'examples/reference-client/client.mjs'];
const FAILED = 'client/7/no-retry-permanent';
const REPORTS = ['report.json', 'junit.xml', 'summary.md', 'report.html', 'transcript.har'];
/** A token is `<prefix>_live_<hex>`: none may appear in any output. */
const TOKEN = /_live_[0-9a-f]{8,}/;
const PASSPHRASE = { ASI_SIGN_KEY_PASSPHRASE: 'correct horse battery' };

const work = mkdtempSync(join(tmpdir(), 'asi-client-out-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

interface Graded extends CliResult {
  dir: string;
}

async function grade(name: string, flags: string[], env: NodeJS.ProcessEnv): Promise<Graded> {
  const out = join(work, name);
  const result = await runCli(['client', '--seed', '11', '--scenario', 'permanent', '--out', out, ...flags, '--', ...CLIENT], { env: { ...PASSPHRASE, ...env }, timeoutMs: 180_000 });
  const [runDir] = readdirSync(out);
  return { ...result, dir: join(out, runDir ?? '') };
}

function casesOf(root: XmlElement): XmlElement[] {
  return root.children.flatMap((suite) => suite.children.filter((c) => c.name === 'testcase'));
}

let failing: Graded;
let waived: Graded;
let keys: string;

beforeAll(async () => {
  keys = join(work, 'keys');
  const keygen = await runCli(['keygen', '--out', keys], { env: PASSPHRASE });
  expect(keygen.code, keygen.stderr).toBe(0);
  const waivers = join(work, 'waivers.yaml');
  writeFileSync(waivers, `expectations:\n  ${FAILED}:\n    status: fail\n    reason: the SDK retries once on purpose until 2.0\n`);
  [failing, waived] = await Promise.all([
    grade('failing', ['--sign-key', join(keys, 'asi-signing-key.pem')], { ASI_CLIENT_DEFECT: 'retry-400' }),
    grade('waived', ['--expect', waivers], { ASI_CLIENT_DEFECT: 'retry-400' }),
  ]);
}, 200_000);

describe('a failing client grading', () => {
  test('exits 1 and writes the five reports, each well-formed', () => {
    expect(failing.code, failing.stdout + failing.stderr).toBe(1);
    for (const name of REPORTS) expect(readdirSync(failing.dir)).toContain(name);
    const report = JSON.parse(readFileSync(join(failing.dir, 'report.json'), 'utf8')) as { scenarios: { trace: unknown[] }[]; verdicts: { requirement: { id: string }; verdict: string }[] };
    expect(report.verdicts.find((v) => v.requirement.id === FAILED)?.verdict).toBe('fail');

    const junit = parseXml(readFileSync(join(failing.dir, 'junit.xml'), 'utf8'));
    const cases = casesOf(junit);
    expect(cases.map((c) => c.attributes['name']?.split(' ')[0])).toEqual(clientRequirements.map((r) => r.id));
    const failed = cases.find((c) => c.attributes['name']?.startsWith(FAILED))!;
    const failure = failed.children.find((c) => c.name === 'failure');
    expect(failure?.attributes['message']).toContain('sent again unchanged');
    expect(failure?.text).toMatch(/> \+\d+\.\d\d s GET /);

    const har = JSON.parse(readFileSync(join(failing.dir, 'transcript.har'), 'utf8')) as { log: { entries: { request: { headers: { name: string; value: string }[] }; response: { status: number } }[] } };
    expect(har.log.entries).toHaveLength(report.scenarios[0]!.trace.length);
    expect(har.log.entries.map((e) => e.response.status)).toContain(400);
    expect(har.log.entries[0]!.request.headers).toContainEqual({ name: 'authorization', value: 'Bearer $ASI_TOKEN' });

    const html = readFileSync(join(failing.dir, 'report.html'), 'utf8');
    const svgs = [...html.matchAll(/<svg class="timeline"[^>]*>([\s\S]*?)<\/svg>/g)];
    expect(svgs).toHaveLength(1);
    expect(svgs[0]![1]).toMatch(/^<title id="[^"]+">Scenario permanent: requests over time/);
    // The request the failing requirement judged is ringed.
    expect(svgs[0]![1]).toContain('class="judged"');
    expect(html).toContain('<figcaption');
  });

  test('no token in the console, any report or any file of the bundle', () => {
    const bundle = readTarGz(readFileSync(join(failing.dir, 'bundle.tar.gz')));
    const texts = [failing.stdout, failing.stderr, ...REPORTS.map((n) => readFileSync(join(failing.dir, n), 'utf8')), ...[...bundle].map(([, data]) => data.toString('utf8'))];
    for (const text of texts) expect(text).not.toMatch(TOKEN);
  });

  test('verify passes the genuine signed bundle and names the file tampered with', async () => {
    const bundle = join(failing.dir, 'bundle.tar.gz');
    const publicKey = join(keys, 'asi-signing-key.pub.pem');
    const genuine = await runCli(['verify', bundle, '--public-key', publicKey]);
    expect(genuine.code, genuine.stdout + genuine.stderr).toBe(0);
    expect(genuine.stdout).toMatch(/verified with/);
    expect(genuine.stdout).toMatch(new RegExp(`${clientRequirements.length} client verdicts re-derived from \\d+ recorded request`));

    const files = new Map(readTarGz(readFileSync(bundle)));
    for (const [name, edit] of [
      ['record/trace.jsonl', (t: string) => t.replace('"status":400', '"status":200')],
      ['report.json', (t: string) => t.replace('"verdict": "fail"', '"verdict": "pass"')],
    ] as const) {
      const dir = mkdtempSync(join(work, 'tampered-'));
      for (const [n, data] of files) {
        mkdirSync(dirname(join(dir, n)), { recursive: true });
        writeFileSync(join(dir, n), n === name ? edit(data.toString('utf8')) : data);
      }
      expect(readFileSync(join(dir, name), 'utf8')).not.toBe(files.get(name)!.toString('utf8'));
      const tampered = await runCli(['verify', dir, '--public-key', publicKey]);
      expect(tampered.code, tampered.stdout).toBe(1);
      expect(tampered.stdout).toContain(`× ${name}: has SHA-256`);
      expect(tampered.stdout).toContain('changed after the run');
    }
  });
});

test('a waiver turns the failing client requirement into waived, exit 0', () => {
  expect(waived.code, waived.stdout + waived.stderr).toBe(0);
  const report = JSON.parse(readFileSync(join(waived.dir, 'report.json'), 'utf8')) as { outcome: string; verdicts: { requirement: { id: string }; verdict: string; waiver?: { state: string } }[] };
  const v = report.verdicts.find((x) => x.requirement.id === FAILED)!;
  expect([v.verdict, v.waiver?.state, report.outcome]).toEqual(['fail', 'waived', 'conformant']);
  expect(waived.stdout).toContain('waived: fail expected');
  const junit = casesOf(parseXml(readFileSync(join(waived.dir, 'junit.xml'), 'utf8')));
  expect(junit.find((c) => c.attributes['name']?.startsWith(FAILED))?.children.map((c) => c.name)).toContain('skipped');
});

test('an --out that cannot be written is one usage line, exit 2, before any scenario runs', async () => {
  const file = join(work, 'a-file');
  writeFileSync(file, 'not a folder');
  const result = await runCli(['client', '--scenario', 'permanent', '--out', join(file, 'reports'), '--', ...CLIENT]);
  expect(result.code).toBe(2);
  expect(result.stderr.trim().split('\n')).toHaveLength(1);
  expect(result.stderr).toMatch(/client: --out ".*a-file\/reports" /);
  expect(result.stdout).not.toContain('scenario permanent');
});

test('with the failing grading as --baseline, the same failure again exits 0 and says so; a clean baseline keeps it at 1', { timeout: 200_000 }, async () => {
  const clean = join(work, 'clean-baseline.json');
  const report = JSON.parse(readFileSync(join(failing.dir, 'report.json'), 'utf8')) as { verdicts: { verdict: string }[] };
  writeFileSync(clean, JSON.stringify({ ...report, verdicts: report.verdicts.map((v) => ({ ...v, verdict: 'pass' })) }));
  const [known, regressed] = await Promise.all([
    grade('known', ['--baseline', join(failing.dir, 'report.json'), '--no-bundle'], { ASI_CLIENT_DEFECT: 'retry-400' }),
    grade('regressed', ['--baseline', clean, '--no-bundle'], { ASI_CLIENT_DEFECT: 'retry-400' }),
  ]);
  expect(known.code, known.stdout + known.stderr).toBe(0);
  expect(known.stdout).toContain(`still failing as in the baseline: ${FAILED}`);
  expect(regressed.code, regressed.stdout + regressed.stderr).toBe(1);
  expect(regressed.stdout).toContain(`regressed: ${FAILED}`);
  expect(readdirSync(known.dir)).not.toContain('bundle.tar.gz');
});

test('a server run\'s report as --baseline is one usage line, exit 2', async () => {
  const file = join(work, 'server-report.json');
  writeFileSync(file, JSON.stringify({ schemaVersion: 1, meta: { runId: 'x' }, results: [] }));
  const result = await runCli(['client', '--baseline', file, '--', ...CLIENT]);
  expect(result.code).toBe(2);
  expect(result.stderr.trim().split('\n')).toHaveLength(1);
  expect(result.stderr).toContain('is not the report.json of a client grading');
});

test('a streamed turn: what the client wrote to its result file is in the bundle, and verify judges it again', async () => {
  const out = join(work, 'streams');
  const r = await runCli(['client', '--seed', '5', '--scenario', 'streams', '--out', out, '--', ...CLIENT], { timeoutMs: 180_000 });
  expect(r.code, r.stdout + r.stderr).toBe(0);
  const dir = join(out, readdirSync(out)[0]!);
  const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as { verdicts: Array<{ requirement: { id: string }; verdict: string }> };
  expect(report.verdicts.find((v) => v.requirement.id === 'client/6/stream-final-state')?.verdict).toBe('pass');
  const verified = await runCli(['verify', join(dir, 'bundle.tar.gz')]);
  expect(verified.code, verified.stdout + verified.stderr).toBe(0);
});

test('a command that cannot start is nothing judged, exit 3, and the console says why', async () => {
  const result = await runCli(['client', '--scenario', 'permanent', '--out', join(work, 'no-command'), '--no-bundle', '--', 'asi-no-such-command']);
  expect(result.code).toBe(3);
  expect(result.stdout).toContain('the client did not start (ENOENT: asi-no-such-command)');
});
