import { openBundle } from '../certification/open-bundle.ts';
import { loadPublicKey } from '../certification/signing-key.ts';
import { verifyBundle } from '../certification/verify-bundle.ts';
import { clientManifest, verifyClientBundle } from '../certification/verify-client-bundle.ts';
import { verificationText } from '../certification/verify-text.ts';
import { UsageError } from '../errors.ts';
import { VERIFY_HELP } from './help.ts';
import { parseOptions } from './parse-options.ts';
import { jsonText } from '../model/json-text.ts';

/**
 * Checks a certification bundle offline: digests, signature, harness and catalogue, and every
 * verdict re-derived from the recorded exchanges. Exit 0 intact (1 with --require-certification
 * when it is no certification), 1 when anything does not verify, 2 when the input is no bundle.
 */
export async function verifyCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseOptions(
    'verify',
    args,
    {
      'public-key': { type: 'string' },
      'require-certification': { type: 'boolean' },
      json: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
    true,
  );
  if (values.help === true) {
    process.stdout.write(`${VERIFY_HELP}\n`);
    return 0;
  }
  if (positionals.length !== 1) throw new UsageError(`verify: expected one bundle (a .tar.gz or a bundle folder), got ${positionals.length}; see 'asi-conformance verify --help'`);
  const keyFile = values['public-key'];
  const publicKey = keyFile === undefined ? undefined : { ...loadPublicKey(keyFile), file: keyFile };
  const bundle = openBundle(positionals[0]!);
  const options = publicKey === undefined ? {} : { publicKey };
  // A client grading's bundle has a manifest of its own kind; the same checks, its own re-derivation.
  const client = clientManifest(bundle);
  const verification = client === undefined ? await verifyBundle(bundle, options) : await verifyClientBundle(bundle, client, options);
  const code = !verification.intact ? 1 : values['require-certification'] === true && !verification.certification.certifying ? 1 : 0;
  process.stdout.write(values.json === true ? `${jsonText({ ...verification, exitCode: code }, 2)}\n` : `${verificationText(verification, keyFile)}\n`);
  return code;
}
