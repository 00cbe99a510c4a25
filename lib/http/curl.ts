import type { Exchange } from '../model/exchange.ts';

/** Headers curl sets by itself or that would only add noise to a reproduction. */
const OMITTED = new Set(['user-agent', 'content-length', 'host', 'connection']);

/** Single-quotes a shell word. */
function quote(text: string): string {
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
 * A curl command line that sends the recorded request again. Tokens appear as the shell
 * variables that hold them (`$ASI_TOKEN`), never as values: the exchange was redacted when it
 * was recorded.
 */
export function curlOf(exchange: Exchange): string {
  const req = exchange.request;
  const args = ['curl', '-sS', '-i', '-g'];
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
