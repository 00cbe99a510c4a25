import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A throw-away PKI in a temp folder: file paths, and the PEM texts for servers started by tests. */
export interface TestPki {
  dir: string;
  caFile: string;
  serverCertFile: string;
  serverKeyFile: string;
  clientCertFile: string;
  clientKeyFile: string;
  /** The client key encrypted with `passphrase`. */
  clientEncryptedKeyFile: string;
  passphrase: string;
  /** A second CA that signed nothing here: trusting it alone must fail. */
  otherCaFile: string;
  pem(file: string): string;
}

function openssl(dir: string, args: string[]): void {
  execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
}

/** A self-signed CA (P-256 keys: fast), its key and certificate as `<name>.key` and `<name>.pem`. */
function makeCa(dir: string, name: string): void {
  openssl(dir, ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', `${name}.key`, '-out', `${name}.pem`, '-days', '2', '-subj', `/CN=${name}`]);
}

/** A leaf signed by `ca`, with the given extensions (SAN, key usage). */
function makeLeaf(dir: string, ca: string, name: string, extensions: string): void {
  writeFileSync(join(dir, `${name}.ext`), extensions);
  openssl(dir, ['req', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', `${name}.key`, '-out', `${name}.csr`, '-subj', `/CN=${name}`]);
  openssl(dir, ['x509', '-req', '-in', `${name}.csr`, '-CA', `${ca}.pem`, '-CAkey', `${ca}.key`, '-CAcreateserial', '-out', `${name}.pem`, '-days', '2', '-extfile', `${name}.ext`]);
}

/**
 * A CA, a server certificate for 127.0.0.1 and localhost, and a client certificate, generated with
 * openssl at test time (a few hundred milliseconds), so no key material lives in the repository.
 */
export function makeTestPki(): TestPki {
  const dir = mkdtempSync(join(tmpdir(), 'asi-pki-'));
  makeCa(dir, 'ca');
  makeCa(dir, 'other-ca');
  makeLeaf(dir, 'ca', 'server', 'subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n');
  makeLeaf(dir, 'ca', 'client', 'extendedKeyUsage=clientAuth\n');
  const passphrase = 'correct horse battery';
  openssl(dir, ['pkey', '-in', 'client.key', '-aes256', '-passout', `pass:${passphrase}`, '-out', 'client-encrypted.key']);
  return {
    dir,
    caFile: join(dir, 'ca.pem'),
    serverCertFile: join(dir, 'server.pem'),
    serverKeyFile: join(dir, 'server.key'),
    clientCertFile: join(dir, 'client.pem'),
    clientKeyFile: join(dir, 'client.key'),
    clientEncryptedKeyFile: join(dir, 'client-encrypted.key'),
    passphrase,
    otherCaFile: join(dir, 'other-ca.pem'),
    pem: (file) => readFileSync(file, 'utf8'),
  };
}
