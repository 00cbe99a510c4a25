import { parseArgs, type ParseArgsConfig } from 'node:util';
import { UsageError } from '../errors.ts';
import { nearestNames } from '../nearest-names.ts';
import { urlCredentialsProblem } from '../profile/resolve-profile.ts';

type Options = NonNullable<ParseArgsConfig['options']>;

/**
 * node:util parseArgs, strict, with its errors turned into one-line usage errors that name the
 * command and the flag.
 */
export function parseOptions<O extends Options>(command: string, args: string[], options: O, allowPositionals = false) {
  try {
    return parseArgs({ args: joinNegativeValues(args, options), options, strict: true, allowPositionals });
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    const flag = /'(-{1,2}[^']+)'/.exec(message)?.[1];
    const hint = `see 'asi-conformance ${command} --help'`;
    if (flag !== undefined && /Unknown option/.test(message)) throw new UsageError(`${command}: unknown option ${flag}; ${suggestion(flag, options) ?? hint}`);
    throw new UsageError(`${command}: ${message.replace(/\.$/, '')}; ${hint}`);
  }
}

/**
 * `did you mean --base-url?` for a mistyped flag, from the command's own flags: one that starts
 * with what was typed (`--base`), or one a typo away (an edit per three letters).
 */
function suggestion(flag: string, options: Options): string | undefined {
  const name = flag.replace(/^-+/, '').replace(/=.*$/, '');
  const names = Object.keys(options);
  const started = name.length >= 3 ? names.filter((n) => n.startsWith(name)) : [];
  const near = [...new Set([...started, ...nearestNames(name, names, Math.max(1, Math.floor(name.length / 3)))])];
  return near.length === 0 ? undefined : `did you mean ${near.slice(0, 2).map((n) => `--${n}`).join(' or ')}?`;
}

/**
 * `--seed -5` is read by parseArgs as a flag missing its value; a value that is a negative number
 * (property seeds are) is joined to its flag as `--seed=-5`, which parseArgs takes.
 */
function joinNegativeValues(args: string[], options: Options): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const name = arg.startsWith('--') ? arg.slice(2) : undefined;
    const next = args[i + 1];
    if (name !== undefined && options[name]?.type === 'string' && next !== undefined && /^-\d+$/.test(next)) {
      out.push(`${arg}=${next}`);
      i += 1;
    } else out.push(arg);
  }
  return out;
}

/** A whole number flag, with the flag's name in the error. */
export function integerOption(command: string, flag: string, value: string | undefined, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  if (!/^-?\d+$/.test(value) || Number(value) < min || Number(value) > max) {
    throw new UsageError(`${command}: --${flag} expects a whole number from ${min} to ${max}, got ${JSON.stringify(value)}`);
  }
  return Number(value);
}

/** A base URL given on the command line: an http or https URL, or a usage error naming the command. */
export function validateBaseUrl(command: string, url: string): void {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new UsageError(`${command}: --base-url ${JSON.stringify(url)} is not a URL; expected for example https://api.example.com/v1`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new UsageError(`${command}: --base-url must be http or https, got ${parsed.protocol}`);
  }
  const credentials = urlCredentialsProblem(url);
  if (credentials !== undefined) throw new UsageError(`${command}: --base-url ${credentials}`);
}
