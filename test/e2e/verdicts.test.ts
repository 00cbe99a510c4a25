import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import type { Report } from '../../lib/report/report-model.ts';
import { PREFLIGHT_TIMEOUT_MS } from '../../lib/runner/preflight.ts';
import { runCli, ROOT } from '../support/cli.ts';
import { referenceTarget, type ReferenceTarget } from '../support/reference-target.ts';

const targets: ReferenceTarget[] = [];
afterAll(async () => {
  for (const t of targets) await t.close();
});

async function target(...args: Parameters<typeof referenceTarget>): Promise<ReferenceTarget> {
  const t = await referenceTarget(...args);
  targets.push(t);
  return t;
}

function readReport(out: string): Report {
  const dir = readdirSync(out).find((f) => f !== 'profile.yaml')!;
  return JSON.parse(readFileSync(join(out, dir, 'report.json'), 'utf8')) as Report;
}

/**
 * The safety net for one CLI run of this file, never its pace: a run takes 2 to 8 s on an idle
 * machine and 16 to 22 s on two cores at load 12 with two CPU burners (measured), more while other
 * test files run beside it. A test allows this much for each run it makes (two at most unless it
 * says otherwise), so that it fails on what a run does, not on how fast the machine let it.
 */
const CLI_RUN_MS = 120_000;

const FAST_LIMITS = (yaml: string): string => `${yaml}\nlimits: { read: 30, write: 10, window_s: 4 }\n`;

