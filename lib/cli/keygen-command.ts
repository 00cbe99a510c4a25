import { generateKeyPair, PASSPHRASE_VARIABLE } from '../certification/signing-key.ts';
import { commandPrefix, shellWord } from '../invocation.ts';
import { UsageError } from '../errors.ts';
import { checkWritableFolder } from '../user-file.ts';
import { KEYGEN_HELP } from './help.ts';
import { parseOptions } from './parse-options.ts';

/** Writes an Ed25519 key pair for `run --sign-key`, never over an existing key. */
export async function keygenCommand(args: string[]): Promise<number> {
  const { values } = parseOptions('keygen', args, { out: { type: 'string' }, help: { type: 'boolean', short: 'h' } });
  if (values.help === true) {
    process.stdout.write(`${KEYGEN_HELP}\n`);
    return 0;
  }
  if (values.out === undefined) throw new UsageError("keygen: --out DIR is required (the folder for the key pair); see 'asi-conformance keygen --help'");
  checkWritableFolder(values.out, (message) => new UsageError(`keygen: --out ${JSON.stringify(values.out)} ${message}`));
  const keys = generateKeyPair(values.out);
  const lines = [
    `private key: ${keys.privateFile} (${keys.encrypted ? `encrypted with ${PASSPHRASE_VARIABLE}` : `not encrypted: set ${PASSPHRASE_VARIABLE} before keygen to encrypt it`}; keep it secret)`,
    `public key:  ${keys.publicFile} (give it to whoever verifies your bundles)`,
    `key id:      ${keys.keyid}`,
    `sign a run:  ${commandPrefix()} run --sign-key ${shellWord(keys.privateFile)} ...`,
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  return 0;
}
