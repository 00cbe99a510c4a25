import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { HarnessError } from '../errors.ts';
import { nearestNames } from '../nearest-names.ts';
import { PACKAGE_ROOT } from '../package-root.ts';
import { consoleText } from '../report/console-text.ts';
import { badgeCommand } from './badge-command.ts';
import { calibrateCommand } from './calibrate-command.ts';
import { diffCommand } from './diff-command.ts';
import { faultCommand } from './fault-command.ts';
import { MAIN_HELP } from './help.ts';
import { keygenCommand } from './keygen-command.ts';
import { listCommand } from './list-command.ts';
import { matrixCommand } from './matrix-command.ts';
import { runCommand } from './run-command.ts';
import { serveCommand } from './serve-command.ts';
import { verifyCommand } from './verify-command.ts';
import { replayCommand } from './replay-command.ts';

const COMMANDS: Record<string, (args: string[]) => Promise<number>> = {
  run: runCommand,
  serve: serveCommand,
  list: listCommand,
  calibrate: calibrateCommand,
  fault: faultCommand,
  diff: diffCommand,
  verify: verifyCommand,
  replay: replayCommand,
  keygen: keygenCommand,
  badge: badgeCommand,
  matrix: matrixCommand,
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
