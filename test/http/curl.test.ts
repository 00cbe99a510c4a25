import { execFileSync } from 'node:child_process';
import { expect, test } from 'vitest';
import { curlOf } from '../../lib/http/curl.ts';
import type { Exchange } from '../../lib/model/exchange.ts';

function exchange(request: Exchange['request']): Exchange {
  return { seq: 1, startedAt: new Date(0).toISOString(), request, timings: { totalMs: 1 } };
}

test('a GET keeps the token as an expandable variable and quotes the rest', () => {
  const line = curlOf(exchange({ method: 'GET', url: "http://h/v1/x?cursor=a'b&q=$HOME", headers: { authorization: 'Bearer $ASI_TOKEN', 'user-agent': 'x' } }));
  expect(line).toBe(`curl -sS -i -g -H 'authorization: Bearer '"$ASI_TOKEN" 'http://h/v1/x?cursor=a'\\''b&q='"$HOME"`);
});

test('the shell reads back exactly the recorded words', () => {
  const line = curlOf(
    exchange({ method: 'POST', url: 'http://h/v1/m?a=1&b=[2]', headers: { authorization: 'Bearer $ASI_TOKEN', 'content-type': 'application/json' }, body: `{"message":"it's \\"quoted\\" $(x) \`y\`"}` }),
  );
  // Replace curl by printf to see the arguments the shell would pass.
  const words = execFileSync('/bin/sh', ['-c', line.replace(/^curl/, `printf '%s\\n'`)], { env: { ASI_TOKEN: 'T0K' }, encoding: 'utf8' }).split('\n');
  expect(words).toContain('authorization: Bearer T0K');
  expect(words).toContain(`{"message":"it's \\"quoted\\" $(x) \`y\`"}`);
  expect(words).toContain('http://h/v1/m?a=1&b=[2]');
  expect(words).toContain('POST');
});

test('an event stream request gets -N', () => {
  expect(curlOf(exchange({ method: 'POST', url: 'http://h/v1/m', headers: { accept: 'text/event-stream' }, body: '{}' }))).toContain(' -N ');
});

test('the connection of a run behind infrastructure: CA, client certificate, passphrase and proxy as curl takes them', () => {
  const line = curlOf(
    exchange({
      method: 'GET',
      url: 'https://h/v1/me',
      headers: { 'x-gateway-key': '$GATEWAY_KEY', 'x-tenant': 'acme' },
      transport: { cacert: "pki/ca's.pem", cert: 'pki/client.pem', key: 'pki/client.key', pass: '$KEY_PASS', proxy: '$https_proxy' },
    }),
  );
  expect(line).toBe(
    `curl -sS -i -g --cacert 'pki/ca'\\''s.pem' --cert 'pki/client.pem' --key 'pki/client.key' --pass "$KEY_PASS" --proxy "$https_proxy" --proxytunnel -H 'x-gateway-key: '"$GATEWAY_KEY" -H 'x-tenant: acme' 'https://h/v1/me'`,
  );
});
