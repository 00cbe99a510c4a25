import { carriesNoLiveToken, servedWithoutTokenProblem } from '../../checks/token-refusal.ts';
import type { Invariant, Observation } from '../invariant.ts';

const NO_SERVICE = 'auth/5.1/no-service-without-token';

/**
 * > Every endpoint except the unauthenticated routes requires the header `Authorization: Bearer <API_TOKEN>`.
 * Every request of the run to a token-authenticated route (the spec's and the profile's) that
 * carried no live token, whatever its method and whichever suite sent it: never a 2xx. OPTIONS is
 * not bound (a CORS preflight carries no token; docs/ambiguity-register.md, The exchange matrix).
 */
export const tokenRefusalInvariant: Invariant = {
  name: 'token-refusal',
  requirements: [NO_SERVICE],
  expected: { [NO_SERVICE]: 'no 2xx to a request without a live token on a token-authenticated route, whatever its method but OPTIONS (§5.1)' },
  binds: { [NO_SERVICE]: 'requests without a live token on token-authenticated routes' },
  observe(exchange, facts): Observation[] {
    if (exchange.response === undefined || facts.kind !== 'authenticated' || facts.method === 'OPTIONS' || !carriesNoLiveToken(exchange)) return [];
    const problem = servedWithoutTokenProblem(exchange);
    return [{ requirement: NO_SERVICE, problems: problem === undefined ? [] : [problem] }];
  },
};
