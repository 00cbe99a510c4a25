import { parseArgs, type ParseArgsConfig } from 'node:util';
import { UsageError } from '../errors.ts';

type Options = NonNullable<ParseArgsConfig['options']>;

/**
 * node:util parseArgs, strict, with its errors turned into one-line usage errors that name the
 * command and the flag.
 */
export function parseOptions<O extends Options>(command: string, args: string[], options: O, allowPositionals = false) {
  try {
    return parseArgs({ args, options, strict: true, allowPositionals });
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    const flag = /'(-{1,2}[^']+)'/.exec(message)?.[1];
    const hint = `see 'asi-conformance ${command} --help'`;
    if (flag !== undefined && /Unknown option/.test(message)) throw new UsageError(`${command}: unknown option ${flag}; ${hint}`);
    throw new UsageError(`${command}: ${message.replace(/\.$/, '')}; ${hint}`);
  }
}

/** A whole number flag, with the flag's name in the error. */
export function integerOption(command: string, flag: string, value: string | undefined, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  if (!/^-?\d+$/.test(value) || Number(value) < min || Number(value) > max) {
    throw new UsageError(`${command}: --${flag} expects a whole number from ${min} to ${max}, got ${JSON.stringify(value)}`);
  }
  return Number(value);
}
