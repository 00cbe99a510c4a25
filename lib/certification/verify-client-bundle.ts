import { clientRequirements } from '../catalogue/client.ts';
import type { TracedRequest } from '../checks/client-trace.ts';
import type { ClientReport } from '../client-grading/client-report.ts';
import { judgeClient } from '../client-grading/judge-client.ts';
import { REPORT_FILE_NAMES, REPORT_FORMATS } from '../report/report-formats.ts';
import { IN_TOTO_PAYLOAD_TYPE, MANIFEST_NAME } from './bundle-layout.ts';
import { CLIENT_PREDICATE_TYPE, CLIENT_TRACE_RECORD, clientCatalogueDigest, type ClientStatement } from './client-bundle.ts';
import { isEnvelope, type DsseEnvelope } from './dsse.ts';
import { firstDifference } from './first-difference.ts';
import { harnessIdentity } from './harness-identity.ts';
import type { OpenedBundle } from './open-bundle.ts';
import { changedFirst, compareHarness, digestProblems, signatureOf, type Verification, type VerifyOptions } from './verify-bundle.ts';
import type { VerifyProblem } from './verify-problem.ts';

const REPORT_NAME = REPORT_FILE_NAMES.json;
const REQUIRED = [...REPORT_FORMATS.map((f) => REPORT_FILE_NAMES[f]), CLIENT_TRACE_RECORD];

/** manifest.json of a client grading's bundle, or undefined when the bundle is another kind (a run's) or none. */
export function clientManifest(bundle: OpenedBundle): { statement: ClientStatement; envelope?: DsseEnvelope } | undefined {
  const bytes = bundle.files.get(MANIFEST_NAME);
  if (bytes === undefined) return undefined;
  try {
    let value = JSON.parse(bytes.toString('utf8')) as unknown;
    let envelope: DsseEnvelope | undefined;
    if (isEnvelope(value)) {
      if (value.payloadType !== IN_TOTO_PAYLOAD_TYPE) return undefined;
      envelope = value;
      value = JSON.parse(Buffer.from(value.payload, 'base64').toString('utf8')) as unknown;
    }
    const statement = value as Partial<ClientStatement> | null;
    if (statement === null || typeof statement !== 'object' || statement.predicateType !== CLIENT_PREDICATE_TYPE) return undefined;
    if (!Array.isArray(statement.subject) || typeof statement.predicate?.harness?.packageDigest?.sha256 !== 'string') return undefined;
    return envelope === undefined ? { statement: statement as ClientStatement } : { statement: statement as ClientStatement, envelope };
  } catch {
    return undefined;
  }
}

/** The scenarios' traces as the record holds them, in the order of the report's scenarios, or the problem that stops the re-derivation. */
function recordedTraces(bundle: OpenedBundle, scenarios: readonly string[]): { traces: Array<{ scenario: string; trace: TracedRequest[]; result?: string }> } | { problem: VerifyProblem } {
  const lines = bundle.recordLines(CLIENT_TRACE_RECORD);
  if (lines === undefined) return { problem: { file: CLIENT_TRACE_RECORD, message: 'is missing: nothing to re-derive' } };
  const traces: Array<{ scenario: string; trace: TracedRequest[]; result?: string }> = scenarios.map((scenario) => ({ scenario, trace: [] }));
  for (const l of lines) {
    const value = l.value as { scenario?: unknown; request?: TracedRequest; result?: unknown } | undefined;
    const into = traces.find((t) => t.scenario === value?.scenario);
    if (l.error === undefined && into !== undefined && typeof value?.result === 'string' && into.result === undefined) {
      into.result = value.result;
      continue;
    }
    if (l.error !== undefined || value?.request === undefined || into === undefined) {
      return { problem: { file: CLIENT_TRACE_RECORD, message: `line ${l.line} ${l.error ?? 'is not a request or the result of a scenario of the report'}` } };
    }
    into.trace.push(value.request);
  }
  return { traces };
}

/**
 * Every client verdict re-derived offline: the same judge on the recorded trace, compared with
 * report.json requirement by requirement (verdict, reason and findings; the waiver is the run's
 * to record), and the report's own copy of each trace compared with the record.
 */
