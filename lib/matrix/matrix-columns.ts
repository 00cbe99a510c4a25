import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative, sep } from 'node:path';
import { BUNDLE_FILE_NAME } from '../certification/bundle-layout.ts';
import { bundledManifest } from '../certification/bundled-manifest.ts';
import { bundledReport } from '../certification/bundled-report.ts';
import { openBundle, type OpenedBundle } from '../certification/open-bundle.ts';
import type { PublicKey } from '../certification/signing-key.ts';
import { verifyBundle, type Verification } from '../certification/verify-bundle.ts';
import { BundleError } from '../errors.ts';
import type { Report } from '../report/report-model.ts';
import { pathForReport } from '../report/local-paths.ts';
import { REPORT_FILE_NAMES } from '../report/write-reports.ts';
import { reportHtml } from '../report/writers/html.ts';
import { isPartial } from '../catalogue/selection.ts';
import type { ColumnInput, MatrixColumn } from './matrix-model.ts';

/** Folder of the matrix that holds what merged columns link to: each bundle and its report.html. */
export const EVIDENCE_FOLDER = 'evidence';

export type NamedPublicKey = PublicKey & { file: string };

export interface BundleColumnOptions {
  /** The column's id (a target's name); by default one made from its heading, unique among `taken`. */
  id?: string;
  /** Ids the other columns have: a made id is added to it. */
  taken?: Set<string>;
  /** The heading; by default the implementation's label, or the target's host. */
  name?: string;
  /** The folder matrix.html is written to: links are relative to it. */
  matrixDir: string;
  /**
   * in-place: the bundle sits inside the matrix folder (a run of `matrix`): link to it and to the
   * report.html beside it. copy: a bundle made elsewhere (`matrix merge`): it is copied into
   * evidence/<id>/, with its report.html taken out when it verifies, so that the matrix folder is
   * all a reader needs.
   */
  evidence: 'in-place' | 'copy';
  /** Public keys of the signers: each bundle is checked with the one whose key id it names. */
  publicKeys?: readonly NamedPublicKey[];
}

/** A link from the matrix folder, with `/` whatever the platform. */
function href(matrixDir: string, path: string): string {
  return relative(matrixDir, path).split(sep).join('/');
}

function keyFor(bundle: OpenedBundle, keys: readonly NamedPublicKey[]): NamedPublicKey | undefined {
  if (keys.length === 0) return undefined;
  const manifest = bundledManifest(bundle);
  const signer = 'envelope' in manifest ? manifest.envelope?.signatures[0]?.keyid : undefined;
  // No key of the signer: verify with the first, which then names the mismatch.
  return keys.find((k) => k.keyid === signer) ?? keys[0];
}

/** The column's heading when none is given: the implementation's label, or what was certified. */
function defaultName(v: Verification): string {
  const impl = v.run?.implementation;
  if (impl?.label !== undefined) return impl.label;
  if (v.run === undefined) return 'unreadable bundle';
  return v.run.embedded ? 'embedded reference' : new URL(v.run.baseUrl).host;
}

function problemText(v: Verification): string {
  const first = v.problems[0];
  if (first === undefined) return '';
  return `${first.file}${first.requirement === undefined ? '' : ` ${first.requirement}`}: ${first.message}`;
}

/** An id from a heading: the characters a folder name may have, made unique among `taken` (`acme`, `acme-2`). */
export function columnId(name: string, taken: Set<string>): string {
  const base = name.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[^A-Za-z0-9]+/, '').slice(0, 64).replace(/[-.]+$/, '') || 'bundle';
  let id = base;
  for (let n = 2; taken.has(id.toLowerCase()); n++) id = `${base}-${n}`;
  taken.add(id.toLowerCase());
  return id;
}

/** Copies a bundle made elsewhere into evidence/<id>/ (an archive as it is, a folder file by file). */
function copyBundle(bundle: OpenedBundle, dir: string): string {
  mkdirSync(dir, { recursive: true });
  if (bundle.form === 'tar.gz') {
    const path = join(dir, BUNDLE_FILE_NAME);
    copyFileSync(bundle.source, path);
    return path;
  }
  const root = join(dir, 'bundle');
  for (const [name, bytes] of bundle.files) {
    mkdirSync(dirname(join(root, name)), { recursive: true });
    writeFileSync(join(root, name), bytes);
  }
  return root;
}

