import { loadSigningKey } from '../certification/signing-key.ts';
import { resolve } from 'node:path';
import { checkBundleDir, signerShown, verifyHintOf, type BundleRequest, type WrittenBundle } from '../certification/write-bundle.ts';
import { UsageError } from '../errors.ts';
import { commandPrefix } from '../invocation.ts';
import { checkWritableFolder } from '../user-file.ts';
import { consolePath } from './console-path.ts';

/** The run command's flags for its certification bundle (node:util parseArgs specs). */
export const BUNDLE_OPTIONS = {
  'bundle-dir': { type: 'string' },
  'no-bundle': { type: 'boolean' },
  'sign-key': { type: 'string' },
} as const;

export interface BundleFlagValues {
  'bundle-dir'?: string;
  'no-bundle'?: boolean;
  'sign-key'?: string;
}

/**
 * The bundle a run writes, settled before it starts: a signing key that cannot be used or a
 * --bundle-dir that holds files is one line and exit 2 now, not after the run.
 */
export async function bundleRequest(values: BundleFlagValues, env: NodeJS.ProcessEnv = process.env, command = 'run'): Promise<BundleRequest | undefined> {
  if (values['no-bundle'] === true) {
    const other = values['bundle-dir'] !== undefined ? '--bundle-dir' : values['sign-key'] !== undefined ? '--sign-key' : undefined;
    if (other !== undefined) throw new UsageError(`${command}: --no-bundle and ${other} contradict each other; choose one`);
    return undefined;
  }
  const dir = values['bundle-dir'];
  if (dir !== undefined) {
    checkWritableFolder(dir, (message) => new UsageError(`${command}: --bundle-dir ${JSON.stringify(dir)} ${message}`));
    const problem = await checkBundleDir(dir);
    if (problem !== undefined) throw new UsageError(`${command}: --bundle-dir ${dir} ${problem}`);
  }
  return {
    ...(dir === undefined ? {} : { dir }),
    ...(values['sign-key'] === undefined ? {} : { signKey: loadSigningKey(values['sign-key'], env) }),
  };
}

/** The closing line about the bundle: where, its digest, its signer, and the command that checks it. */
export function bundleLine(bundle: WrittenBundle, cwd = process.cwd()): string {
  const path = consolePath(bundle.path, cwd);
  const what = bundle.form === 'tar.gz' ? 'sha256' : 'manifest sha256';
  const signed = bundle.keyid === undefined ? 'unsigned' : `signed by key ${bundle.keyid.slice(0, 16)}…`;
  const hint = verifyHintOf(path, signerShown(bundle.signer, (p) => consolePath(resolve(cwd, p), cwd)), commandPrefix(cwd));
  return `bundle: ${path} (${what} ${bundle.sha256.slice(0, 16)}…, ${signed}); check it offline: ${hint.command}${hint.note === undefined ? '' : ` (${hint.note})`}`;
}
