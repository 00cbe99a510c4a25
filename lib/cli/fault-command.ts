import { request as httpRequest } from 'node:http';
import { HookError, UsageError } from '../errors.ts';
import { FAULT_NAMES } from '../profile/resolved-profile.ts';
import { FAULT_HELP } from './help.ts';
import { parseOptions } from './parse-options.ts';

/** The reference's admin URL from its base_url: the admin routes sit at the root of its origin (lib/reference/server.ts). */
function adminOf(baseUrl: string): string {
  try {
    return `${new URL(baseUrl).origin}/_admin`;
  } catch {
    throw new UsageError(`fault: --base-url ${JSON.stringify(baseUrl)} is not a URL; expected the run's base_url, e.g. http://127.0.0.1:8787/v1 (a hook gets it as "\${BASE_URL}")`);
  }
}

/**
 * Switches a standalone reference's fault through its loopback admin endpoint (used by profile
 * hooks). `--base-url "${BASE_URL}"` finds the admin endpoint of the reference the run targets,
 * whichever port it listens on.
 */
export async function faultCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseOptions('fault', args, { admin: { type: 'string' }, 'base-url': { type: 'string' }, help: { type: 'boolean', short: 'h' } }, true);
  if (values.help === true) {
    process.stdout.write(`${FAULT_HELP}\n`);
    return 0;
  }
  const [name, state] = positionals;
  if (name === undefined || !(FAULT_NAMES as readonly string[]).includes(name)) throw new UsageError(`fault: expected a fault name, one of ${FAULT_NAMES.join(', ')}; got ${JSON.stringify(name ?? '')}`);
  if (state !== 'on' && state !== 'off') throw new UsageError(`fault: expected on or off after ${name}, got ${JSON.stringify(state ?? '')}`);
  if (values.admin !== undefined && values['base-url'] !== undefined) throw new UsageError('fault: give --base-url or --admin, not both');
  const admin = values['base-url'] === undefined ? values.admin : adminOf(values['base-url']);
  if (admin === undefined) throw new UsageError('fault: --base-url URL (in a hook: --base-url "${BASE_URL}") or --admin URL (serve prints it) is required');
  try {
    const { status, text } = await adminRequest(`${admin.replace(/\/+$/, '')}/faults/${name}`, state === 'on' ? 'PUT' : 'DELETE');
    if (status !== 200) throw new HookError(name, `admin answered ${status}: ${text.slice(0, 200)}`);
    return 0;
  } catch (err) {
    if (err instanceof HookError) throw err;
    throw new HookError(name, `${admin} did not answer: ${(err as Error).message}`);
  }
}

const ADMIN_TIMEOUT_MS = 5_000;

/**
 * One request to the reference's loopback admin endpoint, with node:http: a hook runs this command
 * twice per drill, and the HTTP client library would take longer to load than the call takes.
 */
function adminRequest(url: string, method: 'PUT' | 'DELETE'): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method, timeout: ADMIN_TIMEOUT_MS }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error(`no answer within ${ADMIN_TIMEOUT_MS / 1000} s`)));
    req.on('error', reject);
    req.end();
  });
}
