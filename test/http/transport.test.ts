import { describe, expect, test } from 'vitest';
import { connectionHint } from '../../lib/http/connection-hint.ts';
import { requestTransportOf, transportSecrets, type TransportOptions } from '../../lib/http/transport.ts';

const FULL: TransportOptions = {
  headers: [
    { name: 'x-tenant', value: 'acme' },
    { name: 'x-key', value: 'gw-0123456789abcdef', placeholder: '$GW_KEY' },
  ],
  tls: { ca: 'CA', cert: 'C', key: 'K', passphrase: { value: 'p', placeholder: '$PASS' }, files: { cacert: 'ca.pem', cert: 'c.pem', key: 'c.key' } },
  proxy: { https: { url: 'http://u:p@proxy:1', variable: 'HTTPS_PROXY' }, http: { url: 'http://proxy:2', variable: 'http_proxy' } },
};

describe('requestTransportOf', () => {
  test('an https target records the TLS files, the passphrase variable and its proxy variable', () => {
    expect(requestTransportOf(FULL, 'https://api.example.com/v1')).toEqual({ cacert: 'ca.pem', cert: 'c.pem', key: 'c.key', pass: '$PASS', proxy: '$HTTPS_PROXY' });
  });

  test('an http target records only its own proxy; a plain run records nothing', () => {
    expect(requestTransportOf(FULL, 'http://api.example.com/v1')).toEqual({ proxy: '$http_proxy' });
    expect(requestTransportOf({ headers: [] }, 'https://api.example.com/v1')).toBeUndefined();
    expect(requestTransportOf(undefined, 'https://api.example.com/v1')).toBeUndefined();
  });
});

test('transportSecrets: header values from env and proxy URLs with credentials, not literal values nor the passphrase', () => {
  expect(transportSecrets(FULL)).toEqual([
    { value: 'gw-0123456789abcdef', placeholder: '$GW_KEY' },
    { value: 'http://u:p@proxy:1', placeholder: '$HTTPS_PROXY' },
  ]);
});

describe('connectionHint', () => {
  const https = 'https://127.0.0.1:1/v1';
  test.each([
    ['UNABLE_TO_VERIFY_LEAF_SIGNATURE', undefined, /give that CA's PEM bundle with --ca-file/],
    ['SELF_SIGNED_CERT_IN_CHAIN', { headers: [], tls: { ca: 'x', files: {} } }, /not signed by a CA of the --ca-file or tls.ca_file bundle/],
    ['ERR_TLS_CERT_ALTNAME_INVALID', undefined, /not issued for this host name/],
    ['UND_ERR_SOCKET', undefined, /--cert-file and --key-file/],
    ['ECONNRESET', { headers: [], tls: { cert: 'c', key: 'k', files: {} } }, /may not accept this client certificate/],
    ['ECONNREFUSED', FULL, /proxy in HTTPS_PROXY/],
    ['ERR_SSL_WRONG_VERSION_NUMBER', undefined, /^the port answers plain HTTP, not TLS: did you mean http:\/\/127\.0\.0\.1:1\/v1 \?$/],
  ] as Array<[string, TransportOptions | undefined, RegExp]>)('%s', (code, transport, hint) => {
    expect(connectionHint(code, https, transport)).toMatch(hint);
  });

  test('nothing to add for plain http without a proxy, or for a refused connection without one', () => {
    expect(connectionHint('ECONNRESET', 'http://127.0.0.1:1/v1', undefined)).toBeUndefined();
    expect(connectionHint('ECONNREFUSED', https, undefined)).toBeUndefined();
  });
});
