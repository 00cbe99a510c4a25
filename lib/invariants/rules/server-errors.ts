import { declaredRoutes, type RecordContext } from '../exchange-facts.ts';
import type { Invariant, Observation } from '../invariant.ts';

const NO_SERVER_ERROR = 'errors/7/no-server-error';

/**
 * > | 503 | Error envelope (upstream dependency unavailable). |   (the ledger's responses, §4.1)
 * > | 503 | system.rate_limit_unavailable | transient | ... |  503 | (upstream unavailable) |   (§7)
 * The only server-side failure the spec knows is 503. So no request on a route the spec names,
 * built as the spec says it may be (every ledger, /me and job-poll request, and the profile's own
 * message), is answered with another 5xx: a 500 is a fault of the server, not a condition the
 * spec describes. A 503 outside any drill is the target's own outage, which §1 allows (an upstream
 * or a spend cap): remarked, never held against it.
 */
export const serverErrorsInvariant: Invariant = {
  name: 'server-errors',
  requirements: [NO_SERVER_ERROR],
  expected: { [NO_SERVER_ERROR]: 'no 5xx other than 503 to any request on a route the spec names (§4.1, §7)' },
  binds: { [NO_SERVER_ERROR]: 'requests on the routes the spec names' },
  observe(exchange, facts): Observation[] {
    const status = exchange.response?.status;
    if (status === undefined || !facts.builtValid) return [];
    if (status >= 500 && status !== 503) return [{ requirement: NO_SERVER_ERROR, problems: [`HTTP ${status}${facts.faults.length > 0 ? ` during the ${facts.faults.join(', ')} drill` : ''}`] }];
    const remark = status === 503 && facts.faults.length === 0 ? 'a 503 came outside any drill (an outage of the target\'s own, which the spec allows)' : undefined;
    return [{ requirement: NO_SERVER_ERROR, problems: [], ...(remark === undefined ? {} : { remark }) }];
  },
  declaredCells: (_id, context: RecordContext) => declaredRoutes(context).map((r) => `${r} 2xx`),
};
