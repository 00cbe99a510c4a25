import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { readTarGz } from '../../lib/certification/tar-reader.ts';
import { writeTarGz } from '../../lib/certification/tar-writer.ts';
import { runCli } from '../support/cli.ts';
import { referenceTarget, type ReferenceTarget } from '../support/reference-target.ts';

/**
 * `replay`: a failing requirement's recorded requests sent again to another server, judged by the
 * same checkers. The bundle comes from a reference with a defect; the fixed server is a clean one,
 * with tokens of its own in the environment under the variables the run named.
 */
const ID = 'auth/5.3/missing-header';
const work = mkdtempSync(join(tmpdir(), 'asi-replay-'));
let broken: ReferenceTarget;
let fixed: ReferenceTarget;
let bundle = '';

beforeAll(async () => {
  broken = await referenceTarget({ defects: ['auth-missing-as-invalid'] });
  fixed = await referenceTarget();
  const out = join(work, 'run');
  const r = await runCli(['run', '--config', broken.profile, '--suite', 'auth', '--out', out, '-q'], { env: broken.env });
  expect(r.code, r.stdout + r.stderr).toBe(1);
  bundle = join(out, readdirSync(out)[0]!, 'bundle.tar.gz');
}, 60_000);

afterAll(async () => {
  await broken.close();
  await fixed.close();
  rmSync(work, { recursive: true, force: true });
});

describe('replay', () => {
  test('against the fixed server: then failed, now passes (exit 0); the tokens come from the environment and never show', async () => {
    const r = await runCli(['replay', bundle, '--only', ID, '--base-url', fixed.reference.baseUrl], { env: fixed.env });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toContain(`replaying against ${fixed.reference.baseUrl} what run `);
    expect(r.stdout).toMatch(new RegExp(`^${ID.replace(/\//g, '\\/')} \\(fail in the bundle\\)$`, 'm'));
    expect(r.stdout).toMatch(/^ {4}then {2}× fail {9}expected HTTP 401, code auth\.token_missing, category permanent; actual HTTP 401, code auth\.token_invalid, category permanent$/m);
    expect(r.stdout).toMatch(/^ {4}now {3}✓ pass$/m);
    expect(r.stdout.trim().split('\n').at(-1)).toBe('PASSES NOW: every replayed judgement found no failure');
    for (const token of Object.values(fixed.env)) expect(r.stdout + r.stderr).not.toContain(token);
  });

  test('against the server still broken: still failing (exit 1)', async () => {
    const r = await runCli(['replay', bundle, '--only', ID, '--base-url', broken.reference.baseUrl], { env: broken.env });
    expect(r.code, r.stdout + r.stderr).toBe(1);
    expect(r.stdout).toMatch(/^ {4}now {3}× fail/m);
    expect(r.stdout.trim().split('\n').at(-1)).toMatch(/^STILL FAILING: \d+ of \d+ replayed judgements found a failure$/);
  });

  test('a bundle that does not verify is not replayed; an unknown id gets the nearest (exit 2)', async () => {
    const files = new Map(readTarGz(readFileSync(bundle)));
    files.delete('summary.md');
    const tampered = join(work, 'tampered.tar.gz');
    await writeTarGz(tampered, [...files].sort(([a], [b]) => (a < b ? -1 : 1)).map(([name, data]) => ({ name, size: data.length, data })), 0);
    const r = await runCli(['replay', tampered, '--only', ID, '--base-url', fixed.reference.baseUrl], { env: fixed.env });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^asi-conformance: .*tampered\.tar\.gz: does not verify \(.*\); its record cannot be trusted to replay\n$/);
    const unknown = await runCli(['replay', bundle, '--only', 'auth/5.3/missing-headers', '--base-url', fixed.reference.baseUrl]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('replay: --only "auth/5.3/missing-headers" is not a requirement id; did you mean auth/5.3/missing-header?');
  });

  test('a base URL that is no http URL is a usage error (exit 2); a server that never answers is unreachable (exit 3)', async () => {
    const garbled = await runCli(['replay', bundle, '--only', ID, '--base-url', 'foo'], { env: fixed.env });
    expect(garbled.code).toBe(2);
    expect(garbled.stderr).toBe('asi-conformance: replay: --base-url "foo" is not a URL; expected for example https://api.example.com/v1\n');
    const away = await runCli(['replay', bundle, '--only', ID, '--base-url', 'http://127.0.0.1:1/v1'], { env: fixed.env });
    expect(away.code, away.stdout + away.stderr).toBe(3);
    expect(away.stderr).toMatch(/target http:\/\/127\.0\.0\.1:1\/v1 is unreachable: none of the \d+ requests replayed got an answer/);
  });

  test('a token the run used that this shell has not exported stops the replay, naming its variable (exit 2)', async () => {
    const { ASI_TOKEN: _primary, ...others } = fixed.env;
    const r = await runCli(['replay', bundle, '--only', 'auth/5.1/bearer-accepted', '--base-url', fixed.reference.baseUrl], { env: others });
    expect(r.code, r.stdout + r.stderr).toBe(2);
    expect(r.stderr).toContain('environment variable ASI_TOKEN is not set');
  });

  test('a requirement the run did not judge has nothing to replay (exit 3)', async () => {
    const r = await runCli(['replay', bundle, '--only', 'ratelimit/8.1/limit-enforced', '--base-url', fixed.reference.baseUrl], { env: fixed.env });
    expect(r.code).toBe(3);
    expect(r.stdout).toContain('nothing to replay: no finding of this requirement came from a recorded judgement');
  });
});