/** No green by accident: --only runs exactly the tests of the id it names, in every area. */
describe('--only', { timeout: 2 * CLI_RUN_MS }, () => {
  test.each([
    ['openapi', 'openapi/9.3/documents-agree', 'openapi-yaml-differs'],
    ['unauthenticated', 'unauthenticated/4.2/no-token-needed', 'unauthenticated-health-requires-token'],
    ['auth', 'auth/5.3/missing-header', 'auth-missing-as-invalid'],
    ['errors', 'errors/7/envelope', 'errors-envelope-flat'],
    ['ledger', 'ledger/4.1/to-exclusive', 'ledger-to-inclusive'],
    ['ratelimit', 'ratelimit/8.1/pool-by-method', 'ratelimit-head-as-write'],
    ['conversation', 'conversation/2.4/response-fields', 'conversation-rest-without-conversation-id'],
  ])('%s: --only %s against the %s defect runs only that requirement and fails it', async (area, id, defect) => {
    const fast = area === 'ratelimit';
    const t = await target({ defects: [defect], ...(fast ? { limits: { read: 30, write: 10, windowS: 4 } } : {}) }, fast ? FAST_LIMITS : undefined);
    const out = mkdtempSync(join(tmpdir(), 'asi-only-'));
    const r = await runCli(['run', '--config', t.profile, '--only', id, '--out', out], { env: t.env });
    expect(r.code, r.stdout + r.stderr).toBe(1);
    // Every test the progress lines show declared the id (its title may start with another id it also checks).
    const ran = r.stderr.split('\n').flatMap((l) => /^ {2}[✓×!?-] (.*) \(\d+ ms\) {2}\[\d+ done, \d+s\]$/.exec(l)?.slice(1, 2) ?? []);
    expect(ran.length).toBeGreaterThan(0);
    const report = readReport(out);
    const declaring = report.results.find((x) => x.requirement.id === id)!.tests;
    for (const title of ran) expect(declaring).toContain(title);
    expect(report.outcome).toBe('not-conformant');
    expect(report.results.filter((x) => x.verdict !== 'not-run').map((x) => [x.requirement.id, x.verdict])).toEqual([[id, 'fail']]);
    expect(r.stdout).toContain(`× ${id}`);
    // Nor does it send what only the tests left out need: the other workspace's token, which the
    // exchange matrix's rows of pools just refilled spend from the run's start, sends nothing.
    expect(report.meta.requests.filter((q) => q.role === 'other_workspace')).toEqual([]);
  });

  test('prints the header of a suite only when a test of it runs', async () => {
    const r = await runCli(['run', '--only', 'auth/5.1/bearer-accepted', '--out', mkdtempSync(join(tmpdir(), 'asi-headers-'))]);
    expect(r.code, r.stderr).toBe(0);
    // A suite header is a line of its own: the suite's name, nothing else.
    expect(r.stderr.split('\n').filter((l) => /^[a-z-]+$/.test(l))).toEqual(['auth']);
    expect(r.stderr).toMatch(/\nauth\n {2}✓ auth\/5\.1\/bearer-accepted /);
  });

  test('a requirement only the run-wide rules judge: --only runs every test of the chosen suites and judges it on their exchanges', async () => {
    // No test names errors/7/json-media-type: chosen alone, it would have no exchange to judge.
    const id = 'errors/7/json-media-type';
    const out = mkdtempSync(join(tmpdir(), 'asi-only-run-wide-'));
    const r = await runCli(['run', '--defect', 'errors-json-as-text-plain', '--suite', 'auth', '--only', id, '--fail-on', 'should', '--out', out]);
    expect(r.code, r.stdout + r.stderr).toBe(1);
    const report = readReport(out);
    expect(report.results.filter((x) => x.verdict !== 'not-run').map((x) => [x.requirement.id, x.verdict])).toEqual([[id, 'fail']]);
    // Every test of the auth suite ran, though none names the id.
    const ran = r.stderr.split('\n').filter((l) => /^ {2}[✓×!?-] auth\//.test(l));
    expect(ran.length).toBeGreaterThan(5);
    expect(ran.some((l) => l.includes('auth/5.3/missing-header'))).toBe(true);
    expect(r.stdout).toContain(`× ${id}`);
  });

  test('an unknown id is refused with the nearest ids (exit 2); --skip takes ids too', async () => {
    const typo = await runCli(['run', '--only', 'auth/5.3/missing-headr']);
    expect(typo.code).toBe(2);
    expect(typo.stderr.trim()).toBe('asi-conformance: run: --only "auth/5.3/missing-headr" is not a requirement id; did you mean auth/5.3/missing-header?');
    const slug = await runCli(['run', '--skip', 'ledger/4.2/to-exclusive']);
    expect(slug.code).toBe(2);
    expect(slug.stderr).toContain('did you mean ledger/4.1/to-exclusive');
  });

  test('--skip leaves a requirement out of a run that otherwise passes: a partial run, exit 0, said so', async () => {
    const t = await target({ defects: ['auth-missing-as-invalid'] });
    const out = mkdtempSync(join(tmpdir(), 'asi-skip-'));
    const skip = ['--skip', 'auth/5.3/missing-header', '--skip', 'auth/5.3/token-outside-header'];
    const r = await runCli(['run', '--config', t.profile, '--suite', 'auth', ...skip, '--out', out, '-q'], { env: t.env });
    expect(r.code, r.stdout).toBe(0);
    expect(r.stdout).toMatch(/^PARTIAL RUN, NOT A CERTIFICATION: /m);
    const report = readReport(out);
    expect(report.outcome).toBe('partial');
    expect(report.results.find((x) => x.requirement.id === 'auth/5.3/missing-header')?.reason).toBe('left out with --skip (partial run)');
  });
});

describe('a run that could not judge a MUST is incomplete (exit 3)', { timeout: 2 * CLI_RUN_MS }, () => {
  test('an empty token variable counts as missing, and the closing list names each id and why', async () => {
    const t = await target();
    const out = mkdtempSync(join(tmpdir(), 'asi-incomplete-'));
    const r = await runCli(['run', '--config', t.profile, '--suite', 'auth', '--out', out, '-q'], { env: { ...t.env, ASI_TOKEN_REVOKED: '' } });
    // A partial run lists what it could not run but only fails on what broke.
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/- not-run +auth\/5\.4\/revoked-token +MUST +tokens\.revoked: ASI_TOKEN_REVOKED is set but empty/);
  });
});