/**
 * A column from a certification bundle, verified here with the same checks as `verify` (digests,
 * signature, harness and catalogue, every verdict re-derived from its evidence). Only a bundle
 * that verifies gives verdicts; one that does not, or that is no bundle at all, is a column that
 * says why.
 */
export async function bundleColumn(source: string, options: BundleColumnOptions): Promise<ColumnInput> {
  let bundle: OpenedBundle;
  try {
    bundle = openBundle(source);
  } catch (err) {
    if (!(err instanceof BundleError)) throw err;
    const name = options.name ?? basename(source);
    const id = options.id ?? columnId(name, options.taken ?? new Set());
    return { column: { id, name, state: 'does-not-verify', reason: err.message, problems: 1 } };
  }
  const key = keyFor(bundle, options.publicKeys ?? []);
  const v = await verifyBundle(bundle, key === undefined ? {} : { publicKey: key });
  const read = bundledReport(bundle);
  const report: Report | undefined = 'report' in read ? read.report : undefined;
  const impl = v.run?.implementation;
  const name = options.name ?? [defaultName(v), impl?.version].filter((x) => x !== undefined).join(' ');
  const column: MatrixColumn = {
    id: options.id ?? columnId(name, options.taken ?? new Set()),
    name,
    ...(impl?.label === undefined ? {} : { label: impl.label }),
    ...(impl?.version === undefined ? {} : { version: impl.version }),
    state: v.intact ? 'verified' : 'does-not-verify',
    ...(v.intact ? {} : { reason: problemText(v), problems: v.problems.length }),
    ...(v.harness === undefined ? {} : { harness: { name: v.harness.name, version: v.harness.version, sameBuild: v.harness.sameBuild } }),
    bundle: {
      source: pathForReport(source),
      form: bundle.form,
      sha256: bundle.digest,
      signature: v.signature.state,
      ...(v.signature.keyid === undefined ? {} : { keyid: v.signature.keyid }),
    },
  };
  if (v.intact && report !== undefined && v.outcome !== undefined) {
    const meta = report.meta;
    column.outcome = v.outcome.outcome;
    // Ended at the preflight (a token refused, no server there): why, in the run's own words.
    if (report.stopped?.at === 'preflight') column.reason = report.stopped.reason;
    column.exitCode = v.outcome.exitCode;
    column.counts = v.outcome.counts;
    column.certifying = v.certification.certifying;
    if (!v.certification.certifying) column.notCertifyingBecause = v.certification.because;
    const partial = meta.selection !== undefined && isPartial(meta.selection);
    column.run = { id: meta.runId, baseUrl: meta.target.baseUrl, embedded: meta.target.embedded, startedAt: meta.startedAt, seed: meta.seed, suites: meta.suites, partial };
  }
  if (options.evidence === 'in-place') {
    column.bundle!.href = href(options.matrixDir, source);
    if (column.state === 'verified') column.report = href(options.matrixDir, join(dirname(source), REPORT_FILE_NAMES.html));
  } else {
    const dir = join(options.matrixDir, EVIDENCE_FOLDER, column.id);
    column.bundle!.href = href(options.matrixDir, copyBundle(bundle, dir));
    if (column.state === 'verified' && report !== undefined) {
      // Verify compares the bundle's report.html with what this harness writes only when the same
      // build made it: from another build, the page a reader opens is written here, from the
      // verified report.json, never taken as it came.
      const html = column.harness?.sameBuild === true ? bundle.files.get(REPORT_FILE_NAMES.html) : undefined;
      writeFileSync(join(dir, REPORT_FILE_NAMES.html), html ?? reportHtml(report));
      column.report = href(options.matrixDir, join(dir, REPORT_FILE_NAMES.html));
    }
  }
  return column.state === 'verified' && report !== undefined ? { column, report } : { column };
}
