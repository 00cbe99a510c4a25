import type { Exchange } from '../model/exchange.ts';
import { keptForDocumentChecks } from '../model/evidence-trim.ts';
import { session } from './session.ts';

/**
 * One GET without a token per unauthenticated route (§4.2), shared by every suite of the run.
 * Their per-IP limiter's number is "not shown" (§8.1) and may be a handful per window: the
 * openapi and unauthenticated suites judge the same exchanges instead of fetching twice, and
 * keep them for the run.
 */
const fetched = new Map<string, Promise<Exchange>>();

export function publicRouteWithoutToken(path: string): Promise<Exchange> {
  let exchange = fetched.get(path);
  if (exchange === undefined) {
    exchange = session().client.send({ path, token: null }).then(keptForDocumentChecks);
    fetched.set(path, exchange);
  }
  return exchange;
}
