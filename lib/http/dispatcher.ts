import type { Dispatcher } from 'undici';
import { Agent, EnvHttpProxyAgent } from './undici-parts.ts';
import type { TlsMaterial, TransportOptions } from './transport.ts';

/** Connections to the target when nothing asks for more. */
const DEFAULT_CONNECTIONS = 16;

export interface DispatcherTimeouts {
  connectTimeoutMs: number;
  headersTimeoutMs: number;
  bodyTimeoutMs: number;
}

/** Node's TLS options for the target: the CA bundle, the client certificate and its key. */
function tlsOptions(tls: TlsMaterial | undefined): { ca?: string; cert?: string; key?: string; passphrase?: string } {
  if (tls === undefined) return {};
  return {
    ...(tls.ca === undefined ? {} : { ca: tls.ca }),
    ...(tls.cert === undefined ? {} : { cert: tls.cert }),
    ...(tls.key === undefined ? {} : { key: tls.key }),
    ...(tls.passphrase === undefined ? {} : { passphrase: tls.passphrase.value }),
  };
}

/**
 * The one undici dispatcher of a client: every timeout set, the target's TLS material, and a
 * proxy when HTTPS_PROXY or HTTP_PROXY was set. Through a proxy, undici tunnels with CONNECT and
 * takes the target's TLS options as `requestTls` (its `connect` then opens the tunnel), so both
 * carry them; the proxy's own TLS keeps the default trust store, since a private CA for the
 * target says nothing about the proxy. Redirects are never followed (undici's default).
 */
export function buildDispatcher(timeouts: DispatcherTimeouts, transport: TransportOptions | undefined, maxInFlight = DEFAULT_CONNECTIONS): Dispatcher {
  const tls = tlsOptions(transport?.tls);
  const common = {
    headersTimeout: timeouts.headersTimeoutMs,
    bodyTimeout: timeouts.bodyTimeoutMs,
    // One request per connection (no pipelining): as many connections as requests may be in flight.
    connections: Math.max(DEFAULT_CONNECTIONS, maxInFlight),
  };
  const connect = { timeout: timeouts.connectTimeoutMs, ...tls };
  const proxy = transport?.proxy;
  if (proxy === undefined || (proxy.https === undefined && proxy.http === undefined)) {
    return new Agent({ ...common, connect });
  }
  return new EnvHttpProxyAgent({
    ...common,
    connect,
    requestTls: connect,
    proxyTls: { timeout: timeouts.connectTimeoutMs },
    // Every proxied request, to an http target too, goes through a CONNECT tunnel (undici's
    // default, set here so that it stays so): curl lines say --proxytunnel (curl.ts).
    proxyTunnel: true,
    // Always given (empty for none): undici reads process.env only for an undefined value, and
    // these were read once, in the main process, from the environment the user set.
    httpProxy: proxy.http?.url ?? '',
    httpsProxy: proxy.https?.url ?? '',
    noProxy: proxy.noProxy ?? '',
  });
}
