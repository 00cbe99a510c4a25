import type { Outcome, Report, ResultState, WaiverState } from '../report/report-model.ts';
import { PREDICATE_TYPE, STATEMENT_TYPE } from './bundle-layout.ts';
import type { HarnessIdentity } from './harness-identity.ts';

/**
 * The bundle's manifest: an in-toto Statement v1 (github.com/in-toto/attestation, spec/v1) whose
 * subjects are the bundle's files and whose predicate is the run: which harness, catalogue, spec
 * and contract judged it, how it was asked to run, and what came out.
 */

export interface DigestSet {
  sha256: string;
}

export interface Subject {
  name: string;
  digest: DigestSet;
}

/** A waiver the run applied, as the report shows it. */
export interface WaiverRecord {
  requirement: string;
  status: string;
  reason: string;
  issue?: string;
  expires?: string;
  state: WaiverState;
}

export interface CertificationPredicate {
  harness: { name: string; version: string; packageDigest: DigestSet };
  specDigest: DigestSet;
  catalogueDigest: DigestSet;
  contractDigest: DigestSet;
  node: string;
  /** `process.platform-process.arch` of the machine that ran. */
  platform: string;
  run: {
    id: string;
    startedAt: string;
    finishedAt: string;
    seed: number;
    selection: { suites: string[]; only: string[]; skip: string[] };
    failOn: 'must' | 'should';
    limits: { read: number; write: number; windowS: number };
    waivers: WaiverRecord[];
    /** The expectations file (--expect), by name. */
    expectations?: string;
    baseline?: { file: string; runId: string };
    target: { baseUrl: string; embedded: boolean };
    implementation?: { label?: string; version?: string };
  };
  outcome: {
    outcome: Outcome;
    exitCode: number;
    counts: Record<ResultState, number>;
    certifying: boolean;
    notCertifyingBecause: string[];
  };
}

export interface Statement {
  _type: typeof STATEMENT_TYPE;
  subject: Subject[];
  predicateType: typeof PREDICATE_TYPE;
  predicate: CertificationPredicate;
}

/** The waivers a report applied, in catalogue order. */
export function waiversOf(report: Report): WaiverRecord[] {
  return report.results.flatMap((r) => {
    const w = r.waiver;
    if (w === undefined) return [];
    return [{ requirement: r.requirement.id, status: w.status, reason: w.reason, ...(w.issue === undefined ? {} : { issue: w.issue }), ...(w.expires === undefined ? {} : { expires: w.expires }), state: w.state }];
  });
}

/** The run as the manifest records it, from its report. */
export function predicateOf(report: Report, harness: HarnessIdentity): CertificationPredicate {
  const meta = report.meta;
  return {
    harness: { name: harness.name, version: harness.version, packageDigest: { sha256: harness.packageDigest } },
    specDigest: { sha256: harness.specDigest },
    catalogueDigest: { sha256: harness.catalogueDigest },
    contractDigest: { sha256: meta.contractDigest },
    node: meta.node,
    platform: `${process.platform}-${process.arch}`,
    run: {
      id: meta.runId,
      startedAt: meta.startedAt,
      finishedAt: meta.finishedAt,
      seed: meta.seed,
      selection: meta.selection ?? { suites: [], only: [], skip: [] },
      failOn: meta.failOn,
      limits: meta.limits,
      waivers: waiversOf(report),
      ...(meta.expectations === undefined ? {} : { expectations: meta.expectations }),
      ...(meta.baseline === undefined ? {} : { baseline: meta.baseline }),
      target: { baseUrl: meta.target.baseUrl, embedded: meta.target.embedded },
      ...(meta.implementation === undefined ? {} : { implementation: meta.implementation }),
    },
    outcome: {
      outcome: report.outcome,
      exitCode: report.exitCode,
      counts: report.counts,
      certifying: meta.certifying,
      notCertifyingBecause: meta.notCertifyingBecause ?? [],
    },
  };
}

export function statementOf(subjects: Subject[], predicate: CertificationPredicate): Statement {
  return { _type: STATEMENT_TYPE, subject: subjects, predicateType: PREDICATE_TYPE, predicate };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const HEX_64 = /^[0-9a-f]{64}$/;

function isDigestSet(value: unknown): value is DigestSet {
  return isRecord(value) && typeof value['sha256'] === 'string' && HEX_64.test(value['sha256']);
}

/**
 * `value` as this harness's Statement, or why it is not one (one clause). Only what verify reads
 * is checked here; the predicate's run facts are compared with report.json field by field.
 */
export function parseStatement(value: unknown): Statement | string {
  if (!isRecord(value)) return 'is not a JSON object';
  if (value['_type'] !== STATEMENT_TYPE) return `is not an in-toto Statement v1 (_type ${JSON.stringify(value['_type'])})`;
  if (value['predicateType'] !== PREDICATE_TYPE) return `has predicateType ${JSON.stringify(value['predicateType'])}; expected ${PREDICATE_TYPE}`;
  const subject = value['subject'];
  if (!Array.isArray(subject) || !subject.every((s) => isRecord(s) && typeof s['name'] === 'string' && isDigestSet(s['digest']))) {
    return 'has a subject list that is not [{name, digest: {sha256}}]';
  }
  const p = value['predicate'];
  if (!isRecord(p)) return 'has no predicate';
  const harness = p['harness'];
  if (!isRecord(harness) || typeof harness['name'] !== 'string' || typeof harness['version'] !== 'string' || !isDigestSet(harness['packageDigest'])) {
    return 'has no predicate.harness {name, version, packageDigest}';
  }
  for (const key of ['specDigest', 'catalogueDigest', 'contractDigest']) if (!isDigestSet(p[key])) return `has no predicate.${key} {sha256}`;
  if (!isRecord(p['run']) || !isRecord(p['outcome'])) return 'has no predicate.run or predicate.outcome';
  return value as unknown as Statement;
}
