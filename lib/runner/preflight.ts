import { TargetUnreachableError } from '../errors.ts';
import { HttpClient } from '../http/client.ts';
import { connectionHint } from '../http/connection-hint.ts';
import type { TransportOptions } from '../http/transport.ts';

/**
 * Asks the target for /health before anything else: a target that does not answer at all is a
 * one-line exit 3, not a report full of inconclusive verdicts. Any HTTP answer counts as reachable.
 */
export async function checkReachable(baseUrl: string, timeoutMs = 10_000, transport?: TransportOptions): Promise<void> {
  // The same headers, TLS material and proxy as the suites: reachable must mean reachable for them.
  const client = new HttpClient({
    baseUrl,
    tokens: {},
    limits: { connectTimeoutMs: Math.min(timeoutMs, 5_000), headersTimeoutMs: timeoutMs, bodyTimeoutMs: timeoutMs },
    ...(transport === undefined ? {} : { transport }),
  });
  try {
    const exchange = await client.send({ path: '/health' });
    if (exchange.response === undefined) {
      const e = exchange.error;
      const hint = e === undefined ? undefined : connectionHint(e.code, baseUrl, transport);
      throw new TargetUnreachableError(baseUrl, e === undefined ? 'no answer' : `${e.code}: ${e.message}${hint === undefined ? '' : ` (${hint})`}`);
    }
  } finally {
    await client.close();
  }
}
