import { LEDGER_PATH, ME_PATH } from '../spec-constants.ts';
import type { ResolvedProfile } from '../profile/resolved-profile.ts';

export interface RouteProbe {
  method: 'GET' | 'POST';
  path: string;
  json?: unknown;
  label: string;
}

/**
 * Every token-authenticated route the harness knows of: GET /me (§4.3), GET /credits/operations
 * (§4.1), and the message routes of the profile. Probing them without a valid token costs nothing:
 * a request that fails authentication has no token to charge.
 */
export function authenticatedRoutes(profile: ResolvedProfile): RouteProbe[] {
  return [
    { method: 'GET', path: ME_PATH, label: `GET ${ME_PATH}` },
    { method: 'GET', path: LEDGER_PATH, label: `GET ${LEDGER_PATH}` },
    ...profile.messages.routes.map((r): RouteProbe => ({ method: 'POST', path: r.path, json: r.body, label: `POST ${r.template}` })),
  ];
}
