import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { runCli } from '../support/cli.ts';

const TOKEN = 'asi_live_feedfacefeedfacefeedfacefeedface';

type Behaviour = (res: ServerResponse, req: IncomingMessage) => void;

async function serve(behaviour: Behaviour): Promise<{ url: string; server: Server; hits: () => number }> {
  let hits = 0;
  const server = createServer((req, res) => {
    hits += 1;
    req.resume();
    behaviour(res, req);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, server, hits: () => hits };
}

const servers: Server[] = [];

/** Answers the preflight (GET /health and GET /me) as an ASI server would; true when it did. */
function passesPreflight(req: IncomingMessage, res: ServerResponse): boolean {
  if (req.url !== '/v1/health' && req.url !== '/v1/me') return false;
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end('{}');
  return true;
}
afterAll(async () => {
  for (const s of servers) {
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
});

async function certifyAgainst(behaviour: Behaviour) {
  const target = await serve(behaviour);
  servers.push(target.server);
  const out = mkdtempSync(join(tmpdir(), 'asi-hostile-'));
  const started = Date.now();
  const result = await runCli(['run', '--base-url', `${target.url}/v1`, '--suite', 'auth', '--suite', 'errors', '--suite', 'unauthenticated', '--timeout', '1', '--out', out, '-q'], {
    env: { ASI_TOKEN: TOKEN },
    timeoutMs: 90_000,
  });
  const runDir = readdirSync(out)[0];
  const report = runDir === undefined ? undefined : (JSON.parse(readFileSync(join(out, runDir, 'report.json'), 'utf8')) as { outcome: string });
  return { result, report, seconds: (Date.now() - started) / 1000, out: runDir === undefined ? out : join(out, runDir), target };
}

/** A hostile or broken target yields findings or inconclusive verdicts: never a crash, never a hang. */
describe('a hostile target', () => {
  test('that answers 200 with garbage gets failures, not a crash', async () => {
    const { result, report } = await certifyAgainst((res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('\u0000\u00ff{not json at all');
    });
    expect(result.stderr).not.toContain('internal error');
    expect(result.code).toBe(1);
    expect(report?.outcome).toBe('not-conformant');
  });

  test('that sends a body larger than the cap is cut off, not read whole', async () => {
    const chunk = Buffer.alloc(1024 * 1024, 'x');
    const { result, report } = await certifyAgainst((res, req) => {
      if (passesPreflight(req, res)) return;
      res.writeHead(401, { 'content-type': 'application/json' });
      let sent = 0;
      const pump = (): void => {
        while (sent < 64 && res.write(chunk)) sent += 1;
        if (sent < 64) res.once('drain', pump);
        else res.end();
      };
      pump();
    });
    expect(result.stderr).not.toContain('internal error');
    expect([1, 3]).toContain(result.code);
    expect(report).toBeDefined();
  });

  test('that accepts connections and never answers is reported unreachable (exit 3)', async () => {
    const { result, seconds } = await certifyAgainst(() => {
      /* never answers */
    });
    expect(result.code).toBe(3);
    expect(result.stderr).toMatch(/unreachable: UND_ERR_HEADERS_TIMEOUT/);
    expect(seconds).toBeLessThan(60);
  });

  test('that answers /health but hangs on everything else is unreachable at the preflight (exit 3) within seconds', async () => {
    const { result, seconds } = await certifyAgainst((res, req) => {
      if (req.url === '/v1/health') res.end('{}');
    });
    expect(result.code).toBe(3);
    expect(result.stderr).toMatch(/unreachable: UND_ERR_HEADERS_TIMEOUT/);
    expect(seconds).toBeLessThan(20);
  });

  test('that stops answering mid-run ends the run within seconds (exit 3), with a report that says so', async () => {
    let requests = 0;
    const { result, report, seconds } = await certifyAgainst((res, req) => {
      requests += 1;
      // The preflight and a few requests get answers; then the target is gone for good.
      if (requests > 6) return;
      if (passesPreflight(req, res)) return;
      res.writeHead(401, { 'content-type': 'application/json' });
      res.end('{"error":{"code":"auth.token_missing","category":"permanent","message":"no","request_id":"r"}}');
    });
    expect(result.code).toBe(3);
    expect((report as { cutShort?: string } | undefined)?.cutShort).toMatch(/the target stopped answering/);
    expect(result.stdout).toMatch(/^INCOMPLETE: /m);
    expect(seconds).toBeLessThan(20);
  });

  test('that redirects the preflight is refused with one line (exit 2) and no request follows it', async () => {
    const elsewhere = await serve((res) => res.end('{}'));
    servers.push(elsewhere.server);
    const { result } = await certifyAgainst((res) => {
      res.writeHead(302, { location: `${elsewhere.url}/v1/me` });
      res.end();
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('redirects are never followed');
    expect(elsewhere.hits()).toBe(0);
    expect(result.stderr + result.stdout).not.toContain(TOKEN);
  });

  test('that redirects to another origin is not followed and gets no token', async () => {
    const elsewhere = await serve((res) => res.end('{}'));
    servers.push(elsewhere.server);
    const { result, out } = await certifyAgainst((res, req) => {
      if (passesPreflight(req, res)) return;
      res.writeHead(302, { location: `${elsewhere.url}/v1/me` });
      res.end();
    });
    expect(result.stderr).not.toContain('internal error');
    expect(result.code).toBe(1);
    expect(elsewhere.hits()).toBe(0);
    for (const f of readdirSync(out)) expect(readFileSync(join(out, f), 'utf8')).not.toContain(TOKEN);
  });
});