describe('a full run', { timeout: 2 * CLI_RUN_MS }, () => {
  test('without some tokens, routes and hooks is incomplete (exit 3), naming each MUST it could not run and why', async () => {
    // A short window keeps it quick (and not a certification, which changes nothing here).
    const t = await target({ limits: { windowS: 4 } });
    const profile = join(t.dir, 'bare.yaml');
    writeFileSync(profile, `base_url: ${t.reference.baseUrl}\ntokens:\n  primary: { env: ASI_TOKEN }\n  revoked: { env: ASI_TOKEN_REVOKED }\nlimits: { window_s: 4 }\n`);
    const out = mkdtempSync(join(tmpdir(), 'asi-bare-'));
    const r = await runCli(['run', '--config', profile, '--out', out, '-q'], { env: { ASI_TOKEN: t.env['ASI_TOKEN']!, ASI_TOKEN_REVOKED: ' ' }, timeoutMs: 90_000 });
    expect(r.code, r.stdout).toBe(3);
    expect(r.stdout).toMatch(/^INCOMPLETE: /m);
    for (const line of [
      /- not-run +auth\/5\.4\/revoked-token +MUST +tokens\.revoked: ASI_TOKEN_REVOKED is set but empty/,
      /- not-run +auth\/5\.4\/expired-token +MUST +the profile names no expired token \(tokens\.expired\)/,
      /- not-run +conversation\/1\/rest-default +MUST +the profile lists no messages\.routes/,
      /- not-run +ratelimit\/7\/limiter-down-503 +MUST +the profile gives no faults\.limiter_store_down hook/,
    ]) {
      expect(r.stdout).toMatch(line);
    }
    const report = readReport(out);
    expect(report.outcome).toBe('incomplete');
    expect(report.incomplete.map((i) => i.id)).toContain('auth/5.4/revoked-token');
  });
});

