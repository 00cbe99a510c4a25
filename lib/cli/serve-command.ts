import { commandPrefix, shellWord } from '../invocation.ts';
import { DEFAULT_TOKEN_ENV, TOKEN_ROLES } from '../profile/profile-file.ts';
import { DEFECTS, VARIANTS } from '../reference/defects/index.ts';
import { startReference, validateSwitches } from '../reference/server.ts';
import { TokenRegistry } from '../reference/tokens.ts';
import { UsageError } from '../errors.ts';
import { REFERENCE_PROFILE } from '../runner/embedded-target.ts';
import { consolePath } from './console-path.ts';
import { SERVE_HELP } from './help.ts';
import { integerOption, parseOptions } from './parse-options.ts';

export const DEFAULT_SERVE_PORT = 8787;

function exportLines(tokens: Record<string, string>): string[] {
  return TOKEN_ROLES.filter((r) => tokens[r] !== undefined).map((r) => `export ${DEFAULT_TOKEN_ENV[r]}=${tokens[r]}`);
}

/**
 * The run command that certifies this server, as it can be typed where serve was started: the
 * CLI as it runs from there (lib/invocation.ts), the reference profile where it lies, and
 * --base-url when the server is not where that profile says. The profile's hooks take the run's
 * base_url, so the fault drills reach this server too.
 */
export function runCommandFor(baseUrl: string, cwd = process.cwd()): string {
  const standalone = baseUrl === `http://127.0.0.1:${DEFAULT_SERVE_PORT}/v1`;
  return `${commandPrefix(cwd)} run --config ${shellWord(consolePath(REFERENCE_PROFILE, cwd))}${standalone ? '' : ` --base-url ${baseUrl}`}`;
}

export function switchList(): string {
  const lines = ['Defect switches (each breaks the requirements listed):'];
  for (const d of DEFECTS) lines.push(`  ${d.name.padEnd(44)} ${d.breaks.join(', ')}`, `  ${''.padEnd(44)} ${d.description}`);
  lines.push('', 'Variant switches (legal choices the harness must accept):');
  for (const v of VARIANTS) lines.push(`  ${v.name.padEnd(44)} ${v.description}`);
  return lines.join('\n');
}

/** Runs the reference until interrupted; prints base_url, admin URL and the demo tokens. */
export async function serveCommand(args: string[]): Promise<number> {
  const { values } = parseOptions('serve', args, {
    port: { type: 'string' },
    host: { type: 'string' },
    defect: { type: 'string', multiple: true },
    variant: { type: 'string', multiple: true },
    'read-limit': { type: 'string' },
    'write-limit': { type: 'string' },
    'window-s': { type: 'string' },
    'list-switches': { type: 'boolean' },
    'print-env': { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
  });
  if (values.help === true) {
    process.stdout.write(`${SERVE_HELP}\n`);
    return 0;
  }
  if (values['list-switches'] === true) {
    process.stdout.write(`${switchList()}\n`);
    return 0;
  }
  const read = integerOption('serve', 'read-limit', values['read-limit'], 1, 1_000_000);
  const write = integerOption('serve', 'write-limit', values['write-limit'], 1, 1_000_000);
  const windowS = integerOption('serve', 'window-s', values['window-s'], 1, 3600);
  const options = {
    host: values.host ?? '127.0.0.1',
    port: integerOption('serve', 'port', values.port, 0, 65535) ?? DEFAULT_SERVE_PORT,
    defects: values.defect ?? [],
    variants: values.variant ?? [],
    limits: { ...(read === undefined ? {} : { read }), ...(write === undefined ? {} : { write }), ...(windowS === undefined ? {} : { windowS }) },
  };
  try {
    validateSwitches(options);
  } catch (err) {
    throw new UsageError(`serve: ${(err as Error).message}`);
  }
  if (values['print-env'] === true) {
    // The demo tokens do not depend on a server: nothing is bound, so this works beside a running one.
    process.stdout.write(`${exportLines(new TokenRegistry().byRole()).join('\n')}\n`);
    return 0;
  }
  let reference;
  try {
    reference = await startReference(options);
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code === 'EADDRINUSE') throw new UsageError(`serve: port ${options.port} on ${options.host} is in use; choose another with --port N (0 picks a free one)`);
    if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND') throw new UsageError(`serve: cannot bind --host ${options.host}: ${code}`);
    throw err;
  }
  const { limits } = reference.state;
  process.stdout.write(
    [
      `asi-conformance reference implementation of ASI v1`,
      `base_url   ${reference.baseUrl}`,
      `admin      ${reference.adminUrl}  (loopback only: fault switches)`,
      `limits     read ${limits.read}, write ${limits.write} per ${limits.windowS}s`,
      ...(options.defects.length > 0 ? [`defects    ${options.defects.join(', ')}`] : []),
      ...(options.variants.length > 0 ? [`variants   ${options.variants.join(', ')}`] : []),
      '',
      'Demo tokens (paste into the shell that runs the harness):',
      ...exportLines(reference.tokens).map((l) => `  ${l}`),
      '',
      `Then: ${runCommandFor(reference.baseUrl)}`,
      'Ctrl-C stops the server.',
      '',
    ].join('\n'),
  );
  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  await reference.close();
  return 0;
}
