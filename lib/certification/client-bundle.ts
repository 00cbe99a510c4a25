import { readFile, rename } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { clientRequirements } from '../catalogue/client.ts';
import type { TracedRequest } from '../checks/client-trace.ts';
import type { ClientReport } from '../client-grading/client-report.ts';
import { Redactor, type Secret } from '../http/redactor.ts';
import { jsonText } from '../model/json-text.ts';
import { hideLocalPaths } from '../report/local-paths.ts';
import { SecretGuard } from '../report/secret-guard.ts';
import { BUNDLE_FILE_NAME, IN_TOTO_PAYLOAD_TYPE, MANIFEST_NAME, RECORD_FOLDER, STATEMENT_TYPE } from './bundle-layout.ts';
import { signEnvelope } from './dsse.ts';
import { canonicalJson, harnessIdentity, sha256Hex } from './harness-identity.ts';
import type { Subject } from './statement.ts';
import { writeTarGz } from './tar-writer.ts';
import type { BundleRequest, WrittenBundle } from './write-bundle.ts';

/**
 * The certification bundle of a client grading: the five reports as written beside it, every
 * recorded request with the scripted answer (record/trace.jsonl), and a manifest naming the
 * SHA-256 of each (an in-toto Statement with a predicate of its own kind, signed in a DSSE
 * envelope with --sign-key), tied to the harness build that graded as a run's bundle is.
 */

/** The predicate type of a client grading's manifest: verify tells the two kinds of bundle apart by it. */
export const CLIENT_PREDICATE_TYPE = 'https://asi-conformance.dev/client-grading/v1';

/** Every request of every scenario, a JSON line each, in the order received. */
export const CLIENT_TRACE_RECORD = `${RECORD_FOLDER}/trace.jsonl`;

/** One line of the trace record: a request of a scenario, or what the client wrote to its result file there. */
export type TraceLine = { scenario: string; index: number; request: TracedRequest } | { scenario: string; result: string };

export interface ClientPredicate {
  harness: { name: string; version: string; packageDigest: { sha256: string } };
  specDigest: { sha256: string };
  /** SHA-256 of the client requirements as canonical JSON: the rules the verdicts are given for. */
  catalogueDigest: { sha256: string };
  contractDigest: { sha256: string };
  node: string;
  platform: string;
  run: { id: string; startedAt: string; finishedAt: string; seed: number; scenarios: string[]; expectations?: string };
  outcome: { outcome: string; exitCode: number };
}

export interface ClientStatement {
  _type: typeof STATEMENT_TYPE;
  subject: Subject[];
  predicateType: typeof CLIENT_PREDICATE_TYPE;
  predicate: ClientPredicate;
}

export function clientCatalogueDigest(): string {
  return sha256Hex(canonicalJson(clientRequirements));
}

export function clientPredicateOf(report: ClientReport): ClientPredicate {
  const mine = harnessIdentity();
  return {
    harness: { name: mine.name, version: mine.version, packageDigest: { sha256: mine.packageDigest } },
    specDigest: { sha256: mine.specDigest },
    catalogueDigest: { sha256: clientCatalogueDigest() },
    contractDigest: { sha256: mine.contractDigest },
    node: process.version,
    platform: `${process.platform}-${process.arch}`,
    run: {
      id: report.runId,
      startedAt: report.startedAt,
      finishedAt: report.finishedAt,
      seed: report.seed,
      scenarios: report.scenarios.map((s) => s.scenario),
      ...(report.expectations === undefined ? {} : { expectations: report.expectations }),
    },
    outcome: { outcome: report.outcome, exitCode: report.exitCode },
  };
}

export function traceRecord(report: ClientReport): string {
  return report.scenarios
    .flatMap((s) => [
      ...s.trace.map((request, index) => `${jsonText({ scenario: s.scenario, index, request } satisfies TraceLine)}\n`),
      // The result is judged too (the streamed turn's final state): the record carries it.
      ...(s.result === undefined ? [] : [`${jsonText({ scenario: s.scenario, result: s.result } satisfies TraceLine)}\n`]),
    ])
    .join('');
}

/**
 * Writes bundle.tar.gz into the run folder from the reports already written there (taken as
 * they are, so the bundle holds exactly what the user sees) and the trace record, through the
 * same redaction, local-folder hiding and secret guard as every report.
 */
export async function writeClientBundle(runDir: string, report: ClientReport, written: readonly string[], secrets: readonly Secret[], request: BundleRequest): Promise<WrittenBundle> {
  const started = performance.now();
  const values = secrets.map((s) => s.value);
  const redactor = new Redactor(secrets);
  const guarded = (name: string, text: string): Buffer => {
    const safe = hideLocalPaths(redactor.redact(text), process.cwd());
    new SecretGuard(name, values).check(safe);
    return Buffer.from(safe, 'utf8');
  };
  const files = new Map<string, Buffer>();
  for (const path of written) files.set(basename(path), await readFile(path));
  files.set(CLIENT_TRACE_RECORD, guarded(CLIENT_TRACE_RECORD, traceRecord(report)));
  const subject = [...files].map(([name, data]) => ({ name, digest: { sha256: sha256Hex(data) } })).sort((a, b) => (a.name < b.name ? -1 : 1));
  const statement: ClientStatement = { _type: STATEMENT_TYPE, subject, predicateType: CLIENT_PREDICATE_TYPE, predicate: clientPredicateOf(report) };
  const body = guarded(MANIFEST_NAME, `${jsonText(statement, 2)}\n`);
  const key = request.signKey;
  const manifest = key === undefined ? body : Buffer.from(`${jsonText(signEnvelope(IN_TOTO_PAYLOAD_TYPE, body, key.privateKey, key.keyid), 2)}\n`);
  files.set(MANIFEST_NAME, manifest);
  const entries = [...files].map(([name, data]) => ({ name, size: data.length, data })).sort((a, b) => (a.name < b.name ? -1 : 1));
  const target = join(runDir, BUNDLE_FILE_NAME);
  const sha256 = await writeTarGz(`${target}.partial`, entries, Date.parse(report.finishedAt) / 1000);
  await rename(`${target}.partial`, target);
  return {
    path: target,
    shown: target,
    form: 'tar.gz',
    sha256,
    recordSha256: sha256Hex(files.get(CLIENT_TRACE_RECORD)!),
    ...(key === undefined ? {} : { keyid: key.keyid, signer: { privateFile: key.file, ...(key.publicFile === undefined ? {} : { publicFile: key.publicFile }) } }),
    files: entries.map((e) => e.name),
    ms: Math.round(performance.now() - started),
  };
}
