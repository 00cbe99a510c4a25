import { categoryOf, sameRequest, type ClientJudgement, type TracedRequest } from './client-trace.ts';

const ID = 'client/7/no-retry-permanent';

/** The same request sent with the same credentials: only a changed request or token is a fix. */
function sameWithCredentials(a: TracedRequest, b: TracedRequest): boolean {
  return sameRequest(a, b) && a.headers['authorization'] === b.headers['authorization'];
}

// > `permanent`: fix the request.
export function judgeNoRetryPermanent(trace: readonly TracedRequest[]): ClientJudgement {
  let permanent = 0;
  for (const [i, r] of trace.entries()) {
    if (r.answer.status < 400 || categoryOf(r.answer.body) !== 'permanent') continue;
    permanent += 1;
    for (let j = i + 1; j < trace.length; j++) {
      if (sameWithCredentials(r, trace[j]!)) {
        return { requirement: ID, verdict: 'fail', reason: `the request answered ${r.answer.status} with category permanent was sent again unchanged`, at: j };
      }
    }
  }
  if (permanent === 0) return { requirement: ID, verdict: 'not-run', reason: 'no request of the client was answered with category permanent' };
  return { requirement: ID, verdict: 'pass', reason: `${permanent} answer(s) with category permanent, none of their requests sent again unchanged` };
}