describe('preflight', { timeout: 2 * CLI_RUN_MS }, () => {
  test('a web page where the API should be is refused (exit 2)', async () => {
    const page = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end('<!doctype html><title>Acme</title>');
    });
    await new Promise<void>((resolve) => page.listen(0, '127.0.0.1', resolve));
    const { port } = page.address() as AddressInfo;
    const out = mkdtempSync(join(tmpdir(), 'asi-page-'));
    const r = await runCli(['run', '--base-url', `http://127.0.0.1:${port}/v1`, '-q', '--out', out], { env: { ASI_TOKEN: 'asi_live_00' } });
    page.close();
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('does not look like an ASI v1 server: GET /me with tokens.primary ($ASI_TOKEN) answered 200 with a web page (text/html; charset=utf-8)');
    const report = readReport(out);
    expect(report.outcome).toBe('refused');
    expect(report.stopped?.exchanges.map((e) => `${e.request.url} ${e.response?.headers['content-type']}`)).toEqual([
      `http://127.0.0.1:${port}/v1/health text/html; charset=utf-8`,
      `http://127.0.0.1:${port}/v1/me text/html; charset=utf-8`,
    ]);
  });

  test('a firewall that blocks /me with a page, or a text refusal, is refused too (exit 2); a text payload of /me is not', async () => {
    for (const [type, body, expected] of [
      ['text/html', '<h1>Request blocked</h1>', 'answered 403 with a web page (text/html)'],
      ['text/plain', 'Forbidden', 'answered 403 with a body that is not JSON'],
    ] as const) {
      const waf = createServer((req, res) => {
        if (req.url?.endsWith('/health')) return void res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok"}');
        res.writeHead(403, { 'content-type': type });
        res.end(body);
      });
      await new Promise<void>((resolve) => waf.listen(0, '127.0.0.1', resolve));
      const { port } = waf.address() as AddressInfo;
      const r = await runCli(['run', '--base-url', `http://127.0.0.1:${port}/v1`, '-q', '--out', mkdtempSync(join(tmpdir(), 'asi-waf-'))], { env: { ASI_TOKEN: 'asi_live_00' } });
      waf.close();
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toContain(expected);
    }
    // §4.3: the payload of GET /me is not shown; a 200 in plain text passes the preflight.
    const plain = createServer((req, res) => {
      if (req.url?.endsWith('/me')) return void res.writeHead(200, { 'content-type': 'text/plain' }).end('token ok');
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok"}');
    });
    await new Promise<void>((resolve) => plain.listen(0, '127.0.0.1', resolve));
    const { port } = plain.address() as AddressInfo;
    const r = await runCli(['run', '--base-url', `http://127.0.0.1:${port}/v1`, '--only', 'auth/5.1/bearer-accepted', '-q', '--out', mkdtempSync(join(tmpdir(), 'asi-plain-'))], { env: { ASI_TOKEN: 'asi_live_00' } });
    plain.close();
    expect(r.stderr).not.toContain('does not look like an ASI v1 server');
  });

  test('a /health that never answers ends the run at the preflight deadline, however long --timeout is (exit 3)', async () => {
    const silent = createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as AddressInfo;
    const started = Date.now();
    const out = mkdtempSync(join(tmpdir(), 'asi-silent-'));
    const r = await runCli(['run', '--base-url', `http://127.0.0.1:${port}/v1`, '--timeout', '60', '-q', '--out', out], { env: { ASI_TOKEN: 'asi_live_00' }, timeoutMs: 60_000 });
    const took = Date.now() - started;
    silent.closeAllConnections();
    silent.close();
    expect(r.code).toBe(3);
    expect(r.stderr).toContain(`within the deadline of ${PREFLIGHT_TIMEOUT_MS} ms`);
    expect(took).toBeGreaterThanOrEqual(PREFLIGHT_TIMEOUT_MS);
    expect(took).toBeLessThan(PREFLIGHT_TIMEOUT_MS + 10_000);
    expect(readReport(out).outcome).toBe('unreachable');
  }, 60_000);

  test('a rejected token ends the run within seconds with one line (exit 2), and every report says so', async () => {
    const t = await target();
    const out = mkdtempSync(join(tmpdir(), 'asi-rejected-'));
    const started = Date.now();
    const r = await runCli(['run', '--config', t.profile, '-q', '--out', out], { env: { ...t.env, ASI_TOKEN: 'asi_live_0000000000000000000000000000dead' } });
    expect(r.code).toBe(2);
    const cause = 'token rejected: 401 auth.token_invalid at GET /me; check tokens.primary ($ASI_TOKEN): it must be a live token of this server\'s workspace';
    expect(r.stderr.trim()).toBe(`asi-conformance: ${cause}`);
    expect(Date.now() - started).toBeLessThan(10_000);
    // Where the reports are, on stdout as after any run.
    const dir = join(out, readdirSync(out)[0]!);
    expect(r.stdout).toMatch(new RegExp(`^reports: ${dir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/ \\(report\\.json, junit\\.xml, summary\\.md, report\\.html, transcript\\.har\\)\nbundle: .*bundle\\.tar\\.gz .*\n$`));
    expect(readdirSync(dir).sort()).toEqual(['bundle.tar.gz', 'junit.xml', 'report.html', 'report.json', 'summary.md', 'transcript.har']);
    const report = readReport(out);
    expect(report).toMatchObject({ outcome: 'refused', exitCode: 2, incomplete: [{ reason: cause }], stopped: { at: 'preflight', reason: cause } });
    expect(report.counts['not-run']).toBe(report.results.length);
    expect(report.stopped?.exchanges.map((e) => [e.seq, e.request.url, e.response?.status])).toEqual([
      [1, `${t.reference.baseUrl}/health`, 200],
      [2, `${t.reference.baseUrl}/me`, 401],
    ]);
    const text = (file: string): string => readFileSync(join(dir, file), 'utf8');
    expect(text('junit.xml')).toContain(`<testcase name="preflight" classname="run"><failure message="${cause.replace(/'/g, '&#39;')}" type="refused">`);
    expect(text('summary.md')).toContain(`### Stopped at the preflight\n\n\`\`\`\n${cause}\n\`\`\``);
    expect(text('summary.md')).toContain('< 401 Unauthorized');
    expect(text('report.html')).toContain('<section id="stopped"><h2>Stopped at the preflight</h2>');
    const har = JSON.parse(text('transcript.har')) as { log: { entries: Array<{ request: { url: string; headers: Array<{ name: string; value: string }> } }> } };
    expect(har.log.entries.map((e) => e.request.url)).toEqual([`${t.reference.baseUrl}/health`, `${t.reference.baseUrl}/me`]);
    expect(har.log.entries[1]!.request.headers).toContainEqual({ name: 'authorization', value: 'Bearer $ASI_TOKEN' });
    for (const f of readdirSync(dir)) expect(text(f)).not.toContain('0000dead');
  });

  test("the preflight's exchanges are in the run's record, numbered before the suites' and never twice", async () => {
    const t = await target();
    const out = mkdtempSync(join(tmpdir(), 'asi-record-'));
    const r = await runCli(['run', '--config', t.profile, '--suite', 'unauthenticated', '-q', '--out', out], { env: t.env });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const dir = join(out, readdirSync(out)[0]!);
    const har = JSON.parse(readFileSync(join(dir, 'transcript.har'), 'utf8')) as { log: { entries: Array<{ request: { url: string }; _asi: { seq: number; tokenRole: string | null } }> } };
    const entries = har.log.entries;
    expect(entries.slice(0, 2).map((e) => [e._asi.seq, e.request.url, e._asi.tokenRole])).toEqual([
      [1, `${t.reference.baseUrl}/health`, null],
      [2, `${t.reference.baseUrl}/me`, 'primary'],
    ]);
    const seqs = entries.map((e) => e._asi.seq);
    expect(seqs.length).toBeGreaterThan(2);
    expect(new Set(seqs).size).toBe(seqs.length);
    // The request counts read the same record.
    const report = readReport(out);
    expect(report.meta.requests.reduce((n, c) => n + c.requests, 0)).toBe(entries.length);
  });

  test('a base_url without its version segment is refused with the URL tried and a hint (exit 2)', async () => {
    const t = await target();
    const origin = new URL(t.reference.baseUrl).origin;
    const out = mkdtempSync(join(tmpdir(), 'asi-version-'));
    const r = await runCli(['run', '--base-url', origin, '-q', '--out', out], { env: t.env });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`GET ${origin}/health answered 404`);
    expect(r.stderr).toContain(`did you mean --base-url ${origin}/v1 ?`);
    // The probe of the /v1 it suggests is part of the record too.
    expect(readReport(out).stopped?.exchanges.map((e) => [e.seq, e.request.url, e.response?.status])).toEqual([
      [1, `${origin}/health`, 404],
      [2, `${origin}/v1/health`, 200],
    ]);
    // Another version segment is replaced, not extended.
    const v2 = await runCli(['run', '--base-url', `${origin}/v2`, '-q', '--out', mkdtempSync(join(tmpdir(), 'asi-version-'))], { env: t.env });
    expect(v2.code).toBe(2);
    expect(v2.stderr).toContain(`did you mean --base-url ${origin}/v1 ?`);
  });
});

