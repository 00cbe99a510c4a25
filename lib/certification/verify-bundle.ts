import { createHash } from 'node:crypto';
import type { Outcome, Report, ResultState } from '../report/report-model.ts';
import { scopeClauses } from '../report/run-scope.ts';
import { REPORT_FILE_NAMES, REPORT_FORMATS } from '../report/write-reports.ts';
import { EXCHANGES_RECORD, MANIFEST_NAME, PROFILE_NAME } from './bundle-layout.ts';
import { bundledManifest } from './bundled-manifest.ts';
import { bundledReport, REPORT_NAME } from './bundled-report.ts';
import { envelopeVerifies, type DsseEnvelope } from './dsse.ts';
import { firstDifference } from './first-difference.ts';
import { harnessIdentity, type HarnessIdentity } from './harness-identity.ts';
import type { OpenedBundle } from './open-bundle.ts';
import { recordEdits } from './record-edits.ts';
import { rederive } from './rederive.ts';
import type { PublicKey } from './signing-key.ts';
import { predicateOf, type CertificationPredicate, type Statement } from './statement.ts';
import type { VerifyProblem } from './verify-problem.ts';

/**
 * `asi-conformance verify`: a bundle checked offline, as a certifier reviewing a submission would.
 * Every file against the manifest's digests; the signature with the signer's public key; the
 * harness that made it against this one (same catalogue, same build); the manifest against the
 * report; then every verdict re-derived from the evidence (rederive.ts). Whether the run is a
 * certification is said apart from whether the bundle is intact.
 */

export interface VerifyOptions {
  publicKey?: PublicKey & { file: string };
}

export type SignatureState = 'verified' | 'not-checked' | 'unsigned' | 'failed';

export interface Verification {
  source: string;
  form: OpenedBundle['form'];
  digest: string;
  files: number;
  signature: { state: SignatureState; keyid?: string };
  /** The harness that made the run, and how it compares with this one. */
  harness: { name: string; version: string; sameBuild: boolean; sameCatalogue: boolean } | undefined;
  /** What was checked, a line each, with the step's name. */
  checked: Array<{ name: string; line: string }>;
  problems: VerifyProblem[];
  intact: boolean;
  certification: { certifying: boolean; because: string[] };
  run?: { id: string; baseUrl: string; embedded: boolean; implementation?: { label?: string; version?: string }; startedAt: string };
  /**
   * What the run tested, when it is not a full run of a target at the spec's limits without
   * waivers (the embedded reference, a subset, waivers, other limits): short clauses, said first.
   */
  scope?: string[];
  outcome?: { outcome: Outcome; exitCode: number; counts: Record<ResultState, number> };
}

/** Every file a run's bundle holds besides the manifest. */
const REQUIRED = [...REPORT_FORMATS.map((f) => REPORT_FILE_NAMES[f]), PROFILE_NAME, EXCHANGES_RECORD];

function sha256(data: Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}

/**
 * Each file against the manifest: listed twice, removed, changed or added after the run. An
 * edited exchange record says which of its lines changed (record-edits.ts), not only its digest.
 */
export async function digestProblems(bundle: OpenedBundle, statement: Pick<Statement, 'subject'>, required: readonly string[] = REQUIRED): Promise<VerifyProblem[]> {
  const problems: VerifyProblem[] = [];
  const listed = new Map<string, string>();
  for (const s of statement.subject) {
    if (listed.has(s.name)) problems.push({ file: MANIFEST_NAME, message: `lists ${s.name} twice` });
    listed.set(s.name, s.digest.sha256);
  }
  for (const [name, want] of listed) {
    const bytes = bundle.files.get(name);
    if (bytes === undefined) problems.push({ file: name, message: 'is listed in the manifest but missing from the bundle: removed after the run' });
    else if (sha256(bytes) !== want) problems.push({ file: name, message: `has SHA-256 ${sha256(bytes)}; the manifest says ${want}: changed after the run` });
  }
  const record = problems.find((p) => p.file === EXCHANGES_RECORD && p.message.endsWith('changed after the run'));
  const har = REPORT_FILE_NAMES.har;
  const harIntact = bundle.files.has(har) && listed.get(har) === sha256(bundle.files.get(har)!);
  if (record !== undefined && harIntact) {
    const where = await recordEdits(bundle);
    if (where !== undefined) record.message += `: ${where}`;
  }
  for (const name of bundle.files.keys()) {
    if (name !== MANIFEST_NAME && !listed.has(name)) problems.push({ file: name, message: 'is in the bundle but not in the manifest: added after the run' });
  }
  for (const name of required) {
    if (!listed.has(name) && !bundle.files.has(name)) problems.push({ file: name, message: 'is missing from the bundle and its manifest: every bundle holds it' });
  }
  return problems;
}

