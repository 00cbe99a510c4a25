import type { ClientJudgement, TracedRequest } from './client-trace.ts';

const ID = 'client/5/bearer-only';

/** The trace shows a token as the variable that carries it (`$ASI_TOKEN`, `$ASI_TOKEN_SECONDARY`). */
const TOKEN_NAME = /\$ASI_TOKEN\w*/;

// > Every endpoint except the unauthenticated routes requires the header `Authorization: Bearer <API_TOKEN>`.
export function judgeBearerOnly(trace: readonly TracedRequest[]): ClientJudgement {
  let bearer = 0;
  for (const [i, r] of trace.entries()) {
    if (TOKEN_NAME.test(r.target)) return { requirement: ID, verdict: 'fail', reason: `the token is in the request target: ${r.target.split('?')[0]}?…`, at: i };
    if (TOKEN_NAME.test(r.body)) return { requirement: ID, verdict: 'fail', reason: 'the token is in the request body', at: i };
    for (const [name, value] of Object.entries(r.headers)) {
      if (!TOKEN_NAME.test(value)) continue;
      if (name !== 'authorization') return { requirement: ID, verdict: 'fail', reason: `the token is in the ${name} header`, at: i };
      if (!/^Bearer \$ASI_TOKEN\w*$/.test(value)) return { requirement: ID, verdict: 'fail', reason: `the Authorization header is ${JSON.stringify(value)}, not "Bearer <token>"`, at: i };
      bearer += 1;
    }
  }
  if (trace.length === 0) return { requirement: ID, verdict: 'not-run', reason: 'the client sent no request' };
  if (bearer === 0) return { requirement: ID, verdict: 'not-run', reason: `${trace.length} request(s), none carrying the token` };
  return { requirement: ID, verdict: 'pass', reason: `${bearer} request(s) carried the token, each only in Authorization: Bearer` };
}
