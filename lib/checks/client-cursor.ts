import { pathOf, queryOf, type ClientJudgement, type TracedRequest } from './client-trace.ts';

const ID = 'client/4.1/cursor-verbatim';

function nextCursorOf(body: string): string | null | undefined {
  try {
    const parsed = JSON.parse(body) as { next_cursor?: unknown };
    return typeof parsed.next_cursor === 'string' || parsed.next_cursor === null ? parsed.next_cursor : undefined;
  } catch {
    return undefined;
  }
}

/**
 * §4.1 rule 4: every cursor sent is one the server gave earlier, unaltered (compared once the query
 * is decoded, as the server reads it). Not run when the server never gave a cursor to pass back.
 */
// > Pass back exactly the value returned earlier in `next_cursor`. The cursor must not be interpreted or altered by the client.
export function judgeCursorVerbatim(trace: readonly TracedRequest[]): ClientJudgement {
  const given = new Set<string>();
  let sent = 0;
  for (const [i, r] of trace.entries()) {
    if (pathOf(r.target) !== '/credits/operations') continue;
    const cursor = queryOf(r.target).get('cursor');
    if (cursor !== null) {
      sent += 1;
      if (!given.has(cursor)) {
        const near = [...given].find((g) => g.length === cursor.length) ?? [...given][0];
        const hint = near === undefined ? 'no cursor had been given yet' : `the nearest given was ${JSON.stringify(near)}`;
        return { requirement: ID, verdict: 'fail', reason: `sent cursor ${JSON.stringify(cursor)} (as the server decodes the query), which the server never gave; ${hint}`, at: i };
      }
    }
    if (r.answer.status === 200) {
      const next = nextCursorOf(r.answer.body);
      if (typeof next === 'string') given.add(next);
    }
  }
  if (given.size === 0) return { requirement: ID, verdict: 'not-run', reason: 'the server never gave the client a next_cursor (no ledger page was fetched)' };
  if (sent === 0) return { requirement: ID, verdict: 'not-run', reason: `the server gave ${given.size} next_cursor value(s), and the client never passed one back` };
  return { requirement: ID, verdict: 'pass', reason: `${sent} cursor(s) sent, each a next_cursor given earlier, byte for byte` };
}
