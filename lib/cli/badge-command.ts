import { writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { badgeStatus, badgeSvg } from '../certification/badge-svg.ts';
import { harnessIdentity } from '../certification/harness-identity.ts';
import { openBundle } from '../certification/open-bundle.ts';
import { loadPublicKey } from '../certification/signing-key.ts';
import { verifyBundle } from '../certification/verify-bundle.ts';
import { consoleText } from '../report/console-text.ts';
import { commandPrefix, shellWord } from '../invocation.ts';
import { REFERENCE_DEMO } from '../report/run-scope.ts';
import { UsageError } from '../errors.ts';
import { checkWritableFile } from '../user-file.ts';
import { consolePath } from './console-path.ts';
import { BADGE_HELP } from './help.ts';
import { parseOptions } from './parse-options.ts';

/**
 * An SVG badge, only from a bundle that verifies (the same checks as verify, in this process): a
 * badge never says more than the evidence supports.
 */
export async function badgeCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseOptions(
    'badge',
    args,
    { out: { type: 'string' }, 'public-key': { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    true,
  );
  if (values.help === true) {
    process.stdout.write(`${BADGE_HELP}\n`);
    return 0;
  }
  if (positionals.length !== 1) throw new UsageError(`badge: expected one bundle (a .tar.gz or a bundle folder), got ${positionals.length}; see 'asi-conformance badge --help'`);
  const source = positionals[0]!;
  // Beside the bundle: a file inside a bundle folder would be a file the manifest does not list.
  const out = values.out ?? join(dirname(resolve(source)), 'badge.svg');
  checkWritableFile(out, (message) => new UsageError(`badge: ${values.out === undefined ? 'the badge beside the bundle,' : '--out'} ${JSON.stringify(out)} ${message}`));
  const keyFile = values['public-key'];
  const publicKey = keyFile === undefined ? undefined : { ...loadPublicKey(keyFile), file: keyFile };
  const bundle = openBundle(source);
  const verification = await verifyBundle(bundle, publicKey === undefined ? {} : { publicKey });
  if (!verification.intact) {
    const first = verification.problems[0]!;
    const more = verification.problems.length > 1 ? ` (and ${verification.problems.length - 1} more: ${commandPrefix()} verify ${shellWord(source)} names them)` : '';
    process.stderr.write(`asi-conformance: badge: ${consoleText(source)} does not verify, no badge written: ${consoleText(`${first.file}${first.requirement === undefined ? '' : ` ${first.requirement}`}: ${first.message}`)}${consoleText(more)}\n`);
    return 1;
  }
  writeFileSync(out, badgeSvg(verification, harnessIdentity()));
  const status = badgeStatus(verification);
  const said = status === 'reference demo' ? `reference demo: ${REFERENCE_DEMO}` : status === 'certified' ? 'certified' : `not a certification: ${consoleText([...(verification.scope ?? []), ...verification.certification.because][0] ?? '')}`;
  process.stdout.write(`badge: ${consolePath(resolve(out))} (${said})\n`);
  return 0;
}
