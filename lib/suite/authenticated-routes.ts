import { messageBodyWith } from '../arbitraries/message-text.ts';
import { jobPollPath } from '../checks/conversation-job.ts';
import type { SendOptions } from '../http/client.ts';
import type { MessageForm } from '../invariants/exchange-facts.ts';
import { LEDGER_PATH, ME_PATH } from '../spec-constants.ts';
import type { ResolvedProfile } from '../profile/resolved-profile.ts';

export interface RouteProbe {
  method: 'GET' | 'POST';
  path: string;
  json?: unknown;
  headers?: Record<string, string>;
  label: string;
  /** The transport a message POST asks for; absent on the reads (/me, the ledger, the job poll). */
  form?: MessageForm;
}

/** What the routes need beyond the profile. */
export interface RouteOptions {
  /** A job the primary token created: its poll is an authenticated GET like any other (§8.1 rule 3). */
  pollJobId?: string;
}

/**
 * Every token-authenticated route the harness knows of, in every form: GET /me (§4.3), GET
 * /credits/operations (§4.1), each message route of the profile as a REST POST, streamed both
 * ways (§1: `Accept: text/event-stream`, `stream: true`) and in the job mode, and the poll of a
 * job when one is given. Probing them without a valid token costs nothing: a request that fails
 * authentication has no token to charge.
 */
export function authenticatedRoutes(profile: ResolvedProfile, options: RouteOptions = {}): RouteProbe[] {
  const { routes, async: jobs } = profile.messages;
  const probes: RouteProbe[] = [
    { method: 'GET', path: ME_PATH, label: `GET ${ME_PATH}` },
    { method: 'GET', path: LEDGER_PATH, label: `GET ${LEDGER_PATH}` },
  ];
  for (const r of routes) {
    const plain = messageBodyWith(r.body, '', 'absent');
    probes.push(
      { method: 'POST', path: r.path, json: plain, label: `POST ${r.template}`, form: 'rest' },
      { method: 'POST', path: r.path, json: plain, headers: { accept: 'text/event-stream' }, label: `POST ${r.template} (Accept: text/event-stream)`, form: 'stream-accept' },
      { method: 'POST', path: r.path, json: messageBodyWith(r.body, '', true), label: `POST ${r.template} (stream: true)`, form: 'stream-flag' },
    );
    if (jobs !== undefined) probes.push({ method: 'POST', path: r.path, json: { ...plain, ...jobs.body }, label: `POST ${r.template} (job mode)`, form: 'job' });
  }
  if (jobs !== undefined && options.pollJobId !== undefined) {
    probes.push({ method: 'GET', path: jobPollPath(jobs.poll, options.pollJobId), label: `GET ${jobs.poll} (a job of the primary token)` });
  }
  return probes;
}

/** What the client sends for a route probe (no token: the caller says which, if any). */
export function probeRequest(route: RouteProbe): SendOptions {
  return { method: route.method, path: route.path, json: route.json, ...(route.headers === undefined ? {} : { headers: route.headers }) };
}
