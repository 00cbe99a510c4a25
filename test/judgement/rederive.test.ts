import { describe, expect, test } from 'vitest';
import { envelopeFindings } from '../../lib/checks/error-envelope.ts';
import { readPage } from '../../lib/checks/ledger-page.ts';
import { walkCompleteFindings } from '../../lib/checks/ledger-walk-findings.ts';
import type { Walk } from '../../lib/checks/ledger-walk.ts';
import { decodeJudgementValue, JudgementEncoder } from '../../lib/judgement/codec.ts';
import { rederiveVerdicts } from '../../lib/judgement/rederive.ts';
import type { Exchange } from '../../lib/model/exchange.ts';
import type { Finding } from '../../lib/model/finding.ts';
import { answer, recorded, results, row } from './judgement-fixtures.ts';

function walkOf(pages: Exchange[]): Walk {
  const read = pages.map(readPage);
  return { query: {}, pages: read, rows: read.flatMap((p) => p.rows), end: 'last-page', cursors: ['c1'] };
}

describe('re-deriving verdicts from the record', () => {
  const page1 = answer(200, { operations: [row('a'), row('b')], next_cursor: 'c1' });
  const page2 = answer(200, { operations: [row('c')], next_cursor: null });
  const error = answer(401, { error: { code: 'auth.token_missing', category: 'permanent', message: 'm', request_id: 'r1' } }, { 'x-request-id': 'r1' });
  const exchanges = [page1, page2, error];
  const run = (): Finding[] => [...walkCompleteFindings(walkOf([page1, page2]), undefined), ...envelopeFindings(error)];

  test('an untouched record re-derives every judgement and traces every finding', () => {
    const { record, findings } = recorded(exchanges, run);
    const r = rederiveVerdicts(record, { results: results(findings) });
    expect(r.problems).toEqual([]);
    expect(r).toMatchObject({ judgements: 2, rederived: 2, findingsTraced: findings.length });
  });

  test('a ledger page is cited by its exchange and read again from it, never believed', () => {
    const encoder = new JudgementEncoder(() => {});
    expect(encoder.encode(readPage(page1))).toEqual({ $page: page1.seq });
    const walk = encoder.encode(walkOf([page1, page2]));
    expect(walk).toEqual({ $walk: { query: {}, end: 'last-page', cursors: ['c1'], pages: [{ $page: page1.seq }, { $page: page2.seq }] } });
    const back = decodeJudgementValue(walk, { exchange: (s) => exchanges.find((e) => e.seq === s), value: () => undefined }) as Walk;
    expect(back.rows.map((r) => r.key)).toEqual(['a', 'b', 'c']);
  });

  test('a body changed in the record makes its judgement fail to re-derive', () => {
    const { record, findings } = recorded(exchanges, run);
    const tampered = record.exchanges.map((e) => (e.seq === error.seq ? { ...e, response: { ...e.response!, headers: { ...e.response!.headers, 'x-request-id': 'r2' } } } : e));
    const r = rederiveVerdicts({ ...record, exchanges: tampered }, { results: results(findings) });
    expect(r.problems.map((p) => p.message)).toEqual([expect.stringMatching(/^judgement j2 \(error-envelope\/envelopeFindings\) does not re-derive: at \/2\/verdict: the record says "pass", the checker now finds "fail"/)]);
  });

  test('an exchange missing from the record is named', () => {
    const { record, findings } = recorded(exchanges, run);
    const r = rederiveVerdicts({ ...record, exchanges: record.exchanges.filter((e) => e.seq !== page2.seq) }, { results: results(findings) });
    expect(r.problems[0]?.message).toBe(`judgement j1 (ledger-walk-findings/walkCompleteFindings) cannot be re-run: exchange ${page2.seq} is not in the record`);
  });

  test('a verdict edited in the report is caught, naming the requirement and the difference', () => {
    const { record, findings } = recorded(exchanges, run);
    const edited = findings.map((f) => (f.requirement === 'errors/7/request-id-header' ? { ...f, verdict: 'fail' as const, expected: 'x', actual: 'y' } : f));
    const r = rederiveVerdicts(record, { results: results(edited) });
    expect(r.problems).toEqual([{ requirement: 'errors/7/request-id-header', judgement: 'j2', message: 'the report says verdict "fail", judgement j2 #2 says "pass"' }]);
  });

  test('a pass no judgement gave is unsupported; a not-run or inconclusive of the harness needs none', () => {
    const { record, findings } = recorded(exchanges, run);
    const extra: Finding[] = [
      { requirement: 'auth/5.4/revoked-token', verdict: 'pass', exchanges: [] },
      { requirement: 'auth/5.4/expired-token', verdict: 'not-run', note: 'no token', exchanges: [] },
    ];
    const r = rederiveVerdicts(record, { results: results([...findings, ...extra]) });
    expect(r.problems).toEqual([{ requirement: 'auth/5.4/revoked-token', message: 'the report holds a pass finding that no recorded judgement gave' }]);
  });

  test('a failure reported inconclusive for want of an answer is the harness\'s own change, allowed', () => {
    const silent: Exchange = { ...answer(200, {}), response: undefined, error: { code: 'ASI_DEADLINE', message: 'no answer' } };
    const { record, findings } = recorded([silent], () => envelopeFindings(silent));
    const reported = findings.map((f) => ({ ...f, verdict: 'inconclusive' as const, note: 'no response to judge: ASI_DEADLINE: no answer' }));
    expect(rederiveVerdicts(record, { results: results(reported) }).problems).toEqual([]);
  });
});
