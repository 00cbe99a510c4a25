import { catalogue } from '../../lib/catalogue/index.ts';
import { recordJudgements } from '../../lib/checks/judged.ts';
import { JudgementEncoder } from '../../lib/judgement/codec.ts';
import type { JudgementLine } from '../../lib/judgement/judgement-line.ts';
import type { RunRecord } from '../../lib/judgement/rederive.ts';
import type { Exchange } from '../../lib/model/exchange.ts';
import type { Finding } from '../../lib/model/finding.ts';
import type { RequirementResult } from '../../lib/report/report-model.ts';

let seq = 0;

export const BASE = 'http://t.invalid/v1';

/** An answer as the client records it, to a GET of `path` below BASE with the primary token. */
export function answer(status: number, body: unknown, headers: Record<string, string> = {}, path = '/credits/operations'): Exchange {
  const text = JSON.stringify(body);
  return {
    seq: ++seq,
    startedAt: '2026-11-25T10:00:00.000Z',
    request: { method: 'GET', url: `${BASE}${path}`, headers: { authorization: 'Bearer $ASI_TOKEN', accept: 'application/json' }, tokenRole: 'primary' },
    response: { status, headers: { 'content-type': 'application/json', ...headers }, body: text, bodyBytes: text.length, truncated: false },
    timings: { totalMs: 3 },
  };
}

export function row(uuid: string): Record<string, unknown> {
  return { operation_uuid: uuid, operation_type: 't', feature: 'f', credits: 1, metadata: {}, timestamp: '2026-11-25T09:00:00Z' };
}

/** Runs `body` with judgements recorded as the worker records them, and returns the record (through JSON, as the files hold it). */
export function recorded(exchanges: Exchange[], body: () => Finding[]): { record: RunRecord; findings: Finding[] } {
  const lines: JudgementLine[] = [];
  const encoder = new JudgementEncoder((value, data) => lines.push({ value, data }));
  let n = 0;
  recordJudgements({
    record(checker, args, output) {
      const id = `j${++n}`;
      lines.push({ judgement: id, checker, args: args.map((a) => encoder.encode(a)), output: encoder.encode(output) });
      return id;
    },
  });
  try {
    const findings = body();
    return { record: JSON.parse(JSON.stringify({ exchanges, judgements: lines })) as RunRecord, findings: JSON.parse(JSON.stringify(findings)) as Finding[] };
  } finally {
    recordJudgements(undefined);
  }
}

/** Report results holding `findings`, as buildReport groups them. */
export function results(findings: Finding[]): RequirementResult[] {
  return catalogue
    .filter((r) => findings.some((f) => f.requirement === r.id))
    .map((requirement) => ({ requirement, verdict: 'pass', findings: findings.filter((f) => f.requirement === requirement.id), tests: [] }));
}
