import { copyFileSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { ProfileError, UsageError } from '../../lib/errors.ts';
import { transportSecrets } from '../../lib/http/transport.ts';
import { loadProfileFile } from '../../lib/profile/load-profile.ts';
import { resolveTransport, type TransportInput } from '../../lib/profile/resolve-transport.ts';
import { makeTestPki, type TestPki } from '../support/certificates.ts';

const HTTPS = 'https://api.example.com/v1';
const SECRET = 'gw-0123456789abcdef';

function input(over: Partial<TransportInput> = {}): TransportInput {
  return { baseUrl: HTTPS, flags: { headers: [] }, env: {}, cwd: '/', ...over };
}

/** The one-line error a resolution throws, checked never to echo `secret`. */
function errorOf(i: TransportInput, secret = SECRET): Error {
  try {
    resolveTransport(i);
  } catch (err) {
    expect((err as Error).message).not.toContain(secret);
    return err as Error;
  }
  throw new Error('expected an error');
}

describe('extra headers', () => {
  test('a flag header is literal; a $VAR or ${VAR} value comes from env and is a secret with its placeholder', () => {
    const { transport } = resolveTransport(input({ flags: { headers: ['X-Tenant: acme', 'X-Key: $GW_KEY', 'X-Other:${GW_KEY}'] }, env: { GW_KEY: SECRET } }));
    expect(transport.headers).toEqual([
      { name: 'x-tenant', value: 'acme' },
      { name: 'x-key', value: SECRET, placeholder: '$GW_KEY' },
      { name: 'x-other', value: SECRET, placeholder: '$GW_KEY' },
    ]);
    expect(transportSecrets(transport)).toEqual([
      { value: SECRET, placeholder: '$GW_KEY' },
      { value: SECRET, placeholder: '$GW_KEY' },
    ]);
  });

  test('profile headers come first; a flag of the same name (any case) replaces one', () => {
    const { transport } = resolveTransport(
      input({ profile: { file: 'p.yaml', headers: { 'X-Tenant': 'acme', 'X-Key': { env: 'GW_KEY' } } }, flags: { headers: ['x-tenant: other'] }, env: { GW_KEY: SECRET } }),
    );
    expect(transport.headers.map((h) => `${h.name}=${h.value}`)).toEqual([`x-key=${SECRET}`, 'x-tenant=other']);
  });

  test.each([
    ['Authorization', 'Authorization: Bearer gw-0123456789abcdef', /--header Authorization is refused: the harness sets Authorization itself.*tokens\.primary or in ASI_TOKEN/],
    ['any case of Authorization', 'authorization: gw-0123456789abcdef', /authorization is refused/],
    ['Proxy-Authorization', 'Proxy-Authorization: Basic gw-0123456789abcdef', /proxy credentials in the proxy URL/],
    ['Accept', 'Accept: text/event-stream', /Accept is refused: tests choose it/],
    ['Host', 'Host: gw-0123456789abcdef', /Host is refused/],
    ['a name that is no token', 'X Key: gw-0123456789abcdef', /"X Key" is not a header name/],
    ['no name', ': gw-0123456789abcdef', /expects 'Name: value'/],
    ['no colon', 'X-Key gw-0123456789abcdef', /expects 'Name: value'/],
  ])('a flag with %s is a usage error that never echoes the value', (_what, line, message) => {
    const err = errorOf(input({ flags: { headers: [line] } }));
    expect(err).toBeInstanceOf(UsageError);
    expect(err.message).toMatch(message);
  });

  test('a line break in a value is refused without echoing it', () => {
    const err = errorOf(input({ profile: { file: 'p.yaml', headers: { 'X-Key': `${SECRET}\r\nX-Evil: 1` } } }));
    expect(err).toBeInstanceOf(ProfileError);
    expect(err.message).toBe('p.yaml: headers: X-Key: the value holds a line break or NUL, which no header may');
  });

  test('an unset or empty variable is an error naming it and which of the two it is, from a flag and from the profile', () => {
    expect(errorOf(input({ flags: { headers: ['X-Key: $GW_KEY'] }, env: { GW_KEY: '' } })).message).toBe(
      'run: --header X-Key: environment variable GW_KEY is set but empty (export GW_KEY=<value>)',
    );
    expect(errorOf(input({ flags: { headers: ['X-Key: $GW_KEY'] }, env: { GW_KEY: '  ' } })).message).toContain('GW_KEY is set but empty');
    expect(errorOf(input({ flags: { headers: ['X-Key: $GW_KEY'] }, env: {} })).message).toBe(
      'run: --header X-Key: environment variable GW_KEY is not set (export GW_KEY=<value>)',
    );
    const err = errorOf(input({ profile: { file: 'p.yaml', headers: { 'X-Key': { env: 'GW_KEY' } } } }));
    expect(err).toBeInstanceOf(ProfileError);
    expect(err.message).toBe('p.yaml: headers: X-Key: environment variable GW_KEY is not set (export GW_KEY=<value>)');
  });

  test('a literal credential is refused without echoing it: a header named like one, or an ASI token, must come from a variable', () => {
    expect(errorOf(input({ flags: { headers: [`X-Api-Key: ${SECRET}`] } })).message).toBe(
      "run: --header X-Api-Key: a literal value for a credential would be written into every report; give it from a variable ('X-Api-Key: $VAR'), which redacts it",
    );
    expect(errorOf(input({ profile: { file: 'p.yaml', headers: { Cookie: `session=${SECRET}` } } })).message).toBe(
      'p.yaml: headers: Cookie: a literal value for a credential would be written into every report; give it from a variable (Cookie: { env: VAR }), which redacts it',
    );
    const token = 'asi_live_0123456789abcdef0123456789abcdef';
    expect(errorOf(input({ flags: { headers: [`X-Trace: ${token}`] } }), token).message).toMatch(/^run: --header X-Trace: a literal value for a credential/);
    for (const name of ['X-Auth-Token', 'X-Gateway-Secret', 'Apikey', 'X-Session', 'X-Signature']) {
      expect(errorOf(input({ flags: { headers: [`${name}: ${SECRET}`] } })).message, name).toMatch(/a literal value for a credential/);
    }
  });

  test('a literal that is no credential passes: another name, or a value too short to be one', () => {
    const { transport } = resolveTransport(input({ flags: { headers: ['X-Tenant: acme-corporation-eu', 'X-Monkey: banana-bread-42', 'X-Api-Key: demo'] } }));
    expect(transport.headers.map((h) => h.name)).toEqual(['x-tenant', 'x-monkey', 'x-api-key']);
  });

  test('a secret too short to redact safely is refused, not silently mangling the reports', () => {
    expect(errorOf(input({ flags: { headers: ['X-Tenant: $T'] }, env: { T: '42' } }), '42').message).toMatch(/value of T is shorter than 8 characters.*give it literally/);
  });

  test('the same header twice is an error', () => {
    expect(errorOf(input({ flags: { headers: ['X-A: 1', 'x-a: 2'] } })).message).toMatch(/x-a is given twice/);
    expect(errorOf(input({ profile: { file: 'p.yaml', headers: { 'X-A': '1', 'x-a': '2' } } })).message).toMatch(/p\.yaml: headers: x-a is given twice/);
  });
});

describe('TLS material', () => {
  let pki: TestPki;
  let profileDir: string;
  beforeAll(() => {
    pki = makeTestPki();
    // A profile folder below the PKI folder, naming files relative to itself.
    profileDir = join(pki.dir, 'profiles');
    mkdirSync(profileDir);
    writeFileSync(join(pki.dir, 'combined.pem'), pki.pem(pki.clientCertFile) + pki.pem(pki.clientKeyFile));
    copyFileSync(pki.serverKeyFile, join(pki.dir, 'not-a-cert.pem'));
  });

  test('flags are read relative to the working folder and shown relative to it for curl', () => {
    const { transport } = resolveTransport(input({ cwd: pki.dir, flags: { headers: [], caFile: 'ca.pem', certFile: 'client.pem', keyFile: 'client.key' } }));
    expect(transport.tls?.ca).toBe(pki.pem(pki.caFile));
    expect(transport.tls?.cert).toBe(pki.pem(pki.clientCertFile));
    expect(transport.tls?.key).toBe(pki.pem(pki.clientKeyFile));
    expect(transport.tls?.files).toEqual({ cacert: 'ca.pem', cert: 'client.pem', key: 'client.key' });
  });

  test('profile paths are relative to the profile file; an encrypted key opens with the passphrase from env', () => {
    const { transport } = resolveTransport(
      input({
        cwd: profileDir,
        profile: { file: join(profileDir, 'target.yaml'), tls: { ca_file: '../ca.pem', cert_file: '../client.pem', key_file: '../client-encrypted.key', passphrase: { env: 'PASS' } } },
        env: { PASS: pki.passphrase },
      }),
    );
    expect(transport.tls?.files).toEqual({ cacert: '../ca.pem', cert: '../client.pem', key: '../client-encrypted.key' });
    expect(transport.tls?.passphrase).toEqual({ value: pki.passphrase, placeholder: '$PASS' });
    // The passphrase is never sent nor printed: it is not among the redacted secrets.
    expect(transportSecrets(transport)).toEqual([]);
  });

  test('a flag wins over the profile for the same file', () => {
    const { transport } = resolveTransport(input({ cwd: pki.dir, profile: { file: join(profileDir, 't.yaml'), tls: { ca_file: 'nowhere.pem' } }, flags: { headers: [], caFile: 'other-ca.pem' } }));
    expect(transport.tls?.files.cacert).toBe('other-ca.pem');
  });

  test('a certificate file holding its key too needs no key file (as curl --cert)', () => {
    const { transport } = resolveTransport(input({ cwd: pki.dir, flags: { headers: [], certFile: 'combined.pem' } }));
    expect(transport.tls?.key).toContain('PRIVATE KEY');
    expect(transport.tls?.files).toEqual({ cert: 'combined.pem' });
  });

  test.each([
    ['a missing file', { caFile: 'absent.pem' }, /^run: --ca-file absent\.pem: no such file$/],
    ['a CA file that is no certificate', { caFile: 'not-a-cert.pem' }, /--ca-file not-a-cert\.pem: not a PEM certificate bundle/],
    ['a certificate without its key', { certFile: 'client.pem' }, /--cert-file needs its private key/],
    ['a key without a certificate', { keyFile: 'client.key' }, /--key-file needs a client certificate too/],
    ['a key of another certificate', { certFile: 'client.pem', keyFile: 'server.key' }, /server\.key: this key does not belong to the certificate client\.pem/],
    ['an encrypted key without passphrase', { certFile: 'client.pem', keyFile: 'client-encrypted.key' }, /the key is encrypted: give tls\.passphrase/],
  ])('%s is a one-line usage error naming the flag', (_what, flags, message) => {
    const err = errorOf(input({ cwd: pki.dir, flags: { headers: [], ...flags } }));
    expect(err).toBeInstanceOf(UsageError);
    expect(err.message).toMatch(message);
  });

  test('a wrong passphrase or an unset one is a profile error naming the key', () => {
    const profile = (env: NodeJS.ProcessEnv): TransportInput =>
      input({ cwd: pki.dir, env, profile: { file: join(pki.dir, 't.yaml'), tls: { cert_file: 'client.pem', key_file: 'client-encrypted.key', passphrase: { env: 'PASS' } } } });
    expect(errorOf(profile({ PASS: 'not the passphrase' }), 'not the passphrase').message).toMatch(/t\.yaml: tls\.key_file: client-encrypted\.key: the passphrase does not open the key/);
    expect(errorOf(profile({})).message).toMatch(/tls\.passphrase: environment variable PASS is not set$/);
    expect(errorOf(profile({ PASS: '' })).message).toMatch(/tls\.passphrase: environment variable PASS is set but empty$/);
  });

  test('with a plain http base_url the files are checked but not used, and a note says so', () => {
    const { transport, notices } = resolveTransport(input({ baseUrl: 'http://127.0.0.1:1/v1', cwd: pki.dir, flags: { headers: [], caFile: 'ca.pem' } }));
    expect(transport.tls).toBeUndefined();
    expect(notices).toEqual(['TLS files are not used: base_url http://127.0.0.1:1/v1 is plain http']);
  });
});

describe('proxies from the environment', () => {
  test('none set: no proxy', () => {
    expect(resolveTransport(input({ env: { HTTPS_PROXY: ' ', no_proxy: 'x' } })).transport.proxy).toBeUndefined();
  });

  test('lower case wins as in undici; HTTP_PROXY also serves https; a note names the variable and host only', () => {
    const { transport, notices } = resolveTransport(input({ env: { HTTP_PROXY: 'http://user:pa55word-0123@proxy:3128', https_proxy: '', NO_PROXY: 'internal' } }));
    expect(transport.proxy).toEqual({
      https: { url: 'http://user:pa55word-0123@proxy:3128', variable: 'HTTP_PROXY' },
      http: { url: 'http://user:pa55word-0123@proxy:3128', variable: 'HTTP_PROXY' },
      noProxy: 'internal',
    });
    expect(notices).toEqual(['requests go through the proxy in HTTP_PROXY (proxy:3128) unless NO_PROXY lists the target']);
    // A URL with credentials is a secret as a whole.
    expect(transportSecrets(transport)).toContainEqual({ value: 'http://user:pa55word-0123@proxy:3128', placeholder: '$HTTP_PROXY' });
    const lower = resolveTransport(input({ env: { https_proxy: 'http://a:1', HTTPS_PROXY: 'http://b:2' } })).transport.proxy;
    expect(lower?.https).toEqual({ url: 'http://a:1', variable: 'https_proxy' });
    expect(lower?.http).toBeUndefined();
  });

  test('a proxy variable that is no URL is a usage error that does not echo it', () => {
    const err = errorOf(input({ env: { HTTPS_PROXY: 'user:gw-0123456789abcdef' } }));
    expect(err.message).toBe('run: HTTPS_PROXY is not a proxy URL; expected for example http://proxy.example.com:3128');
  });
});

describe('the profile keys headers and tls', () => {
  const dir = mkdtempSync(join(tmpdir(), 'asi-transport-profile-'));
  function load(text: string): string {
    const file = join(dir, `p${Math.random()}.yaml`);
    writeFileSync(file, `base_url: https://127.0.0.1:1/v1\ntokens: { primary: { env: X } }\n${text}\n`);
    try {
      loadProfileFile(file);
      return 'valid';
    } catch (err) {
      return (err as Error).message.slice(file.length + 2);
    }
  }

  test('validate literal and env values and the four tls keys', () => {
    expect(load('headers: { X-Tenant: acme, X-Key: { env: GW_KEY } }\ntls: { ca_file: ca.pem, cert_file: c.pem, key_file: c.key, passphrase: { env: P } }')).toBe('valid');
  });

  test.each([
    ['a header value of another type', 'headers: { X-Key: 5 }', 'headers.X-Key: expected string, got a number (value not shown)'],
    ['a header source with a wrong key', 'headers: { X-Key: { envv: A } }', 'headers.X-Key.envv: unknown key; expected one of env'],
    ['a list of headers', 'headers: [ "X-Key: gw-0123456789abcdef" ]', 'headers: expected object, got a list of 1 item'],
    ['an unknown tls key', 'tls: { ca: ca.pem }', 'tls.ca: unknown key; expected one of ca_file, cert_file, key_file, passphrase'],
    ['a passphrase written in the profile', 'tls: { passphrase: gw-0123456789abcdef }', 'tls.passphrase: expected object, got a string of 19 characters (value not shown)'],
  ])('%s names the key and never echoes the value', (_what, text, message) => {
    expect(load(text)).toBe(message);
  });
});
