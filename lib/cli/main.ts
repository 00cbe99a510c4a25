import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { HarnessError } from '../errors.ts';
import { nearestNames } from '../nearest-names.ts';
import { PACKAGE_ROOT } from '../package-root.ts';
import { consoleText } from '../report/console-text.ts';
import { MAIN_HELP } from './help.ts';

type Command = (args: string[]) => Promise<number>;

/** Each command's module is loaded when it runs: a usage error or a verify loads no test runner. */
const COMMANDS: Record<string, Command> = {
  run: async (a) => (await import('./run-command.ts')).runCommand(a),
  serve: async (a) => (await import('./serve-command.ts')).serveCommand(a),
  list: async (a) => (await import('./list-command.ts')).listCommand(a),
  calibrate: async (a) => (await import('./calibrate-command.ts')).calibrateCommand(a),
  fault: async (a) => (await import('./fault-command.ts')).faultCommand(a),
  diff: async (a) => (await import('./diff-command.ts')).diffCommand(a),
  verify: async (a) => (await import('./verify-command.ts')).verifyCommand(a),
  replay: async (a) => (await import('./replay-command.ts')).replayCommand(a),
  keygen: async (a) => (await import('./keygen-command.ts')).keygenCommand(a),
  badge: async (a) => (await import('./badge-command.ts')).badgeCommand(a),
  matrix: async (a) => (await import('./matrix-command.ts')).matrixCommand(a),
  client: async (a) => (await import('./client-command.ts')).clientCommand(a),
};

/**
 * The CLI: one command per module. Every error the harness expects (usage, profile, unreachable
 * target) is one line on stderr and its exit code; anything else is a bug, reported as such
 * with exit 3 and without a stack unless ASI_DEBUG is set.
 */
export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  try {
    if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
      process.stdout.write(`${MAIN_HELP}\n`);
      return command === undefined ? 2 : 0;
    }
    if (command === '--version' || command === '-v') {
      const pkg = JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { version: string };
      process.stdout.write(`${pkg.version}\n`);
      return 0;
    }
    const handler = COMMANDS[command];
    if (handler === undefined) {
      const near = nearestNames(command, Object.keys(COMMANDS), 2)[0];
      const hint = near === undefined ? '' : `did you mean ${near}? `;
      process.stderr.write(`asi-conformance: unknown command ${JSON.stringify(command)}; ${hint}expected one of ${Object.keys(COMMANDS).join(', ')} (see --help)\n`);
      return 2;
    }
    return await handler(rest);
  } catch (err) {
    if (err instanceof HarnessError) {
      // An unreachable target's error may quote what it sent.
      process.stderr.write(`asi-conformance: ${consoleText(err.message)}\n`);
      return err.exitCode;
    }
    const message = err instanceof Error ? err.message : String(err);
    process.stderr.write(`asi-conformance: internal error: ${consoleText(message)}\n`);
    if (process.env['ASI_DEBUG'] !== undefined && err instanceof Error) process.stderr.write(`${err.stack ?? ''}\n`);
    else process.stderr.write('(set ASI_DEBUG=1 for the stack trace, and please report it)\n');
    return 3;
  }
}