export function signatureOf(manifest: { envelope?: DsseEnvelope }, options: VerifyOptions): { state: SignatureState; keyid?: string; problem?: string } {
  const envelope = manifest.envelope;
  const keyid = envelope?.signatures[0]?.keyid;
  const key = options.publicKey;
  if (envelope === undefined) {
    return key === undefined ? { state: 'unsigned' } : { state: 'failed', problem: `is not signed, but --public-key ${key.file} was given: a signed bundle was expected` };
  }
  if (key === undefined) return { state: 'not-checked', ...(keyid === undefined ? {} : { keyid }) };
  if (envelopeVerifies(envelope, key.key)) return { state: 'verified', keyid: key.keyid };
  const signers = envelope.signatures.map((s) => s.keyid).filter((k) => k !== '');
  const problem = signers.includes(key.keyid)
    ? `its signature by key ${key.keyid} does not verify: the manifest was changed after it was signed`
    : `is signed by key ${signers.join(', ') || '(no key id)'}, not by the key of --public-key ${key.file} (${key.keyid})`;
  return { state: 'failed', ...(keyid === undefined ? {} : { keyid }), problem };
}

interface HarnessComparison {
  harness: NonNullable<Verification['harness']>;
  checked: Verification['checked'];
  problems: VerifyProblem[];
  because: string[];
}

/** The harness that made the run against this one: catalogue (else nothing re-derives), build, spec text, contract. */
export function compareHarness(p: Pick<CertificationPredicate, 'harness' | 'specDigest' | 'catalogueDigest' | 'contractDigest'>, mine: HarnessIdentity): HarnessComparison {
  const made = p.harness;
  const sameCatalogue = p.catalogueDigest.sha256 === mine.catalogueDigest;
  const sameBuild = made.packageDigest.sha256 === mine.packageDigest;
  const problems: VerifyProblem[] = [];
  const because: string[] = [];
  if (!sameCatalogue) {
    problems.push({
      file: MANIFEST_NAME,
      message: `made by ${made.name} ${made.version} with another requirement catalogue (sha256 ${p.catalogueDigest.sha256.slice(0, 16)}…): this verifier (${mine.version}) cannot re-derive its verdicts; verify with that version: npx ${made.name}@${made.version} verify`,
    });
    because.push(`its requirement catalogue is not this verifier's (${made.name} ${made.version} made it)`);
  } else if (!sameBuild) {
    because.push(
      made.version === mine.version
        ? `${made.name} ${made.version} made it, but its package digest (${made.packageDigest.sha256.slice(0, 16)}…) is not this verifier's (${mine.packageDigest.slice(0, 16)}…): a locally modified harness (or a different build) made this run, or this verifier is one`
        : `${made.name} ${made.version} made it and this verifier is ${mine.version}: only ${made.name} ${made.version} can confirm that harness was unmodified (npx ${made.name}@${made.version} verify)`,
    );
  }
  const build = sameBuild ? 'the same build as this verifier' : made.version === mine.version ? 'the same version as this verifier, another build' : `another version than this verifier (${mine.version})`;
  const same = [
    sameCatalogue ? `the same requirement catalogue (${mine.requirements} requirements)` : 'another requirement catalogue',
    p.specDigest.sha256 === mine.specDigest ? 'the same spec text' : 'another copy of the spec text',
    p.contractDigest.sha256 === mine.contractDigest ? 'the same contract' : 'another contract',
  ];
  return {
    harness: { name: made.name, version: made.version, sameBuild, sameCatalogue },
    checked: [
      { name: 'harness', line: `${made.name} ${made.version}, ${build} (package sha256 ${made.packageDigest.sha256.slice(0, 16)}…)` },
      { name: 'catalogue', line: same.join(', ') },
    ],
    problems,
    because,
  };
}

/** The manifest says what report.json says about the run: one edited without the other shows here. */
function manifestAgreement(p: CertificationPredicate, report: Report): VerifyProblem | undefined {
  const made: HarnessIdentity = {
    ...harnessIdentity(),
    name: p.harness.name,
    version: p.harness.version,
    packageDigest: p.harness.packageDigest.sha256,
    specDigest: p.specDigest.sha256,
    catalogueDigest: p.catalogueDigest.sha256,
  };
  const d = firstDifference(p, { ...predicateOf(report, made), platform: p.platform }, 'predicate', { a: 'the manifest says', b: 'report.json' });
  return d === undefined ? undefined : { file: MANIFEST_NAME, message: `disagrees with report.json at ${d}` };
}