function rederiveClient(bundle: OpenedBundle): { checked: string; problems: VerifyProblem[] } {
  const bytes = bundle.files.get(REPORT_NAME);
  let report: ClientReport;
  try {
    report = JSON.parse(bytes?.toString('utf8') ?? '') as ClientReport;
    if (report.kind !== 'client' || !Array.isArray(report.scenarios) || !Array.isArray(report.verdicts)) throw new Error('not the report of a client grading');
  } catch (err) {
    return { checked: 'nothing re-derived', problems: [{ file: REPORT_NAME, message: `cannot be read: ${(err as Error).message}` }] };
  }
  const recorded = recordedTraces(bundle, report.scenarios.map((s) => s.scenario));
  if ('problem' in recorded) return { checked: 'nothing re-derived', problems: [recorded.problem] };
  const problems: VerifyProblem[] = [];
  for (const [i, s] of report.scenarios.entries()) {
    const d = firstDifference(s.trace, recorded.traces[i]!.trace, `scenarios[${i}].trace`, { a: 'report.json', b: 'the record' });
    if (d !== undefined) problems.push({ file: REPORT_NAME, message: `disagrees with ${CLIENT_TRACE_RECORD} at ${d}`, from: [CLIENT_TRACE_RECORD] });
    if (s.result !== recorded.traces[i]!.result) problems.push({ file: REPORT_NAME, message: `disagrees with ${CLIENT_TRACE_RECORD} on what the client wrote to its result file in ${s.scenario}`, from: [CLIENT_TRACE_RECORD] });
  }
  const derived = judgeClient(recorded.traces);
  for (const again of derived) {
    const id = again.requirement.id;
    const given = report.verdicts.find((v) => v.requirement?.id === id);
    if (given === undefined) {
      problems.push({ file: REPORT_NAME, requirement: id, message: 'has no verdict for it', from: [CLIENT_TRACE_RECORD] });
      continue;
    }
    const d = firstDifference({ verdict: given.verdict, reason: given.reason, findings: given.findings }, { verdict: again.verdict, reason: again.reason, findings: again.findings }, 'verdict', {
      a: 'report.json says',
      b: 're-derived from the trace',
    });
    if (d !== undefined) problems.push({ file: REPORT_NAME, requirement: id, message: `${d}`, from: [CLIENT_TRACE_RECORD] });
  }
  const requests = recorded.traces.reduce((n, t) => n + t.trace.length, 0);
  return { checked: `${derived.length} client verdicts re-derived from ${requests} recorded request(s) in ${recorded.traces.length} scenario(s)`, problems };
}

/** Verifies a client grading's bundle: digests, signature, harness build and client catalogue, then every verdict re-derived. */
export async function verifyClientBundle(bundle: OpenedBundle, manifest: { statement: ClientStatement; envelope?: DsseEnvelope }, options: VerifyOptions = {}): Promise<Verification> {
  const { statement } = manifest;
  const problems: VerifyProblem[] = [];
  const checked: Verification['checked'] = [];
  const sig = signatureOf(manifest, options);
  if (sig.problem !== undefined) problems.push({ file: MANIFEST_NAME, message: sig.problem });
  const digests = await digestProblems(bundle, statement, REQUIRED);
  problems.push(...digests);
  checked.push({ name: 'manifest', line: `in-toto Statement v1 of a client grading listing ${statement.subject.length} files${digests.length === 0 ? ', every SHA-256 matches' : ''}` });
  const mine = { ...harnessIdentity(), catalogueDigest: clientCatalogueDigest(), requirements: clientRequirements.length };
  const compared = compareHarness(statement.predicate, mine);
  checked.push(...compared.checked);
  problems.push(...compared.problems);
  if (compared.harness.sameCatalogue) {
    const step = rederiveClient(bundle);
    checked.push({ name: 'verdicts', line: step.checked });
    problems.push(...step.problems);
  }
  const ordered = changedFirst(problems);
  const p = statement.predicate;
  return {
    source: bundle.source,
    form: bundle.form,
    digest: bundle.digest,
    files: bundle.files.size,
    signature: { state: sig.state, ...(sig.keyid === undefined ? {} : { keyid: sig.keyid }) },
    harness: compared.harness,
    checked: [...checked, { name: 'grading', line: `client grading ${p.run.id} of scenarios ${p.run.scenarios.join(', ')}, started ${p.run.startedAt}: ${p.outcome.outcome}, exit code ${p.outcome.exitCode}` }],
    problems: ordered,
    intact: ordered.length === 0,
    // A client grading certifies no server: what it is, said apart from whether it is intact.
    certification: { certifying: false, because: [...(ordered.length > 0 ? ['the bundle does not verify'] : []), ...compared.because, 'a client grading grades a client, it is no certification of a server'] },
  };
}
