import { Agent, request } from 'undici';
import { HookError, UsageError } from '../errors.ts';
import { FAULT_HELP } from './help.ts';
import { parseOptions } from './parse-options.ts';

const FAULTS = ['limiter_store_down', 'upstream_unavailable', 'spend_cap_reached'];

/** Switches a standalone reference's fault through its loopback admin endpoint (used by profile hooks). */
export async function faultCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseOptions('fault', args, { admin: { type: 'string' }, help: { type: 'boolean', short: 'h' } }, true);
  if (values.help === true) {
    process.stdout.write(`${FAULT_HELP}\n`);
    return 0;
  }
  const [name, state] = positionals;
  if (name === undefined || !FAULTS.includes(name)) throw new UsageError(`fault: expected a fault name, one of ${FAULTS.join(', ')}; got ${JSON.stringify(name ?? '')}`);
  if (state !== 'on' && state !== 'off') throw new UsageError(`fault: expected on or off after ${name}, got ${JSON.stringify(state ?? '')}`);
  if (values.admin === undefined) throw new UsageError('fault: --admin URL is required (serve prints it)');
  const dispatcher = new Agent({ connect: { timeout: 5_000 }, headersTimeout: 5_000, bodyTimeout: 5_000 });
  try {
    const res = await request(`${values.admin.replace(/\/+$/, '')}/faults/${name}`, { method: state === 'on' ? 'PUT' : 'DELETE', dispatcher });
    const text = await res.body.text();
    if (res.statusCode !== 200) throw new HookError(name, `admin answered ${res.statusCode}: ${text.slice(0, 200)}`);
    return 0;
  } catch (err) {
    if (err instanceof HookError) throw err;
    throw new HookError(name, `${values.admin} did not answer: ${(err as Error).message}`);
  } finally {
    await dispatcher.close();
  }
}
