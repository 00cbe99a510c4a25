import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { bundledReport } from '../../lib/certification/bundled-report.ts';
import { openBundle } from '../../lib/certification/open-bundle.ts';
import { rederivedReport } from '../../lib/certification/report-verdicts.ts';
import { verifyBundle } from '../../lib/certification/verify-bundle.ts';
import type { Report } from '../../lib/report/report-model.ts';
import { runCli } from '../support/cli.ts';

const work = mkdtempSync(join(tmpdir(), 'asi-preflight-bundle-'));
const servers: Server[] = [];
afterAll(async () => {
  for (const s of servers) await new Promise((r) => s.close(r));
  rmSync(work, { recursive: true, force: true });
});

/** A server on port 0 that answers 404 to everything: no ASI v1 server there. */
async function notAnAsiServer(): Promise<string> {
  const server = createServer((_req, res) => res.writeHead(404, { 'content-type': 'text/plain' }).end('not found'));
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
}

/** A port that was free a moment ago: nothing answers there. */
async function closedPort(): Promise<string> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  await new Promise((r) => server.close(r));
  return `http://127.0.0.1:${port}/v1`;
}

/**
 * A run the preflight ends writes its reports and bundle all the same (every requirement not run);
 * verify derives that report again, the preflight's outcome read from the exchanges it recorded.
 */
describe('the bundle of a run the preflight ended', () => {
  test.each([
    ['unreachable', closedPort, 3],
    ['refused', notAnAsiServer, 2],
  ] as const)('%s: verifies, its outcome re-derived from the recorded preflight', async (outcome, target, code) => {
    const out = mkdtempSync(join(work, `${outcome}-`));
    const r = await runCli(['run', '--base-url', await target(), '--suite', 'auth', '-q', '--out', out], { env: { ASI_TOKEN: 'acme_live_0123456789abcdef0123456789abcdef' } });
    expect(r.code, r.stderr).toBe(code);
    const bundle = openBundle(join(out, readdirSync(out)[0]!, 'bundle.tar.gz'));
    const v = await verifyBundle(bundle);
    expect(v.problems).toEqual([]);
    expect(v.outcome?.outcome).toBe(outcome);
    // The outcome comes from the record, not from what report.json says of itself.
    const report = (bundledReport(bundle) as { report: Report }).report;
    const other = outcome === 'refused' ? 'unreachable' : 'refused';
    expect(rederivedReport({ ...report, outcome: other }).outcome).toBe(outcome);
  });
});