describe('waivers (--expect)', { timeout: 2 * CLI_RUN_MS }, () => {
  const id = 'auth/5.3/missing-header';
  function expectations(entry: string): string {
    const file = join(mkdtempSync(join(tmpdir(), 'asi-expect-')), 'expectations.yaml');
    writeFileSync(file, `expectations:\n  ${id}:\n${entry}`);
    return file;
  }

  test('an expected failure does not fail the run, shows as waived, and the run is not a certification', async () => {
    const t = await target({ defects: ['auth-missing-as-invalid'] });
    const out = mkdtempSync(join(tmpdir(), 'asi-waived-'));
    const file = expectations('    status: fail\n    reason: gateway answers token_invalid\n    issue: https://tracker.example.com/ASI-1\n    expires: 2999-12-31\n');
    const r = await runCli(['run', '--config', t.profile, '--only', id, '--expect', file, '--out', out, '-q'], { env: t.env });
    expect(r.code, r.stdout).toBe(0);
    expect(r.stdout).toMatch(/~ waived +auth\/5\.3\/missing-header +MUST +waived: fail expected until 2999-12-31: gateway answers token_invalid/);
    const report = readReport(out);
    expect(report.meta.certifying).toBe(false);
    expect(report.results.find((x) => x.requirement.id === id)?.waiver?.state).toBe('waived');
    const summary = readFileSync(join(out, readdirSync(out)[0]!, 'summary.md'), 'utf8');
    expect(summary).toContain('| `auth/5.3/missing-header` | MUST | waived (fail) |');
  });

  test('an unexpected pass says fixed; an expired waiver fails the run', async () => {
    const t = await target();
    const fixed = await runCli(['run', '--config', t.profile, '--only', id, '--expect', expectations('    status: fail\n    reason: old bug\n'), '-q', '--out', mkdtempSync(join(tmpdir(), 'asi-fixed-'))], { env: t.env });
    expect(fixed.code).toBe(0);
    expect(fixed.stdout).toContain('fixed: it passes now; remove the waiver');
    const expired = await runCli(['run', '--config', t.profile, '--only', id, '--expect', expectations('    status: fail\n    reason: old bug\n    expires: 2020-01-31\n'), '-q', '--out', mkdtempSync(join(tmpdir(), 'asi-expired-'))], { env: t.env });
    expect(expired.code).toBe(1);
    expect(expired.stdout).toContain('waiver expired on 2020-01-31');
  });

  test.each([
    ['an unknown id', '  auth/5.3/missing-headr:\n    status: fail\n    reason: x y z\n', 'expectations.auth/5.3/missing-headr: is not a requirement id; did you mean auth/5.3/missing-header?'],
    ['a bad status', `  ${id}:\n    status: broken\n    reason: x y z\n`, `expectations.${id}.status: expected one of fail, warn, not-run`],
    ['a bad date', `  ${id}:\n    status: fail\n    reason: x y z\n    expires: next week\n`, `expectations.${id}.expires: expected a date YYYY-MM-DD`],
    ['a date not on the calendar', `  ${id}:\n    status: fail\n    reason: x y z\n    expires: 2027-02-30\n`, `expectations.${id}.expires: 2027-02-30 is not a date on the calendar`],
  ])('a file with %s is refused naming the key (exit 2)', async (_what, body, message) => {
    const file = join(mkdtempSync(join(tmpdir(), 'asi-expect-')), 'e.yaml');
    writeFileSync(file, `expectations:\n${body}`);
    const r = await runCli(['run', '--expect', file]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toBe(`asi-conformance: ${file}: ${message}`);
  });
});

describe('baselines (--baseline, diff)', { timeout: 2 * CLI_RUN_MS }, () => {
  // Six runs of the CLI one after another: the timeout bounds a hang, not their speed (the bench measures that).
  test('a known failure passes the gate, a new one fails it; diff says which', { timeout: 6 * CLI_RUN_MS }, async () => {
    const only = ['--only', 'auth/5.3/missing-header', '--only', 'errors/7/category-value', '-q'];
    const before = await target({ defects: ['auth-missing-as-invalid'] });
    const outA = mkdtempSync(join(tmpdir(), 'asi-base-a-'));
    expect((await runCli(['run', '--config', before.profile, ...only, '--out', outA], { env: before.env })).code).toBe(1);
    const baselineFile = join(outA, readdirSync(outA)[0]!, 'report.json');

    const same = await runCli(['run', '--config', before.profile, ...only, '--baseline', baselineFile, '--out', mkdtempSync(join(tmpdir(), 'asi-base-b-'))], { env: before.env });
    expect(same.code, same.stdout).toBe(0);
    expect(same.stdout).toContain('still failing: auth/5.3/missing-header');
    // The headline and the gate say why a run that is not conformant exits 0.
    expect(same.stdout).toMatch(/^NOT CONFORMANT \(baseline gate passes: exit 0\): /m);
    expect(same.stdout).toMatch(/^baseline gate: exit 0: no regression against baseline run \S+: only known failures, 1 requirement failing as in the baseline$/m);

    // The same known failure under an expired waiver: the waiver ran out, so the gate fails.
    const waivers = join(mkdtempSync(join(tmpdir(), 'asi-expect-')), 'expectations.yaml');
    writeFileSync(waivers, 'expectations:\n  auth/5.3/missing-header:\n    status: fail\n    reason: old bug\n    expires: 2020-01-31\n');
    const lapsed = await runCli(['run', '--config', before.profile, ...only, '--baseline', baselineFile, '--expect', waivers, '--out', mkdtempSync(join(tmpdir(), 'asi-base-e-'))], { env: before.env });
    expect(lapsed.code, lapsed.stdout).toBe(1);
    expect(lapsed.stdout).toMatch(/^baseline gate: exit 1: no regression against baseline run \S+, but 1 waiver expired: auth\/5\.3\/missing-header \(renew the waiver or fix the failure\)$/m);

    const worse = await target({ defects: ['auth-missing-as-invalid', 'errors-category-unknown'] });
    const outC = mkdtempSync(join(tmpdir(), 'asi-base-c-'));
    const regressed = await runCli(['run', '--config', worse.profile, ...only, '--baseline', baselineFile, '--out', outC], { env: worse.env });
    expect(regressed.code).toBe(1);
    expect(regressed.stdout).toContain('new failures: errors/7/category-value (pass -> fail)');

    const diff = await runCli(['diff', baselineFile, join(outC, readdirSync(outC)[0]!, 'report.json')]);
    expect(diff.code).toBe(1);
    expect(diff.stdout).toContain('REGRESSED: 1 new failure');
    expect(diff.stdout.trim().split('\n').at(-1)).toBe('exit 1: a regression');
    const back = await runCli(['diff', join(outC, readdirSync(outC)[0]!, 'report.json'), baselineFile]);
    expect(back.code).toBe(0);
    expect(back.stdout).toContain('fixed: errors/7/category-value (fail -> pass)');
  });

  test('diff refuses a file that is not a report (exit 2)', async () => {
    const r = await runCli(['diff', join(ROOT, 'package.json'), join(ROOT, 'package.json')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('is not an asi-conformance report.json');
  });
});

describe('the report names what it tested and where nothing local shows', { timeout: 2 * CLI_RUN_MS }, () => {
  test('--label and --impl-version name the implementation; the profile is embedded without secrets or local paths', async () => {
    const t = await target();
    const out = mkdtempSync(join(tmpdir(), 'asi-label-'));
    const r = await runCli(['run', '--config', t.profile, '--only', 'auth/5.1/bearer-accepted', '--label', 'Acme ASI gateway', '--impl-version', '2.4.1', '--out', out, '-q'], {
      env: t.env,
    });
    expect(r.code).toBe(0);
    const dir = join(out, readdirSync(out)[0]!);
    const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as Report;
    expect(report.meta.implementation).toEqual({ label: 'Acme ASI gateway', version: '2.4.1' });
    expect(JSON.stringify(report.meta.profile)).toContain('"primary":"$ASI_TOKEN"');
    for (const f of readdirSync(dir)) {
      const text = readFileSync(join(dir, f), 'utf8');
      for (const local of [ROOT.replace(/\/$/, ''), tmpdir(), homedir(), process.execPath]) expect(text, `${f} shows ${local}`).not.toContain(local);
      for (const token of Object.values(t.env)) expect(text).not.toContain(token);
    }
  });
});

describe('the implementation under test, from the profile', { timeout: 2 * CLI_RUN_MS }, () => {
  test('implementation.label and .version name it in every report; the flags win over them', async () => {
    const t = await target({}, (yaml) => `${yaml}\nimplementation: { label: Acme staging, version: 9.9.0 }\n`);
    const out = mkdtempSync(join(tmpdir(), 'asi-impl-'));
    expect((await runCli(['run', '--config', t.profile, '--only', 'auth/5.1/bearer-accepted', '--out', out, '-q'], { env: t.env })).code).toBe(0);
    expect(readReport(out).meta.implementation).toEqual({ label: 'Acme staging', version: '9.9.0' });
    const summary = readFileSync(join(out, readdirSync(out)[0]!, 'summary.md'), 'utf8');
    expect(summary).toContain('Acme staging');
    const flags = mkdtempSync(join(tmpdir(), 'asi-impl-'));
    expect((await runCli(['run', '--config', t.profile, '--only', 'auth/5.1/bearer-accepted', '--impl-version', '9.9.1', '--out', flags, '-q'], { env: t.env })).code).toBe(0);
    expect(readReport(flags).meta.implementation).toEqual({ label: 'Acme staging', version: '9.9.1' });
  });
});

describe('--seed', { timeout: 2 * CLI_RUN_MS }, () => {
  test('takes a negative seed as printed, in either form', async () => {
    for (const args of [['--seed', '-1029384756'], ['--seed=-1029384756']]) {
      const r = await runCli(['run', '--suite', 'auth', ...args, '-q', '--out', mkdtempSync(join(tmpdir(), 'asi-seed-'))]);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toContain('(seed -1029384756)');
    }
  });
});
