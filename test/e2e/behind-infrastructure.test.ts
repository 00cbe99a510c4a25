import { execFile, spawnSync } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { request as httpRequest, createServer as createHttpServer, type IncomingMessage, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { connect, createServer as createNetServer, type AddressInfo, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DEFAULT_TOKEN_ENV, TOKEN_ROLES } from '../../lib/profile/profile-file.ts';
import { startReference, type RunningReference } from '../../lib/reference/server.ts';
import { makeTestPki, type TestPki } from '../support/certificates.ts';
import { ROOT, runCli, type CliResult } from '../support/cli.ts';

/**
 * A target behind real infrastructure: the reference behind an https front (a private CA, and in
 * a second front a required client certificate), reached directly or through a CONNECT proxy,
 * with a gateway header from the environment. Runs the built CLI as a user would.
 */

const GATEWAY_KEY = 'gw-5ecre7-0f-the-gateway';
const NO_PROXY_ENV = { HTTPS_PROXY: '', https_proxy: '', HTTP_PROXY: '', http_proxy: '', NO_PROXY: '', no_proxy: '' };

interface Front {
  server: Server;
  baseUrl: string;
  /** Headers of every request that reached the reference through this front. */
  seen: IncomingMessage['headers'][];
}

let reference: RunningReference;
/** A reference with a defect behind mTLS: its failures print curl lines to run again. */
let defective: RunningReference;
let pki: TestPki;
let tlsFront: Front;
let mtlsFront: Front;
let defectiveFront: Front;
let proxy: Server;
let proxyUrl = '';
const tunnels: string[] = [];
const sockets = new Set<Socket>();
let tokenEnv: Record<string, string> = {};

/** An https server that passes every request on to a reference's plain http origin. */
async function startFront(behind: RunningReference, requireClientCert: boolean): Promise<Front> {
  const target = new URL(behind.baseUrl);
  const seen: IncomingMessage['headers'][] = [];
  const server = createHttpsServer(
    {
      key: pki.pem(pki.serverKeyFile),
      cert: pki.pem(pki.serverCertFile),
      ...(requireClientCert ? { ca: pki.pem(pki.caFile), requestCert: true, rejectUnauthorized: true } : {}),
    },
    (req, res) => {
      seen.push(req.headers);
      const upstream = httpRequest({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      });
      upstream.on('error', () => res.destroy());
      req.pipe(upstream);
    },
  );
  server.on('connection', (s: Socket) => sockets.add(s));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, baseUrl: `https://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, seen };
}

/** A CONNECT proxy that records each tunnel's destination. */
async function startProxy(): Promise<void> {
  proxy = createHttpServer((_req, res) => res.writeHead(405).end());
  proxy.on('connect', (req: IncomingMessage, client: Socket, head: Buffer) => {
    tunnels.push(req.url ?? '');
    const [host, port] = (req.url ?? '').split(':');
    const upstream = connect(Number(port), host, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    sockets.add(upstream).add(client);
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
  });
  await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
}

beforeAll(async () => {
  pki = makeTestPki();
  reference = await startReference();
  defective = await startReference({ defects: ['auth-missing-as-invalid'] });
  tokenEnv = Object.fromEntries(TOKEN_ROLES.flatMap((role) => (reference.tokens[role] === undefined ? [] : [[DEFAULT_TOKEN_ENV[role], reference.tokens[role]!]])));
  tlsFront = await startFront(reference, false);
  mtlsFront = await startFront(reference, true);
  defectiveFront = await startFront(defective, true);
  await startProxy();
});

afterAll(async () => {
  for (const s of sockets) s.destroy();
  await Promise.all([tlsFront, mtlsFront, defectiveFront].map((f) => new Promise((r) => f.server.close(r))));
  await new Promise((r) => proxy.close(r));
  await Promise.all([reference.close(), defective.close()]);
});

/** `run --suite auth` against `baseUrl` with the reference's tokens; the report folder is returned too. */
async function run(args: string[], env: NodeJS.ProcessEnv = {}): Promise<CliResult & { out: string }> {
  const out = mkdtempSync(join(tmpdir(), 'asi-infra-'));
  const r = await runCli(['run', '--suite', 'auth', '-q', '--out', out, ...args], { env: { ...tokenEnv, ...NO_PROXY_ENV, GATEWAY_KEY, ...env } });
  return { ...r, out };
}

function reportText(out: string, file: string): string {
  const dirs = readdirSync(out);
  expect(dirs).toHaveLength(1);
  return readFileSync(join(out, dirs[0]!, file), 'utf8');
}

/** Fails with an exit code 3 and one line, naming the problem, never a stack; the reports say the same. */
function expectCleanFailure(r: CliResult & { out: string }, pattern: RegExp): void {
  expect(r.code).toBe(3);
  const lines = r.stderr.trim().split('\n');
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(pattern);
  const report = JSON.parse(reportText(r.out, 'report.json')) as { outcome: string; stopped?: { reason: string } };
  expect(report.outcome).toBe('unreachable');
  expect(report.stopped?.reason).toMatch(pattern);
}

describe('mistakes in the transport flags', () => {
  test('a refused header is one line and exit 2 before anything starts, without its value', async () => {
    const r = await runCli(['run', '--header', `Authorization: Bearer ${GATEWAY_KEY}`], { env: NO_PROXY_ENV });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^asi-conformance: run: --header Authorization is refused: the harness sets Authorization itself[^\n]*\n$/);
    expect(r.stderr + r.stdout).not.toContain(GATEWAY_KEY);
  });
});

describe('https with a private CA', () => {
  test('without --ca-file the run stops at once with exit 3 and one line naming the TLS problem', async () => {
    const r = await run(['--base-url', tlsFront.baseUrl]);
    expectCleanFailure(r, /unreachable: .*certificate.*--ca-file/);
  });

  test('trusting another CA is refused the same way', async () => {
    const r = await run(['--base-url', tlsFront.baseUrl, '--ca-file', pki.otherCaFile]);
    expectCleanFailure(r, /unreachable: .*not signed by a CA of the --ca-file or tls.ca_file bundle/);
  });

  test('with --ca-file and a gateway header from the environment the suite passes; the header value never shows', async () => {
    tlsFront.seen.length = 0;
    const r = await run(['--base-url', tlsFront.baseUrl, '--ca-file', pki.caFile, '--header', 'X-Gateway-Key: $GATEWAY_KEY', '--header', 'X-Tenant: acme']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    // Every request the suite sent carried both headers, the preflight's included.
    expect(tlsFront.seen.length).toBeGreaterThan(5);
    expect(tlsFront.seen.every((h) => h['x-gateway-key'] === GATEWAY_KEY && h['x-tenant'] === 'acme')).toBe(true);
    const har = reportText(r.out, 'transcript.har');
    for (const file of ['transcript.har', 'report.json', 'report.html', 'summary.md', 'junit.xml']) expect(reportText(r.out, file)).not.toContain(GATEWAY_KEY);
    expect(r.stdout).not.toContain(GATEWAY_KEY);
    expect(har).toContain('$GATEWAY_KEY');
    const entry = (JSON.parse(har) as { log: { entries: Array<{ request: { headers: Array<{ name: string; value: string }> } }> } }).log.entries[0]!;
    expect(entry.request.headers).toEqual(expect.arrayContaining([{ name: 'x-gateway-key', value: '$GATEWAY_KEY' }, { name: 'x-tenant', value: 'acme' }]));
  });
});

describe('a base_url with the other scheme than its port speaks', () => {
  test('http:// to a TLS port: "did you mean https://", found by a handshake with the port (exit 3)', async () => {
    const url = tlsFront.baseUrl.replace('https:', 'http:');
    const r = await run(['--base-url', url]);
    expect(r.code).toBe(3);
    expect(r.stderr.trim()).toMatch(new RegExp(`^asi-conformance: target ${url} is unreachable: \\S+: .*\\(the port speaks TLS: did you mean ${tlsFront.baseUrl} \\?\\)$`));
  });

  test('https:// to a plain HTTP port: "did you mean http://" (exit 3)', async () => {
    const url = reference.baseUrl.replace('http:', 'https:');
    const r = await run(['--base-url', url]);
    expect(r.code).toBe(3);
    expect(r.stderr.trim()).toMatch(new RegExp(`^asi-conformance: target ${url} is unreachable: ERR_SSL_\\w+: .*\\(the port answers plain HTTP, not TLS: did you mean ${reference.baseUrl} \\?\\)$`));
  });

  test('http:// to a TLS front that answers plain HTTP with a page of its own (as nginx does): the same hint (exit 2)', async () => {
    // TLS goes on to the https front; plain HTTP gets nginx's 400 page.
    const front = new URL(tlsFront.baseUrl);
    const sniffing = createNetServer((socket) =>
      socket.once('data', (first: Buffer) => {
        if (first[0] === 0x16) {
          const upstream = connect(Number(front.port), front.hostname);
          sockets.add(upstream).add(socket);
          upstream.write(first);
          socket.pipe(upstream).pipe(socket);
          upstream.on('error', () => socket.destroy());
          socket.on('error', () => upstream.destroy());
          return;
        }
        const page = '<html><body><center><h1>400 Bad Request</h1></center><center>The plain HTTP request was sent to HTTPS port</center></body></html>';
        socket.end(`HTTP/1.1 400 Bad Request\r\ncontent-type: text/html\r\ncontent-length: ${page.length}\r\nconnection: close\r\n\r\n${page}`);
      }),
    );
    await new Promise<void>((r) => sniffing.listen(0, '127.0.0.1', r));
    const port = (sniffing.address() as AddressInfo).port;
    const r = await run(['--base-url', `http://127.0.0.1:${port}/v1`]);
    await new Promise((done) => sniffing.close(done));
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toMatch(new RegExp(`answered 400 with a web page \\(text/html\\); the port speaks TLS: did you mean https://127\\.0\\.0\\.1:${port}/v1 \\?$`));
  });
});