/** Why the run itself is no certification, beyond what its report says: waivers given, the outcome, requirements not judged. */
function runReasons(report: Report): string[] {
  const meta = report.meta;
  const because = [...(meta.notCertifyingBecause ?? [])];
  if (meta.expectations !== undefined && !report.results.some((r) => r.waiver?.state === 'waived')) because.push(`an expectations file (${meta.expectations}) was given: a certification has no waiver`);
  if (report.outcome !== 'conformant' && report.outcome !== 'partial') because.push(`the outcome is ${report.outcome}`);
  const unjudged = report.results.filter((r) => !r.unchosen && (r.verdict === 'not-run' || r.verdict === 'inconclusive' || r.verdict === 'uncovered'));
  if (unjudged.length > 0) {
    const some = unjudged.slice(0, 3).map((r) => `${r.requirement.id} ${r.verdict}`).join(', ');
    because.push(`${unjudged.length} requirement${unjudged.length === 1 ? ' has' : 's have'} no verdict of their own (${some}${unjudged.length > 3 ? ', …' : ''})`);
  }
  return because;
}

/**
 * The problems with the files changed after the run first (their digests do not match, or they
 * were added or removed), then what was found in files derived from them: a report.json edited
 * leaves junit.xml as the run wrote it, only no longer what report.json gives. Those are marked
 * as consequences of the change, not named as changed themselves.
 */
export function changedFirst(problems: VerifyProblem[]): VerifyProblem[] {
  const changed = new Set(problems.filter((p) => p.from === undefined && p.file !== MANIFEST_NAME).map((p) => p.file));
  const own: VerifyProblem[] = [];
  const consequences: VerifyProblem[] = [];
  for (const p of problems) {
    const causes = changed.has(p.file) ? [] : (p.from ?? []).filter((f) => changed.has(f));
    const { from: _from, ...problem } = p;
    if (causes.length === 0) own.push(problem);
    else consequences.push({ ...problem, consequenceOf: causes });
  }
  return [...own, ...consequences];
}

/** Verifies an opened bundle; never throws on its contents (they are data from elsewhere). */
export async function verifyBundle(bundle: OpenedBundle, options: VerifyOptions = {}): Promise<Verification> {
  const problems: VerifyProblem[] = [];
  const checked: Verification['checked'] = [];
  const because: string[] = [];
  const manifest = bundledManifest(bundle);
  const read = bundledReport(bundle);
  let signature: Verification['signature'] = { state: 'unsigned' };
  let harness: Verification['harness'];

  if ('problem' in manifest) {
    problems.push({ file: MANIFEST_NAME, message: manifest.problem });
    because.push('the manifest cannot be read');
  } else {
    const { statement } = manifest;
    const sig = signatureOf(manifest, options);
    signature = { state: sig.state, ...(sig.keyid === undefined ? {} : { keyid: sig.keyid }) };
    if (sig.problem !== undefined) problems.push({ file: MANIFEST_NAME, message: sig.problem });
    const digests = await digestProblems(bundle, statement);
    problems.push(...digests);
    checked.push({ name: 'manifest', line: `in-toto Statement v1 listing ${statement.subject.length} files${digests.length === 0 ? ', every SHA-256 matches' : ''}` });
    const compared = compareHarness(statement.predicate, harnessIdentity());
    harness = compared.harness;
    checked.push(...compared.checked);
    problems.push(...compared.problems);
    because.push(...compared.because);
    const disagreement = 'problem' in read ? undefined : manifestAgreement(statement.predicate, read.report);
    if (disagreement !== undefined) problems.push({ ...disagreement, from: [REPORT_NAME] });
  }

  if (harness?.sameCatalogue !== false) {
    const { steps } = await rederive(bundle);
    for (const step of steps) {
      checked.push({ name: step.name, line: step.checked });
      problems.push(...step.problems);
    }
  } else if ('problem' in read) problems.push(read.problem);

  const ordered = changedFirst(problems);
  const verification: Verification = {
    source: bundle.source,
    form: bundle.form,
    digest: bundle.digest,
    files: bundle.files.size,
    signature,
    harness,
    checked,
    problems: ordered,
    intact: ordered.length === 0,
    certification: { certifying: false, because },
  };
  if (!('problem' in read)) {
    const { report } = read;
    const meta = report.meta;
    verification.run = { id: meta.runId, baseUrl: meta.target.baseUrl, embedded: meta.target.embedded, startedAt: meta.startedAt, ...(meta.implementation === undefined ? {} : { implementation: meta.implementation }) };
    verification.outcome = { outcome: report.outcome, exitCode: report.exitCode, counts: report.counts };
    verification.scope = scopeClauses(meta, report.counts.waived);
    because.unshift(...runReasons(report));
  }
  if (problems.length > 0) because.unshift('the bundle does not verify');
  verification.certification = { certifying: because.length === 0, because };
  return verification;
}
