import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { SigningKeyError } from '../errors.ts';
import { readUserFile } from '../user-file.ts';
import { keyIdOf } from './dsse.ts';

/**
 * Ed25519 keys in PEM, through node:crypto only: no network, no signing service. The private
 * key is PKCS#8, encrypted (PBES2, AES-256-CBC) when a passphrase is set in PASSPHRASE_VARIABLE;
 * the public key is SubjectPublicKeyInfo.
 */

/** The environment variable holding the private key's passphrase, for keygen and `run --sign-key`. */
export const PASSPHRASE_VARIABLE = 'ASI_SIGN_KEY_PASSPHRASE';

export const PRIVATE_KEY_FILE = 'asi-signing-key.pem';
export const PUBLIC_KEY_FILE = 'asi-signing-key.pub.pem';

export interface SigningKey {
  privateKey: KeyObject;
  publicKey: KeyObject;
  keyid: string;
  /** The private key's file, as given. */
  file: string;
  /** The public key's file that pairs with it, when one lies beside it (as keygen writes it). */
  publicFile?: string;
}

export interface PublicKey {
  key: KeyObject;
  keyid: string;
}

function passphrase(env: NodeJS.ProcessEnv): string | undefined {
  const value = env[PASSPHRASE_VARIABLE];
  return value === undefined || value === '' ? undefined : value;
}

/** An Ed25519 private key from a PEM file (--sign-key); its passphrase, if any, from PASSPHRASE_VARIABLE. */
export function loadSigningKey(file: string, env: NodeJS.ProcessEnv = process.env): SigningKey {
  const pem = readUserFile(file, (m) => new SigningKeyError(file, m));
  const secret = passphrase(env);
  let privateKey: KeyObject;
  try {
    privateKey = createPrivateKey({ key: pem, format: 'pem', ...(secret === undefined ? {} : { passphrase: secret }) });
  } catch {
    if (/-----BEGIN ENCRYPTED PRIVATE KEY-----/.test(pem)) {
      throw new SigningKeyError(file, secret === undefined ? `the key is encrypted: set its passphrase in ${PASSPHRASE_VARIABLE}` : `the passphrase in ${PASSPHRASE_VARIABLE} does not decrypt the key`);
    }
    throw new SigningKeyError(file, 'is not a PEM private key (asi-conformance keygen writes one)');
  }
  if (privateKey.asymmetricKeyType !== 'ed25519') {
    throw new SigningKeyError(file, `is a ${privateKey.asymmetricKeyType ?? 'unknown'} key; expected Ed25519 (asi-conformance keygen writes one)`);
  }
  const publicKey = createPublicKey(privateKey);
  const keyid = keyIdOf(publicKey);
  const publicFile = publicKeyBeside(file, keyid);
  return { privateKey, publicKey, keyid, file, ...(publicFile === undefined ? {} : { publicFile }) };
}

/**
 * The public key beside a private key, as keygen writes it (`x.pem` → `x.pub.pem`, or
 * asi-signing-key.pub.pem in its folder), when it is the one that pairs with it.
 */
function publicKeyBeside(privateFile: string, keyid: string): string | undefined {
  const candidates = [privateFile.replace(/(\.pem)?$/i, '.pub.pem'), join(dirname(privateFile), PUBLIC_KEY_FILE)];
  for (const candidate of new Set(candidates)) {
    if (candidate === privateFile || !existsSync(candidate)) continue;
    try {
      if (loadPublicKey(candidate).keyid === keyid) return candidate;
    } catch {
      // Not a public key, or not readable: not the one to name.
    }
  }
  return undefined;
}

/** An Ed25519 public key from a PEM file (--public-key). */
export function loadPublicKey(file: string): PublicKey {
  const pem = readUserFile(file, (m) => new SigningKeyError(file, m));
  if (/PRIVATE KEY/.test(pem)) throw new SigningKeyError(file, 'holds a private key; give the public key (asi-signing-key.pub.pem), which is all verify needs');
  let key: KeyObject;
  try {
    key = createPublicKey({ key: pem, format: 'pem' });
  } catch {
    throw new SigningKeyError(file, 'is not a PEM public key (asi-conformance keygen writes one beside the private key)');
  }
  if (key.asymmetricKeyType !== 'ed25519') throw new SigningKeyError(file, `is a ${key.asymmetricKeyType ?? 'unknown'} key; expected Ed25519`);
  return { key, keyid: keyIdOf(key) };
}

export interface GeneratedKeys {
  privateFile: string;
  publicFile: string;
  keyid: string;
  encrypted: boolean;
}

/**
 * A new Ed25519 key pair written to `dir` (created if missing): the private key readable by its
 * owner only. Refuses to overwrite either file: a lost signing key cannot be recovered.
 */
export function generateKeyPair(dir: string, env: NodeJS.ProcessEnv = process.env): GeneratedKeys {
  const privateFile = join(dir, PRIVATE_KEY_FILE);
  const publicFile = join(dir, PUBLIC_KEY_FILE);
  for (const f of [privateFile, publicFile]) {
    if (existsSync(f)) throw new SigningKeyError(f, 'already exists; keygen never overwrites a key (move it away, or choose another --out)');
  }
  const secret = passphrase(env);
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const privatePem = privateKey.export({ type: 'pkcs8', format: 'pem', ...(secret === undefined ? {} : { cipher: 'aes-256-cbc', passphrase: secret }) });
  const publicPem = publicKey.export({ type: 'spki', format: 'pem' });
  mkdirSync(dir, { recursive: true });
  // `wx`: fails rather than replace a file that appeared since the check.
  writeFileSync(privateFile, privatePem, { mode: 0o600, flag: 'wx' });
  writeFileSync(publicFile, publicPem, { mode: 0o644, flag: 'wx' });
  return { privateFile, publicFile, keyid: keyIdOf(publicKey), encrypted: secret !== undefined };
}
