import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** Debian's package (`apt-get install chromium`); CI images without it skip the rendering tests. */
export const CHROMIUM = '/usr/bin/chromium';

/** Why the rendering tests cannot run here, or undefined when they can. */
export function chromiumMissing(): string | undefined {
  return existsSync(CHROMIUM) ? undefined : `${CHROMIUM} is not installed (Debian: apt-get install chromium)`;
}

/**
 * Headless, without a sandbox (containers), and quiet: no component updates, sync or background
 * fetches of its own. Every host name resolves to nothing, so a page that asks for anything from
 * the network gets nothing; the net log still records that it asked.
 */
const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--host-resolver-rules=MAP * ~NOTFOUND',
];

export interface Rendering {
  /** The DOM after load (--dump-dom). */
  dom: string;
  /** URLs the page itself asked for (requests of the file:// page in Chromium's net log). */
  pageRequests: string[];
}

function chromium(args: string[], timeoutMs = 60_000): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(CHROMIUM, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.resume();
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`chromium ${args.at(-1)} did not finish within ${timeoutMs} ms`));
    }, timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      if (code === 0) resolve(out);
      else reject(new Error(`chromium ${args.at(-1)} exited ${code}`));
    });
  });
}

interface NetLog {
  constants: { logEventTypes: Record<string, number> };
  events: Array<{ type: number; params?: { url?: string; network_isolation_key?: string } }>;
}

/** Requests a page opened from a file made: the browser's own (updates, time) have another isolation key. */
function pageRequests(netLog: NetLog): string[] {
  const start = netLog.constants.logEventTypes['URL_REQUEST_START_JOB'];
  return netLog.events.filter((e) => e.type === start && e.params?.network_isolation_key?.startsWith('file://') === true).map((e) => e.params!.url!);
}

/** Loads a local file in headless Chromium: its DOM after load, and what it asked the network for. */
export async function render(file: string): Promise<Rendering> {
  const profile = mkdtempSync(join(tmpdir(), 'asi-chromium-'));
  try {
    const log = join(profile, 'net-log.json');
    const dom = await chromium([...FLAGS, `--user-data-dir=${profile}`, `--log-net-log=${log}`, '--dump-dom', pathToFileURL(file).href]);
    return { dom, pageRequests: pageRequests(JSON.parse(readFileSync(log, 'utf8')) as NetLog) };
  } finally {
    rmSync(profile, { recursive: true, force: true });
  }
}