describe('https with a client certificate (mTLS)', () => {
  test('without a client certificate the target refuses the handshake: exit 3, one line', async () => {
    const r = await run(['--base-url', mtlsFront.baseUrl, '--ca-file', pki.caFile]);
    expectCleanFailure(r, /unreachable: .*--cert-file and --key-file/);
  });

  test('with --cert-file and --key-file the suite passes', async () => {
    const r = await run(['--base-url', mtlsFront.baseUrl, '--ca-file', pki.caFile, '--cert-file', pki.clientCertFile, '--key-file', pki.clientKeyFile]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
  });

  test('a profile gives the same with paths relative to itself and an encrypted key whose passphrase comes from env', async () => {
    mtlsFront.seen.length = 0;
    const r = await run(['--config', profileFor(mtlsFront)], { CLIENT_KEY_PASSPHRASE: pki.passphrase });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(mtlsFront.seen.every((h) => h['x-gateway-key'] === GATEWAY_KEY)).toBe(true);
  });
});

/** A profile in its own folder naming the PKI files relative to itself, with the gateway header from env. */
function profileFor(front: Front): string {
  const dir = mkdtempSync(join(tmpdir(), 'asi-infra-profile-'));
  const rel = (file: string): string => relative(dir, file);
  const profile = join(dir, 'target.yaml');
  writeFileSync(
    profile,
    [
      `base_url: ${front.baseUrl}`,
      'tokens:',
      ...TOKEN_ROLES.map((role) => `  ${role}: { env: ${DEFAULT_TOKEN_ENV[role]} }`),
      'headers:',
      '  X-Gateway-Key: { env: GATEWAY_KEY }',
      'tls:',
      `  ca_file: ${rel(pki.caFile)}`,
      `  cert_file: ${rel(pki.clientCertFile)}`,
      `  key_file: ${rel(pki.clientEncryptedKeyFile)}`,
      '  passphrase: { env: CLIENT_KEY_PASSPHRASE }',
      '',
    ].join('\n'),
  );
  return profile;
}

const HAS_CURL = spawnSync('curl', ['--version']).status === 0;

describe('the curl line of a failure', () => {
  // curl is how a reader reproduces a finding; without it on this machine there is nothing to run.
  test.skipIf(!HAS_CURL)('reopens the same connection: CA, client certificate, encrypted key, gateway header and proxy', async () => {
    tunnels.length = 0;
    const env = { CLIENT_KEY_PASSPHRASE: pki.passphrase, HTTPS_PROXY: proxyUrl };
    const r = await run(['--config', profileFor(defectiveFront)], env);
    expect(r.code).toBe(1);
    const line = /Reproduce: (curl .*)/.exec(r.stdout)?.[1];
    expect(line).toBeDefined();
    expect(line).toContain(`--cacert '${relative(ROOT, pki.caFile)}'`);
    expect(line).toContain('--pass "$CLIENT_KEY_PASSPHRASE" --proxy "$HTTPS_PROXY"');
    expect(line).toContain(`-H 'x-gateway-key: '"$GATEWAY_KEY"`);
    expect(line).not.toContain(GATEWAY_KEY);
    const tunnelsOfRun = tunnels.length;
    defectiveFront.seen.length = 0;
    // Run it as printed, from the folder the harness ran in, with the same environment (not
    // synchronously: the servers it reaches live in this process).
    const curl = await promisify(execFile)('/bin/sh', ['-c', line!], { cwd: ROOT, env: { ...process.env, ...NO_PROXY_ENV, GATEWAY_KEY, ...env }, encoding: 'utf8', timeout: 20_000 });
    expect(curl.stderr).toBe('');
    // curl -i shows the proxy's answer to CONNECT first, then the target's.
    expect(curl.stdout).toMatch(/^HTTP\/1\.1 200 Connection Established\r\n\r\nHTTP\/1\.1 401 /);
    expect(curl.stdout).toContain('auth.token_invalid');
    expect(defectiveFront.seen).toHaveLength(1);
    expect(defectiveFront.seen[0]!['x-gateway-key']).toBe(GATEWAY_KEY);
    expect(tunnels.length).toBe(tunnelsOfRun + 1);
  });
});

describe('the curl line of a failure through HTTP_PROXY', () => {
  test.skipIf(!HAS_CURL)('to an http target tunnels as the run did (--proxytunnel): through a proxy that only tunnels', async () => {
    tunnels.length = 0;
    const env = { HTTP_PROXY: proxyUrl };
    const r = await run(['--base-url', defective.baseUrl], env);
    expect(r.code, r.stdout + r.stderr).toBe(1);
    // The run reached the plain http target through CONNECT tunnels: the proxy answers nothing else.
    expect(tunnels.length).toBeGreaterThan(0);
    const line = /Reproduce: (curl .*)/.exec(r.stdout)?.[1];
    expect(line).toContain('--proxy "$HTTP_PROXY" --proxytunnel');
    const tunnelsOfRun = tunnels.length;
    const curl = await promisify(execFile)('/bin/sh', ['-c', line!], { cwd: ROOT, env: { ...process.env, ...NO_PROXY_ENV, ...tokenEnv, ...env }, encoding: 'utf8', timeout: 20_000 });
    expect(curl.stdout).toMatch(/^HTTP\/1\.1 200 Connection Established\r\n\r\nHTTP\/1\.1 401 /);
    expect(curl.stdout).toContain('auth.token_invalid');
    expect(tunnels.length).toBe(tunnelsOfRun + 1);
  });
});

describe('a proxy from HTTPS_PROXY', () => {
  test('carries every request through a CONNECT tunnel', async () => {
    tunnels.length = 0;
    const r = await run(['--base-url', tlsFront.baseUrl, '--ca-file', pki.caFile], { HTTPS_PROXY: proxyUrl });
    expect(r.code).toBe(0);
    const origin = new URL(tlsFront.baseUrl).host;
    expect(tunnels.length).toBeGreaterThan(0);
    expect(tunnels.every((t) => t === origin)).toBe(true);
  });

  test('is bypassed for a host NO_PROXY lists', async () => {
    tunnels.length = 0;
    const r = await run(['--base-url', tlsFront.baseUrl, '--ca-file', pki.caFile], { HTTPS_PROXY: proxyUrl, NO_PROXY: '127.0.0.1' });
    expect(r.code).toBe(0);
    expect(tunnels).toEqual([]);
  });
});

/** The bundle of the run's folder. */
function bundleOf(out: string): string {
  return join(out, readdirSync(out)[0]!, 'bundle.tar.gz');
}

describe('replay behind the same infrastructure', () => {
  test("sends a failure's requests again the way the run went: the profile's CA, client certificate and gateway header, through the proxy", async () => {
    const env = { CLIENT_KEY_PASSPHRASE: pki.passphrase, HTTPS_PROXY: proxyUrl };
    const profile = profileFor(defectiveFront);
    const r = await run(['--config', profile], env);
    expect(r.code, r.stdout + r.stderr).toBe(1);
    // The TLS files lie in the temp folder: its stand-in is escaped in the markup (a raw <tmp>
    // opened an element, and the bundle did not verify).
    for (const file of ['junit.xml', 'report.html']) expect(reportText(r.out, file)).not.toMatch(/<tmp>|<asi-conformance>/);
    expect(reportText(r.out, 'junit.xml')).toContain('&lt;tmp&gt;');
    tunnels.length = 0;
    defectiveFront.seen.length = 0;
    const replayed = await runCli(['replay', bundleOf(r.out), '--only', 'auth/5.3/missing-header', '--config', profile], { env: { ...tokenEnv, ...NO_PROXY_ENV, GATEWAY_KEY, ...env } });
    expect(replayed.code, replayed.stdout + replayed.stderr).toBe(1);
    expect(replayed.stdout).toMatch(/STILL FAILING/);
    expect(defectiveFront.seen.length).toBeGreaterThan(0);
    expect(defectiveFront.seen.every((h) => h['x-gateway-key'] === GATEWAY_KEY)).toBe(true);
    expect(tunnels.length).toBeGreaterThan(0);
    expect(replayed.stdout + replayed.stderr).not.toContain(GATEWAY_KEY);
  });

  test('a recorded header from the environment goes out with its value from this shell, given as a flag', async () => {
    const r = await run(['--base-url', tlsFront.baseUrl, '--ca-file', pki.caFile, '--header', 'X-Gateway-Key: $GATEWAY_KEY', '--only', 'auth/5.3/missing-header']);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    tlsFront.seen.length = 0;
    const replayed = await runCli(['replay', bundleOf(r.out), '--only', 'auth/5.3/missing-header', '--base-url', tlsFront.baseUrl, '--ca-file', pki.caFile, '--header', 'X-Gateway-Key: $GATEWAY_KEY'], {
      env: { ...tokenEnv, ...NO_PROXY_ENV, GATEWAY_KEY },
    });
    expect(replayed.code, replayed.stdout + replayed.stderr).toBe(0);
    expect(tlsFront.seen.length).toBeGreaterThan(0);
    expect(tlsFront.seen.every((h) => h['x-gateway-key'] === GATEWAY_KEY)).toBe(true);
  });
});
