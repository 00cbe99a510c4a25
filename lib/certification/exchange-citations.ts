import type { Exchange } from '../model/exchange.ts';
import { EXCHANGES_RECORD } from './bundle-layout.ts';
import { REPORT_NAME, bundledReport, exchangeRecord } from './bundled-report.ts';
import type { OpenedBundle } from './open-bundle.ts';
import { firstDifference } from './first-difference.ts';
import { shown, type StepResult, type VerifyProblem } from './verify-problem.ts';

/**
 * Every exchange a finding cites is in the record, as the finding shows it. Findings carry
 * trimmed copies (lib/suite/evidence-trim.ts): the body and event data cut shorter, fewer events
 * and chunk times kept, the rest counted. A copy matches its recorded exchange when everything it
 * shows is what was recorded: equal request, status, headers, timings and error; a body or event
 * data that is the recorded one or a start of it (marked cut); events and chunk times that begin
 * the recorded ones, with the same totals.
 */

/** Where two texts part, with a little of each around it: ` from character N: the finding shows "…x…", the record "…y…"`. */
function textDifference(copy: string, recorded: unknown): string {
  if (typeof recorded !== 'string') return `: the finding shows ${shown(copy)}, the record ${shown(recorded)}`;
  let i = 0;
  while (i < copy.length && i < recorded.length && copy[i] === recorded[i]) i += 1;
  const from = Math.max(0, i - 24);
  const around = (text: string): string => `${from > 0 ? '…' : ''}${text.slice(from, i + 24)}${text.length > i + 24 ? '…' : ''}`;
  return ` from character ${i + 1}: the finding shows ${JSON.stringify(around(copy))}, the record ${JSON.stringify(around(recorded))}`;
}

/** A list that begins the recorded one, the rest of each counted: the same total. */
function listDifference<T>(
  path: string,
  copy: readonly T[] | undefined,
  copyOmitted: number | undefined,
  recorded: readonly T[] | undefined,
  recordedOmitted: number | undefined,
  same: (a: T, b: T, at: string) => string | undefined,
): string | undefined {
  if (copy === undefined && recorded === undefined) return undefined;
  const c = copy ?? [];
  const r = recorded ?? [];
  const total = (list: readonly T[], omitted: number | undefined): number => list.length + (omitted ?? 0);
  if (total(c, copyOmitted) !== total(r, recordedOmitted)) {
    return `${path}: the finding counts ${total(c, copyOmitted)} in all, the record ${total(r, recordedOmitted)}`;
  }
  if (c.length > r.length) return `${path}: the finding shows ${c.length}, the record keeps ${r.length}`;
  for (const [i, item] of c.entries()) {
    const d = same(item, r[i]!, `${path}[${i}]`);
    if (d !== undefined) return d;
  }
  return undefined;
}

/** Where a finding's copy of an exchange shows something the recorded exchange does not; undefined when it matches. */
export function citationDifference(copy: Exchange, recorded: Exchange): string | undefined {
  const { response: cr, ...copyHead } = copy;
  const { response: rr, ...recordedHead } = recorded;
  const head = firstDifference(copyHead, recordedHead, '');
  if (head !== undefined) return head;
  if (cr === undefined || rr === undefined) return cr === rr ? undefined : `response: the finding shows ${cr === undefined ? 'none' : `status ${cr.status}`}, the record ${rr === undefined ? 'none' : `status ${rr.status}`}`;
  const { body: cb, truncated: ct, events: ce, eventsOmitted: ceo, chunkTimes: cc, chunkTimesOmitted: cco, ...copyRest } = cr;
  const { body: rb, truncated: rt, events: re, eventsOmitted: reo, chunkTimes: rc, chunkTimesOmitted: rco, ...recordedRest } = rr;
  const rest = firstDifference(copyRest, recordedRest, 'response');
  if (rest !== undefined) return rest;
  if (typeof rb !== 'string' || (cb !== rb && !(ct && rb.startsWith(cb)))) return `response.body${textDifference(cb, rb)}`;
  // A copy is cut when the record was, or when it kept less of the body.
  if (ct !== (rt || cb !== rb)) return `response.truncated: the finding shows ${shown(ct)}, the record ${shown(rt)} with ${cb === rb ? 'the same' : 'a longer'} body`;
  const events = listDifference('response.events', ce, ceo, re, reo, (a, b, at) => {
    const { data: ad, ...aRest } = a;
    const { data: bd, ...bRest } = b;
    const d = firstDifference(aRest, bRest, at);
    if (d !== undefined) return d;
    // The last event a copy keeps may be cut, marked with `…`.
    if (typeof bd === 'string' && (ad === bd || (ad.endsWith('…') && bd.startsWith(ad.slice(0, -1))))) return undefined;
    return `${at}.data${textDifference(ad.endsWith('…') ? ad.slice(0, -1) : ad, bd)}`;
  });
  if (events !== undefined) return events;
  return listDifference('response.chunkTimes', cc, cco, rc, rco, (a, b, at) => (a === b ? undefined : `${at}: the finding shows ${shown(a)}, the record ${shown(b)}`));
}

function label(exchange: Exchange): string {
  return `#${exchange.seq} (${exchange.request.method} ${exchange.request.url})`;
}

export function exchangeCitations(bundle: OpenedBundle): StepResult {
  const read = bundledReport(bundle);
  if ('problem' in read) return { checked: 'citations not checked: report.json cannot be read', problems: [] };
  const record = exchangeRecord(bundle);
  if (record === undefined) return { checked: 'citations not checked', problems: [{ file: EXCHANGES_RECORD, message: 'is missing: the findings cite exchanges no record holds' }] };
  const problems: VerifyProblem[] = record.repeated.map((seq) => ({ file: EXCHANGES_RECORD, message: `holds exchange #${seq} more than once` }));
  let cited = 0;
  for (const r of read.report.results) {
    const id = r.requirement.id;
    for (const [i, finding] of r.findings.entries()) {
      for (const copy of finding.exchanges) {
        cited += 1;
        const recorded = record.bySeq.get(copy.seq);
        const where = `finding ${i + 1} cites exchange ${label(copy)}`;
        if (recorded === undefined) {
          problems.push({ file: EXCHANGES_RECORD, requirement: id, message: `${where}, which the record lacks` });
          continue;
        }
        let d: string | undefined;
        try {
          d = citationDifference(copy, recorded);
        } catch (err) {
          // The record is data from elsewhere: an exchange of the wrong shape is a difference, not a crash.
          d = `an exchange the record holds in a shape no run writes (${(err as Error).message})`;
        }
        if (d !== undefined) problems.push({ file: REPORT_NAME, requirement: id, message: `${where}; it differs from the record at ${d}` });
      }
    }
  }
  const unreadable = record.unreadable.length === 0 ? '' : `; ${record.unreadable.length} record line${record.unreadable.length === 1 ? '' : 's'} hold no exchange (line ${record.unreadable.slice(0, 3).join(', ')})`;
  const how = problems.length === 0 ? 'each as the record holds it' : 'not all as the record holds them (below)';
  return { checked: `${cited} exchanges cited by findings, ${how} (${record.bySeq.size} exchanges recorded${unreadable})`, problems };
}
