import type { Exchange } from '../model/exchange.ts';
import { fail, inconclusive, pass, type Finding } from '../model/finding.ts';
import { describeResponse } from './json-body.ts';
import { judged } from './judged.ts';

/** A request the spec says must be served: any 2xx passes (the spec fixes no particular one). */
export const expectSuccess = judged('success-status/expectSuccess', function expectSuccess(requirement: string, exchange: Exchange, expected: string): Finding {
  const status = exchange.response?.status ?? 0;
  return status >= 200 && status < 300 ? pass(requirement, [exchange]) : fail(requirement, expected, describeResponse(exchange), [exchange]);
});

/**
 * A request to an unauthenticated route (§4.2), which "Uses a separate per-IP limiter" whose
 * limit is not shown: a 429 that is still there after the budget service waited it out is legal
 * and leaves the route unjudged; any other answer is held to 2xx.
 */
export const expectSuccessUnlessLimited = judged('success-status/expectSuccessUnlessLimited', function expectSuccessUnlessLimited(requirement: string, exchange: Exchange, expected: string): Finding {
  if (exchange.response?.status === 429) {
    return inconclusive(requirement, `the per-IP limiter still answered 429 after its Retry-After was waited out: ${describeResponse(exchange)}`, [exchange]);
  }
  return expectSuccess(requirement, exchange, expected);
});