/**
 * A token this shell lacks, wherever the recorded request carries it: sent as its placeholder,
 * a server that still has the defect refuses it, and that refusal would read as the fix.
 */
describe('replay with a token the request carries and this shell lacks', () => {
  const carriers = [
    { carrier: 'a header', defect: 'auth-other-scheme-invalid', id: 'auth/7/other-scheme', where: /carry \$ASI_TOKEN in .*the authorization header \(GET \/me\)/ },
    { carrier: 'the query string', defect: 'auth-query-token-accepted', id: 'auth/5.3/token-outside-header', where: /carry \$ASI_TOKEN in .*the query string \(GET \/me\?access_token=\$ASI_TOKEN\)/ },
    { carrier: 'the body', defect: 'auth-body-token-accepted', id: 'auth/5.3/token-outside-header', where: /carry \$ASI_TOKEN in .*the body \(POST \// },
    { carrier: 'a cookie', defect: 'auth-cookie-token-accepted', id: 'auth/5.3/token-outside-header', where: /carry \$ASI_TOKEN in .*the cookie header \(GET \/me\)/ },
  ] as const;
  const still: ReferenceTarget[] = [];
  afterAll(async () => {
    for (const t of still) await t.close();
  });

  test.each(carriers)('in $carrier ($defect): the replay stops, naming the variable (exit 2), and never passes', async ({ defect, id, where }) => {
    const target = await referenceTarget({ defects: [defect] });
    still.push(target);
    const out = join(work, `carrier-${defect}`);
    const run = await runCli(['run', '--config', target.profile, '--only', id, '--out', out, '-q'], { env: target.env });
    expect(run.code, run.stdout + run.stderr).toBe(1);
    const recorded = join(out, readdirSync(out)[0]!, 'bundle.tar.gz');
    const { ASI_TOKEN: _primary, ...others } = target.env;
    const r = await runCli(['replay', recorded, '--only', id, '--base-url', target.reference.baseUrl], { env: others });
    expect(r.code, r.stdout + r.stderr).toBe(2);
    expect(r.stderr).toMatch(where);
    expect(r.stderr).toContain('tokens.primary: environment variable ASI_TOKEN is not set (export ASI_TOKEN=<token>)');
    expect(r.stdout).not.toContain('PASSES NOW');
    // With the token exported, the same request goes out as recorded and the defect still shows.
    const again = await runCli(['replay', recorded, '--only', id, '--base-url', target.reference.baseUrl], { env: target.env });
    expect(again.code, again.stdout + again.stderr).toBe(1);
  }, 60_000);
});
