import { messageBodyWith } from '../arbitraries/message-text.ts';
import { jobPollPath } from '../checks/conversation-job.ts';
import { LEDGER_PATH, ME_PATH } from '../spec-constants.ts';
import type { ResolvedProfile } from '../profile/resolved-profile.ts';

export interface RouteProbe {
  method: 'GET' | 'POST';
  path: string;
  json?: unknown;
  headers?: Record<string, string>;
  label: string;
}

/** How far to go through the message transports: the first route's stream and job forms too. */
export interface RouteOptions {
  /** A job the primary token created: its poll is an authenticated GET like any other (§8.1 rule 3). */
  pollJobId?: string;
}

/**
 * Every token-authenticated route the harness knows of: GET /me (§4.3), GET /credits/operations
 * (§4.1), the message routes of the profile as REST POSTs, the first route's POST streamed both
 * ways (§1: `Accept: text/event-stream`, `stream: true`) and in the job mode, and the poll of a
 * job when one is given. Probing them without a valid token costs nothing: a request that fails
 * authentication has no token to charge.
 */
export function authenticatedRoutes(profile: ResolvedProfile, options: RouteOptions = {}): RouteProbe[] {
  const { routes, async: jobs } = profile.messages;
  const probes: RouteProbe[] = [
    { method: 'GET', path: ME_PATH, label: `GET ${ME_PATH}` },
    { method: 'GET', path: LEDGER_PATH, label: `GET ${LEDGER_PATH}` },
    ...routes.map((r): RouteProbe => ({ method: 'POST', path: r.path, json: r.body, label: `POST ${r.template}` })),
  ];
  const first = routes[0];
  if (first !== undefined) {
    probes.push(
      { method: 'POST', path: first.path, json: first.body, headers: { accept: 'text/event-stream' }, label: `POST ${first.template} (Accept: text/event-stream)` },
      { method: 'POST', path: first.path, json: messageBodyWith(first.body, '', true), label: `POST ${first.template} (stream: true)` },
    );
    if (jobs !== undefined) probes.push({ method: 'POST', path: first.path, json: { ...first.body, ...jobs.body }, label: `POST ${first.template} (job mode)` });
  }
  if (jobs !== undefined && options.pollJobId !== undefined) {
    probes.push({ method: 'GET', path: jobPollPath(jobs.poll, options.pollJobId), label: `GET ${jobs.poll} (a job of the primary token)` });
  }
  return probes;
}
