import '../checks/all-checkers.ts';
import { checkerNamed } from '../checks/judged.ts';
import { firstDifference } from '../checks/openapi-agreement.ts';
import { servedDescriptionOf } from '../checks/openapi-served-description.ts';
import type { RecordContext } from '../invariants/exchange-facts.ts';
import { judgeExchanges } from '../invariants/judge-record.ts';
import type { Exchange } from '../model/exchange.ts';
import type { Report } from '../report/report-model.ts';
import { decodeJudgementValue, JudgementEncoder, MissingEvidence, type Encoded, type EvidenceSource } from './codec.ts';
import { RUN_WIDE_JUDGEMENT, type CallLine, type JudgementLine } from './judgement-line.ts';

/** What a run recorded: its exchanges in the order of the record, and its judgements. */
export interface RunRecord {
  exchanges: readonly Exchange[];
  judgements: readonly JudgementLine[];
}

/** One thing the evidence does not support, named so a reviewer finds it. */
export interface RederiveProblem {
  /** The requirement it concerns, when one. */
  requirement?: string;
  /** The judgement it concerns, when one. */
  judgement?: string;
  message: string;
}

export interface Rederivation {
  problems: RederiveProblem[];
  /** Judgements re-run, and those that could not be (an argument the record cannot hold). */
  judgements: number;
  rederived: number;
  unverifiable: string[];
  /** Findings of the report traced to a judgement. */
  findingsTraced: number;
}

export function isJudgementLine(value: unknown): value is JudgementLine {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return (typeof v['value'] === 'string' && 'data' in v) || (typeof v['judgement'] === 'string' && typeof v['checker'] === 'string' && Array.isArray(v['args']));
}

function sourceOf(record: RunRecord): EvidenceSource & { calls: Map<string, CallLine> } {
  const bySeq = new Map<number, Exchange>();
  for (const e of record.exchanges) bySeq.set(e.seq, e);
  const values = new Map<string, Encoded>();
  const calls = new Map<string, CallLine>();
  for (const line of record.judgements) {
    if ('value' in line) values.set(line.value, line.data);
    else calls.set(line.judgement, line);
  }
  return { exchange: (seq) => bySeq.get(seq), value: (digest) => values.get(digest), calls };
}

/** Runs one recorded call again on the record; its output, encoded as the run encoded it. */
function rerun(call: CallLine, record: RunRecord, source: EvidenceSource): Encoded {
  const args = call.args.map((a) => decodeJudgementValue(a, source));
  let output: unknown;
  if (call.checker === RUN_WIDE_JUDGEMENT) {
    const [recorded, requirements] = args as [RecordContext, string[]];
    // The served description the rules judged by is read again from the record, never believed.
    const context = recorded.servedDescription === undefined ? recorded : { ...recorded, servedDescription: servedDescriptionOf(record.exchanges, recorded.baseUrl) };
    output = judgeExchanges(record.exchanges, context, (id) => requirements.includes(id));
  } else {
    const checker = checkerNamed(call.checker);
    if (checker === undefined) throw new MissingEvidence(`checker ${call.checker} is not one this harness has (made by another version?)`);
    output = checker(...args);
  }
  return new JudgementEncoder(() => {}).encode(output);
}

function describeDifference(recorded: Encoded, now: Encoded): string {
  const d = firstDifference(recorded, now);
  if (d === undefined) return 'they differ (key order)';
  const cut = (t: string): string => (t.length > 160 ? `${t.slice(0, 160)}…` : t);
  return `at ${d.pointer === '' ? 'the top' : d.pointer}: the record says ${cut(d.left)}, the checker now finds ${cut(d.right)}`;
}

/** The recorded finding a report's finding cites: the call's output, or its place in it. */
function citedFinding(call: CallLine, index: number, source: EvidenceSource): Record<string, Encoded> | undefined {
  let output: Encoded | undefined = call.output;
  const resolve = (v: Encoded | undefined): Encoded | undefined => (typeof v === 'object' && v !== null && !Array.isArray(v) && typeof v['$value'] === 'string' ? source.value(v['$value']) : v);
  output = resolve(output);
  const item = resolve(Array.isArray(output) ? output[index] : index === 0 ? output : undefined);
  return typeof item === 'object' && item !== null && !Array.isArray(item) ? item : undefined;
}

const TRACED_FIELDS = ['requirement', 'verdict', 'expected', 'actual', 'note'] as const;

/**
 * Re-derives a run's verdicts from its record: every judgement is run again with the same pure
 * checker on the recorded exchanges (and the run-wide rules over the whole record), and must give
 * what the record says; every finding of the report must be one a judgement gave (a pass, a
 * failure or a warning that no judgement gave is unsupported). The only change allowed between a
 * judgement and the report is the one the harness makes: a failure whose last exchange got no
 * answer is reported inconclusive.
 */
export function rederiveVerdicts(record: RunRecord, report: Pick<Report, 'results'>): Rederivation {
  const source = sourceOf(record);
  const problems: RederiveProblem[] = [];
  const unverifiable: string[] = [];
  let rederived = 0;
  for (const call of source.calls.values()) {
    if (call.opaque === true) {
      unverifiable.push(`${call.judgement} (${call.checker}): an argument the record cannot hold`);
      continue;
    }
    try {
      const now = rerun(call, record, source);
      if (JSON.stringify(now) !== JSON.stringify(call.output)) {
        problems.push({ judgement: call.judgement, message: `judgement ${call.judgement} (${call.checker}${call.test === undefined ? '' : `, in "${call.test}"`}) does not re-derive: ${describeDifference(call.output, now)}` });
      } else rederived += 1;
    } catch (err) {
      const why = err instanceof Error ? err.message : String(err);
      problems.push({ judgement: call.judgement, message: `judgement ${call.judgement} (${call.checker}) cannot be re-run: ${why}` });
    }
  }
  let findingsTraced = 0;
  for (const result of report.results) {
    const id = result.requirement.id;
    for (const finding of result.findings) {
      const ref = finding.judgement;
      if (ref === undefined) {
        if (finding.verdict === 'pass' || finding.verdict === 'fail' || finding.verdict === 'warn') {
          problems.push({ requirement: id, message: `the report holds a ${finding.verdict} finding that no recorded judgement gave` });
        }
        continue;
      }
      const call = source.calls.get(ref.id);
      const cited = call === undefined ? undefined : citedFinding(call, ref.index, source);
      if (cited === undefined) {
        problems.push({ requirement: id, judgement: ref.id, message: `the report cites judgement ${ref.id} #${ref.index}, which the record does not hold` });
        continue;
      }
      findingsTraced += 1;
      const noAnswer = cited['verdict'] === 'fail' && finding.verdict === 'inconclusive' && (finding.note ?? '').startsWith('no response to judge:');
      for (const field of TRACED_FIELDS) {
        if (noAnswer && (field === 'verdict' || field === 'note')) continue;
        const said = finding[field];
        const recorded = cited[field];
        if ((said ?? null) !== (recorded ?? null)) {
          problems.push({ requirement: id, judgement: ref.id, message: `the report says ${field} ${JSON.stringify(said)}, judgement ${ref.id} #${ref.index} says ${JSON.stringify(recorded)}` });
          break;
        }
      }
    }
  }
  return { problems, judgements: source.calls.size, rederived, unverifiable, findingsTraced };
}
