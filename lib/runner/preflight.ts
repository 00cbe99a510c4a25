import { TargetUnreachableError } from '../errors.ts';
import { HttpClient, limitsForTimeout } from '../http/client.ts';

/**
 * Asks the target for /health before anything else: a target that does not answer at all is a
 * one-line exit 3, not a report full of inconclusive verdicts. Any HTTP answer counts as reachable.
 */
export async function checkReachable(baseUrl: string, timeoutMs = 10_000): Promise<void> {
  const client = new HttpClient({ baseUrl, tokens: {}, limits: limitsForTimeout(timeoutMs / 1000) });
  try {
    const exchange = await client.send({ path: '/health' });
    if (exchange.response === undefined) {
      const e = exchange.error;
      throw new TargetUnreachableError(baseUrl, e === undefined ? 'no answer' : `${e.code}: ${e.message}`);
    }
  } finally {
    await client.close();
  }
}
