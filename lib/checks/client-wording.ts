import { canonicalQuery, categoryOf, pathOf, type ClientJudgement, type TracedRequest } from './client-trace.ts';

const ID = 'client/7/no-match-on-wording';

/** Two gaps differ in cadence when they differ by more than both of these: coarse, so load never fails a client. */
const GAP_MS = 500;
const GAP_SHARE = 0.5;

function messageOf(body: string): string {
  try {
    return String((JSON.parse(body) as { error?: { message?: unknown } }).error?.message);
  } catch {
    return '';
  }
}

function line(r: TracedRequest): string {
  return `${r.method} ${pathOf(r.target)} ${canonicalQuery(r.target)} ${r.body}`;
}

/**
 * §7: runs of one script that differ only in error message wording (and request ids) draw the same
 * requests from a client, in the same order, at about the same cadence. Judged when both runs met
 * an error answer.
 */
// > message | string | yes | Human-readable English text. Wording may change, so clients must not match on it.
export function judgeNoMatchOnWording(first: readonly TracedRequest[], second: readonly TracedRequest[]): ClientJudgement {
  // The trigger: an error message one run showed the client and the other did not.
  const messages = (trace: readonly TracedRequest[]): Set<string> => new Set(trace.filter((r) => categoryOf(r.answer.body) !== undefined).map((r) => messageOf(r.answer.body)));
  const [a, b] = [messages(first), messages(second)];
  if (![...a].some((m) => !b.has(m)) || ![...b].some((m) => !a.has(m))) return { requirement: ID, verdict: 'not-run', reason: 'the client met no error whose wording the two runs change' };
  const length = Math.max(first.length, second.length);
  for (let i = 0; i < length; i++) {
    const [a, b] = [first[i], second[i]];
    if (a === undefined || b === undefined || line(a) !== line(b)) {
      const what = a === undefined ? `sent ${line(b!)} only when worded otherwise` : b === undefined ? `sent ${line(a)} only under the first wording` : `sent ${line(a)} under one wording, ${line(b)} under the other`;
      return { requirement: ID, verdict: 'fail', reason: `request ${i + 1}: the client ${what}`, at: Math.min(i, second.length - 1) };
    }
    if (i === 0) continue;
    const gapA = a.receivedAtMs - first[i - 1]!.receivedAtMs;
    const gapB = b.receivedAtMs - second[i - 1]!.receivedAtMs;
    const diff = Math.abs(gapA - gapB);
    if (diff > GAP_MS && diff > GAP_SHARE * Math.max(gapA, gapB)) {
      return { requirement: ID, verdict: 'fail', reason: `request ${i + 1} came ${(gapA / 1000).toFixed(2)} s after the one before under one wording, ${(gapB / 1000).toFixed(2)} s under the other`, at: i };
    }
  }
  return { requirement: ID, verdict: 'pass', reason: `${first.length} request(s), the same under both wordings, at the same cadence` };
}
