import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { envelopeVerifies, keyIdOf, pae, signEnvelope } from '../../lib/certification/dsse.ts';
import { verifyHintOf } from '../../lib/certification/write-bundle.ts';
import { generateKeyPair, loadPublicKey, loadSigningKey, PRIVATE_KEY_FILE, PUBLIC_KEY_FILE } from '../../lib/certification/signing-key.ts';

const work = mkdtempSync(join(tmpdir(), 'asi-keys-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const TYPE = 'application/vnd.in-toto+json';

describe('DSSE', () => {
  test('PAE is the spec\'s encoding (its test vector)', () => {
    // > PAE("http://example.com/HelloWorld", "hello world") = "DSSEv1 29 http://example.com/HelloWorld 11 hello world"
    expect(pae('http://example.com/HelloWorld', Buffer.from('hello world')).toString()).toBe('DSSEv1 29 http://example.com/HelloWorld 11 hello world');
    // LEN counts bytes, not characters.
    expect(pae('t', Buffer.from('é')).toString()).toBe('DSSEv1 1 t 2 é');
  });

  test('an envelope verifies with its key only, and not once its payload or type changed', () => {
    const { privateKey, publicKey } = generateKeyPairSync('ed25519');
    const other = generateKeyPairSync('ed25519').publicKey;
    const envelope = signEnvelope(TYPE, Buffer.from('{"a":1}'), privateKey, keyIdOf(publicKey));
    expect(envelope.signatures).toEqual([{ keyid: keyIdOf(publicKey), sig: expect.stringMatching(/^[A-Za-z0-9+/]{86}==$/) }]);
    expect(envelopeVerifies(envelope, publicKey)).toBe(true);
    expect(envelopeVerifies(envelope, other)).toBe(false);
    expect(envelopeVerifies({ ...envelope, payload: Buffer.from('{"a":2}').toString('base64') }, publicKey)).toBe(false);
    expect(envelopeVerifies({ ...envelope, payloadType: 'text/plain' }, publicKey)).toBe(false);
    expect(envelopeVerifies({ ...envelope, signatures: [{ keyid: 'x', sig: 'not base64 at all' }] }, publicKey)).toBe(false);
  });
});

describe('keys', () => {
  test('the public key that pairs with a signing key is found beside it, as keygen writes it, and never another key', () => {
    const made = generateKeyPair(join(work, 'beside'), {});
    expect(loadSigningKey(made.privateFile, {}).publicFile).toBe(made.publicFile);
    // Renamed in pairs (`x.pem` and `x.pub.pem`): still found.
    const renamed = join(work, 'beside', 'release.pem');
    writeFileSync(renamed, readFileSync(made.privateFile));
    writeFileSync(join(work, 'beside', 'release.pub.pem'), readFileSync(made.publicFile));
    expect(loadSigningKey(renamed, {}).publicFile).toBe(join(work, 'beside', 'release.pub.pem'));
    // Alone in its folder: none to name.
    const alone = join(mkdtempSync(join(work, 'alone-')), 'signing.pem');
    writeFileSync(alone, readFileSync(made.privateFile));
    expect(loadSigningKey(alone, {}).publicFile).toBeUndefined();
    // Beside another key's public key: not named.
    const other = generateKeyPair(join(work, 'other'), {});
    const mixed = join(mkdtempSync(join(work, 'mixed-')), PRIVATE_KEY_FILE);
    writeFileSync(mixed, readFileSync(made.privateFile));
    writeFileSync(join(mixed, '..', PUBLIC_KEY_FILE), readFileSync(other.publicFile));
    expect(loadSigningKey(mixed, {}).publicFile).toBeUndefined();
  });

  test('the verify command names that public key, or says which key stands for PUBLIC_KEY', () => {
    expect(verifyHintOf('reports/run/bundle.tar.gz', undefined, 'npx asi-conformance')).toEqual({ command: 'npx asi-conformance verify reports/run/bundle.tar.gz' });
    expect(verifyHintOf('reports/run/bundle.tar.gz', { privateFile: 'keys/asi-signing-key.pem', publicFile: 'keys/asi-signing-key.pub.pem' }, 'asi-conformance')).toEqual({
      command: 'asi-conformance verify reports/run/bundle.tar.gz --public-key keys/asi-signing-key.pub.pem',
    });
    expect(verifyHintOf("reports/ann's run/bundle.tar.gz", { privateFile: '/secrets/release.pem' }, 'npx asi-conformance')).toEqual({
      command: "npx asi-conformance verify 'reports/ann'\\''s run/bundle.tar.gz' --public-key PUBLIC_KEY",
      note: 'PUBLIC_KEY is the public key that pairs with /secrets/release.pem; none lies beside it (keygen writes it there as asi-signing-key.pub.pem)',
    });
  });

  test('keygen round trip: an encrypted private key readable by its owner only, the public key beside it, the same key id', () => {
    const dir = join(work, 'pair');
    const env = { ASI_SIGN_KEY_PASSPHRASE: 'correct horse battery' };
    const made = generateKeyPair(dir, env);
    expect(made).toEqual({ privateFile: join(dir, PRIVATE_KEY_FILE), publicFile: join(dir, PUBLIC_KEY_FILE), keyid: expect.stringMatching(/^[0-9a-f]{64}$/), encrypted: true });
    expect(statSync(made.privateFile).mode & 0o777).toBe(0o600);
    expect(readFileSync(made.privateFile, 'utf8')).toMatch(/^-----BEGIN ENCRYPTED PRIVATE KEY-----/);
    expect(loadSigningKey(made.privateFile, env).keyid).toBe(made.keyid);
    expect(loadPublicKey(made.publicFile).keyid).toBe(made.keyid);
    expect(() => generateKeyPair(dir, env)).toThrow(`${made.privateFile}: already exists; keygen never overwrites a key (move it away, or choose another --out)`);
  });

  test('a key without its passphrase, with the wrong one, of another type, or not a key: one line each', () => {
    const made = generateKeyPair(join(work, 'locked'), { ASI_SIGN_KEY_PASSPHRASE: 'right' });
    expect(() => loadSigningKey(made.privateFile, {})).toThrow(`${made.privateFile}: the key is encrypted: set its passphrase in ASI_SIGN_KEY_PASSPHRASE`);
    expect(() => loadSigningKey(made.privateFile, { ASI_SIGN_KEY_PASSPHRASE: 'wrong' })).toThrow(`${made.privateFile}: the passphrase in ASI_SIGN_KEY_PASSPHRASE does not decrypt the key`);
    const rsa = join(work, 'rsa.pem');
    const pair = generateKeyPairSync('rsa', { modulusLength: 1024 });
    writeFileSync(rsa, pair.privateKey.export({ type: 'pkcs8', format: 'pem' }));
    expect(() => loadSigningKey(rsa, {})).toThrow(`${rsa}: is a rsa key; expected Ed25519 (asi-conformance keygen writes one)`);
    const rsaPublic = join(work, 'rsa.pub.pem');
    writeFileSync(rsaPublic, pair.publicKey.export({ type: 'spki', format: 'pem' }));
    expect(() => loadPublicKey(rsaPublic)).toThrow(`${rsaPublic}: is a rsa key; expected Ed25519`);
    expect(() => loadPublicKey(made.privateFile)).toThrow('holds a private key; give the public key (asi-signing-key.pub.pem), which is all verify needs');
    expect(() => loadPublicKey(join(work, 'none.pem'))).toThrow(`${join(work, 'none.pem')}: no such file`);
    const junk = join(work, 'junk.pem');
    writeFileSync(junk, 'hello');
    expect(() => loadSigningKey(junk, {})).toThrow(`${junk}: is not a PEM private key (asi-conformance keygen writes one)`);
  });

  test('without a passphrase the private key is written unencrypted, and says so', () => {
    const made = generateKeyPair(join(work, 'plain'), {});
    expect(made.encrypted).toBe(false);
    expect(readFileSync(made.privateFile, 'utf8')).toMatch(/^-----BEGIN PRIVATE KEY-----/);
    expect(loadSigningKey(made.privateFile, {}).keyid).toBe(made.keyid);
  });
});
