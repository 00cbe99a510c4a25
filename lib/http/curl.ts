import type { Exchange, RequestTransport } from '../model/exchange.ts';

/** Headers curl sets by itself or that would only add noise to a reproduction. */
const OMITTED = new Set(['user-agent', 'content-length', 'host', 'connection']);

/** Single-quotes a shell word. */
export function quote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/**
 * Quotes a word that may hold `$VAR` placeholders for tokens: they stay expandable, everything
 * else is taken literally.
 */
function quoteWithPlaceholders(text: string): string {
  const parts = text.split(/(\$[A-Z_][A-Z0-9_]*)/);
  return parts
    .filter((p) => p !== '')
    .map((p) => (/^\$[A-Z_][A-Z0-9_]*$/.test(p) ? `"${p}"` : quote(p)))
    .join('');
}

/**
 * Flags that open the same connection: the CA bundle, the client certificate (`--cacert`,
 * `--cert`, `--key`, paths relative to the working folder), the key's passphrase and the proxy as
 * the variables that hold them. curl reads NO_PROXY itself, as the harness did. The harness
 * tunnels every proxied request with CONNECT (dispatcher.ts); curl does so for an http target
 * only when told, with --proxytunnel.
 */
function transportArgs(t: RequestTransport | undefined): string[] {
  if (t === undefined) return [];
  const args: string[] = [];
  if (t.cacert !== undefined) args.push('--cacert', quote(t.cacert));
  if (t.cert !== undefined) args.push('--cert', quote(t.cert));
  if (t.key !== undefined) args.push('--key', quote(t.key));
  if (t.pass !== undefined) args.push('--pass', `"${t.pass}"`);
  if (t.proxy !== undefined) args.push('--proxy', `"${t.proxy}"`, '--proxytunnel');
  return args;
}

/**
 * A curl command line that sends the recorded request again. Tokens appear as the shell
 * variables that hold them (`$ASI_TOKEN`), never as values: the exchange was redacted when it
 * was recorded.
 */
export function curlOf(exchange: Exchange): string {
  const req = exchange.request;
  const args = ['curl', '-sS', '-i', '-g', ...transportArgs(req.transport)];
  if (req.method === 'HEAD') args.push('-I');
  else if (req.method !== 'GET' || req.body !== undefined) args.push('-X', req.method);
  for (const [name, value] of Object.entries(req.headers)) {
    if (OMITTED.has(name)) continue;
    args.push('-H', quoteWithPlaceholders(`${name}: ${value}`));
  }
  if ((req.headers['accept'] ?? '').includes('text/event-stream')) args.push('-N');
  if (req.body !== undefined) args.push('--data-binary', quoteWithPlaceholders(req.body));
  args.push(quoteWithPlaceholders(req.url));
  return args.join(' ');
}
