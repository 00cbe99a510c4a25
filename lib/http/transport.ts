import type { RequestTransport } from '../model/exchange.ts';
import type { Secret } from './redactor.ts';

/**
 * How the client reaches a target behind real infrastructure: headers a gateway wants on every
 * request, a private CA, a client certificate, a proxy. Resolved once in the main process
 * (lib/profile/resolve-transport.ts) and handed to the suites' worker, so it stays serialisable:
 * file contents, not file handles.
 */
export interface ExtraHeader {
  /** Lower case, as every recorded header name. */
  name: string;
  value: string;
  /** `$VAR` when the value came from the environment: then it is a secret, redacted like a token. */
  placeholder?: string;
}

export interface TlsMaterial {
  /** PEM bundle that replaces the default trusted CAs for the target (as curl's `--cacert`). */
  ca?: string;
  /** PEM client certificate and key, for a target that asks for one (mTLS). */
  cert?: string;
  key?: string;
  /** Passphrase of an encrypted key: a secret. */
  passphrase?: Secret;
  /**
   * The same files as curl takes them, relative to the working folder (reports never show local
   * absolute paths): the curl lines reproduce the connection with `--cacert`, `--cert`, `--key`.
   */
  files: { cacert?: string; cert?: string; key?: string };
}

/** A proxy URL and the environment variable it came from (`HTTPS_PROXY`, `http_proxy`, ...). */
export interface ProxyChoice {
  url: string;
  variable: string;
}

/**
 * Proxies as undici's EnvHttpProxyAgent reads them: `https` for https targets (HTTPS_PROXY, else
 * HTTP_PROXY), `http` for http targets (HTTP_PROXY); hosts in NO_PROXY go direct.
 */
export interface ProxySettings {
  https?: ProxyChoice;
  http?: ProxyChoice;
  noProxy?: string;
}

export interface TransportOptions {
  headers: ExtraHeader[];
  tls?: TlsMaterial;
  proxy?: ProxySettings;
}

/**
 * What must never be printed besides the tokens: header values from env and proxy credentials.
 * Not the key's passphrase: it is never sent nor put in any text, only handed to TLS, and a short
 * one would otherwise be "redacted" out of unrelated words.
 */
export function transportSecrets(transport: TransportOptions | undefined): Secret[] {
  if (transport === undefined) return [];
  const secrets: Secret[] = [];
  for (const h of transport.headers) if (h.placeholder !== undefined) secrets.push({ value: h.value, placeholder: h.placeholder });
  // A proxy URL with credentials (`http://user:pass@proxy:3128`) is a secret as a whole.
  for (const p of [transport.proxy?.https, transport.proxy?.http]) {
    if (p !== undefined && /\/\/[^/@]*@/.test(p.url)) secrets.push({ value: p.url, placeholder: `$${p.variable}` });
  }
  return secrets;
}

/** The curl side of a transport for requests to `baseUrl` (see RecordedRequest.transport); undefined when plain. */
export function requestTransportOf(transport: TransportOptions | undefined, baseUrl: string): RequestTransport | undefined {
  if (transport === undefined) return undefined;
  const https = new URL(baseUrl).protocol === 'https:';
  const out: RequestTransport = {};
  const tls = transport.tls;
  if (https && tls !== undefined) {
    if (tls.files.cacert !== undefined) out.cacert = tls.files.cacert;
    if (tls.files.cert !== undefined) out.cert = tls.files.cert;
    if (tls.files.key !== undefined) out.key = tls.files.key;
    if (tls.passphrase !== undefined) out.pass = tls.passphrase.placeholder;
  }
  const proxy = https ? transport.proxy?.https : transport.proxy?.http;
  if (proxy !== undefined) out.proxy = `$${proxy.variable}`;
  return Object.keys(out).length === 0 ? undefined : out;
}
