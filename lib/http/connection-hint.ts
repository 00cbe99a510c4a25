import { connect } from 'node:tls';
import { isIP } from 'node:net';
import type { TransportOptions } from './transport.ts';

/** Codes of a certificate chain that does not lead to a CA the run trusts (Node's OpenSSL codes). */
const UNTRUSTED = new Set([
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'CERT_UNTRUSTED',
  'CERT_SIGNATURE_FAILURE',
]);

/** Errors with which a server that wants a client certificate ends a handshake without one. */
const CLOSED = /^(UND_ERR_SOCKET|ECONNRESET|EPIPE|ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED|ERR_SSL_SSLV3_ALERT_HANDSHAKE_FAILURE|ERR_SSL_SSLV3_ALERT_BAD_CERTIFICATE)$/;

/** OpenSSL's words for a handshake answered in plain text: an https URL to a port that speaks plain HTTP. */
const PLAIN_ANSWER = /^(ERR_SSL_WRONG_VERSION_NUMBER|ERR_SSL_PACKET_LENGTH_TOO_LONG|ERR_SSL_HTTP_REQUEST)$/;

/** Errors of a plain HTTP request that a TLS server closed or answered with a TLS record. */
const TLS_PORT = /^(UND_ERR_SOCKET|ECONNRESET|EPIPE|HPE_INVALID_CONSTANT|HPE_INVALID_VERSION|HPE_INVALID_STATUS)$/;

/** `baseUrl` with the other scheme, for "did you mean". */
function otherScheme(baseUrl: string): string {
  const url = new URL(baseUrl);
  url.protocol = url.protocol === 'https:' ? 'http:' : 'https:';
  return url.href.replace(/\/$/, '');
}

/**
 * What to do about a transport error on the first request to `baseUrl`, in the words of the
 * flags that fix it; undefined when there is nothing better to say than the error itself.
 */
export function connectionHint(code: string, baseUrl: string, transport: TransportOptions | undefined): string | undefined {
  const https = new URL(baseUrl).protocol === 'https:';
  const proxy = https ? transport?.proxy?.https : transport?.proxy?.http;
  if (proxy !== undefined && /^(ECONNREFUSED|ENOTFOUND|EAI_AGAIN|UND_ERR_CONNECT_TIMEOUT|UND_ERR_ABORTED)$/.test(code)) {
    return `requests go through the proxy in ${proxy.variable} unless NO_PROXY lists the target: check that the proxy answers and lets the tunnel through`;
  }
  if (!https) return undefined;
  if (proxy === undefined && PLAIN_ANSWER.test(code)) return `the port answers plain HTTP, not TLS: did you mean ${otherScheme(baseUrl)} ?`;
  const tls = transport?.tls;
  if (UNTRUSTED.has(code)) {
    return tls?.ca === undefined
      ? "the target's certificate is not signed by a CA this run trusts: give that CA's PEM bundle with --ca-file or tls.ca_file"
      : "the target's certificate is not signed by a CA of the --ca-file or tls.ca_file bundle";
  }
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID') return "the target's certificate is not issued for this host name: use in base_url a name the certificate lists";
  if (code === 'CERT_HAS_EXPIRED') return "the target's certificate has expired";
  if (CLOSED.test(code) && tls?.cert === undefined) {
    return 'the target closed the connection at or right after the TLS handshake; if it asks for a client certificate (mTLS), give one with --cert-file and --key-file, or tls.cert_file and tls.key_file';
  }
  if (CLOSED.test(code)) return 'the target closed the connection at or right after the TLS handshake: it may not accept this client certificate';
  return undefined;
}

/** Whether `host:port` completes a TLS handshake; nothing is sent after it. */
function speaksTls(host: string, port: number, timeoutMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    // Only whether the port speaks TLS is asked: its certificate is not trusted with anything.
    const socket = connect({ host, port, rejectUnauthorized: false, ...(isIP(host) === 0 ? { servername: host } : {}) });
    const done = (speaks: boolean): void => {
      clearTimeout(timer);
      socket.destroy();
      resolve(speaks);
    };
    const timer = setTimeout(() => done(false), timeoutMs);
    socket.once('secureConnect', () => done(true));
    socket.once('error', () => done(false));
  });
}

/**
 * For a plain http base_url whose port speaks TLS (the request was closed, or answered with a
 * TLS record or a web page saying so), "did you mean https://...": found by a TLS handshake with
 * the port. Undefined for anything else, and through a proxy (the port is the proxy's concern).
 */
export async function tlsPortHint(code: string | undefined, baseUrl: string, transport: TransportOptions | undefined, timeoutMs = 3000): Promise<string | undefined> {
  const url = new URL(baseUrl);
  if (url.protocol !== 'http:' || transport?.proxy?.http !== undefined) return undefined;
  if (code !== undefined && !TLS_PORT.test(code)) return undefined;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (!(await speaksTls(host, Number(url.port || 80), timeoutMs))) return undefined;
  return `the port speaks TLS: did you mean ${otherScheme(baseUrl)} ?`;
}
